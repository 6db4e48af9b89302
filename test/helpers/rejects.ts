// A promise that must reject with a ResembleError of a given code and message.
import * as assert from 'uvu/assert';
import { ResembleError } from '../../src/index.js';

/** Takes a promise, an error code and a message pattern; returns the ResembleError it rejects with (fails the test if it resolves or rejects otherwise). */
export async function rejects(p: Promise<unknown>, code: string, message: RegExp): Promise<ResembleError> {
  try {
    await p;
  } catch (e) {
    assert.instance(e, ResembleError);
    assert.is((e as ResembleError).code, code);
    assert.match((e as ResembleError).message, message);
    return e as ResembleError;
  }
  assert.unreachable('expected a rejection');
  throw new Error('unreachable');
}
