import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hostTerms, pathWords, prefixTerms, selectionSize, shingleTerms, termLength } from '../../src/mirrors/terms.js';
import { hconn1Weight, hconn2Weight, hostsWeight, pathsWeight, sizeScale } from '../../src/mirrors/weights.js';

const close = (a: number, b: number, eps = 1e-9) => assert.ok(Math.abs(a - b) < eps, `${a} ≠ ${b}`);

test('the paper\'s worked example: positional word bigrams of conferences/dl99/advanceprogram.html (§3.2.4)', () => {
  assert.equal(pathWords('conferences/dl99/advanceprogram.html'), ['conferences', 'dl*', 'advanceprogram', 'html']);
  assert.equal(shingleTerms('conferences/dl99/advanceprogram.html'), ['conferences_dl*_0', 'dl*_advanceprogram_1', 'advanceprogram_html_2']);
});

test('word normalization: non-alphanumerics removed, digit runs become *, empty words dropped', () => {
  assert.equal(pathWords('~user/2001-02/img_07.JPG'), ['user', '*', 'img*', 'JPG']);
  assert.equal(pathWords('a//b/./c.'), ['a', 'b', 'c']);
  assert.equal(shingleTerms('index.html'), ['index_html_0']);
  assert.equal(shingleTerms('readme'), []);
  assert.equal(shingleTerms(''), []);
});

test('prefix terms end in / or end the path (§3.2.3)', () => {
  assert.equal(prefixTerms('conferences/dl99/advanceprogram.html'), ['conferences/', 'conferences/dl99/', 'conferences/dl99/advanceprogram.html']);
  assert.equal(prefixTerms('docs/'), ['docs/']);
  assert.equal(prefixTerms('index.html'), ['index.html']);
  assert.equal(prefixTerms(''), []);
});

test('host terms: every run of labels; IP-literal hosts give 2-, 3- and 4-octet prefixes (§3.2.1)', () => {
  assert.equal(hostTerms('www.research.digital.com').sort(), [
    'com', 'digital', 'digital.com', 'research', 'research.digital', 'research.digital.com',
    'www', 'www.research', 'www.research.digital', 'www.research.digital.com',
  ].sort());
  assert.equal(hostTerms('209.1.28.62'), ['209.1', '209.1.28', '209.1.28.62']);
  assert.equal(hostTerms('209.1.28.62:8080'), ['209.1', '209.1.28', '209.1.28.62']);
  assert.equal(hostTerms('[2001:db8::1]'), ['2001:db8', '2001:db8:0', '2001:db8:0:0', '2001:db8:0:0:0:0:0:1']);
  assert.is(termLength('digital.com'), 2);
  assert.is(termLength('209.1.28'), 3);
  assert.is(termLength('2001:db8:0'), 3);
});

test('10·log p terms per host, base 10, rounded up, at least one', () => {
  assert.is(selectionSize(1000), 30);
  assert.is(selectionSize(100), 20);
  assert.is(selectionSize(5), 7); // 10·log10 5 = 6.99
  assert.is(selectionSize(2), 4); // 3.01
  assert.is(selectionSize(1), 1);
});

test('hosts weight log(len) / (1 + log df), by hand', () => {
  close(hostsWeight(2, 1), Math.log10(2)); // 0.30103
  close(hostsWeight(3, 10), 0.4771212547 / 2, 1e-9);
  close(hostsWeight(4, 100), 0.6020599913 / 3, 1e-9);
  assert.is(hostsWeight(1, 5), 0); // single labels ('com', 'www') weigh nothing
});

test('paths weight 1 + log(maxdf / df), by hand', () => {
  close(pathsWeight(10, 100), 2);
  close(pathsWeight(100, 100), 1);
  close(pathsWeight(1, 100), 3);
  close(pathsWeight(4, 8), 1.3010299957);
});

test('prefix scaling 1 / (0.1 + 0.15 (log n1 + log n2)) is 1 at about 1000 URLs each (§3.2.3)', () => {
  close(sizeScale(1000, 1000), 1);
  close(sizeScale(100, 100), 1 / 0.7);
  close(sizeScale(10, 100000), 1);
  close(sizeScale(100, 12e6), 1 / (0.1 + 0.15 * (2 + Math.log10(12e6))));
});

test('hconn1 weights: 1 to 25, 25/in to 125, then min(1/5, 200/in); hconn2 times 1 + log(maxin/in) (§3.4)', () => {
  assert.is(hconn1Weight(1), 1);
  assert.is(hconn1Weight(25), 1);
  close(hconn1Weight(50), 0.5);
  close(hconn1Weight(125), 0.2);
  close(hconn1Weight(500), 0.2);
  close(hconn1Weight(1000), 0.2);
  close(hconn1Weight(2000), 0.1);
  close(hconn2Weight(50, 500), 0.5 * 2);
  close(hconn2Weight(10, 10), 1);
  close(hconn2Weight(1, 1000), 4);
});

test.run();
