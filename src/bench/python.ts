// The Python peers' environment: a virtual environment with the versions pinned in
// bench/requirements.txt, created the first time it is needed (and again when the pins change),
// or the reason there is none (no Python 3.10+, pip could not install), for a skip row.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Takes a file name; returns bench/NAME found upward from this module (sources and the built package alike), or undefined. */
export function findBenchFile(name: string): string | undefined {
  let dir = new URL('.', import.meta.url);
  for (let up = 0; up < 5; up++) {
    const candidate = new URL(`bench/${name}`, dir);
    if (candidate.protocol === 'file:' && existsSync(fileURLToPath(candidate))) return fileURLToPath(candidate);
    dir = new URL('..', dir);
  }
  return undefined;
}

/** The Python to run the peers with, and the script; or why there is none. */
export type PythonPeers = { python: string; script: string } | { skip: string };

const STAMP = '.resemble-requirements';

function lastLine(text: string | null | undefined): string {
  return (text ?? '').trim().split('\n').at(-1) ?? '';
}

/** A Python 3.10+ on PATH (python3, else python), or undefined. */
function systemPython(): string | undefined {
  for (const cmd of ['python3', 'python']) {
    const r = spawnSync(cmd, ['-c', 'import sys; print(int(sys.version_info >= (3, 10)))'], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.trim() === '1') return cmd;
  }
  return undefined;
}

/**
 * Takes the virtual environment's folder; returns its Python once it holds bench/requirements.txt's
 * pins (creating it and installing them when missing or stale: the folder keeps the requirements'
 * SHA-256), or the reason for a skip row. `log` hears what is being installed.
 */
export function benchPython(venv: string, log: (line: string) => void = () => {}): PythonPeers {
  const requirements = findBenchFile('requirements.txt'), script = findBenchFile('peers.py');
  if (!requirements || !script) return { skip: 'bench/requirements.txt or bench/peers.py not found beside the package' };
  const python = process.platform === 'win32' ? join(venv, 'Scripts', 'python.exe') : join(venv, 'bin', 'python');
  const stamp = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  if (existsSync(python) && existsSync(join(venv, STAMP)) && readFileSync(join(venv, STAMP), 'utf8').trim() === stamp) return { python, script };
  if (!existsSync(python)) {
    const system = systemPython();
    if (!system) return { skip: 'no Python 3.10 or later on PATH (python3 or python)' };
    log(`creating ${venv} (${system} -m venv)`);
    const made = spawnSync(system, ['-m', 'venv', venv], { encoding: 'utf8' });
    if (made.status !== 0) return { skip: `${system} -m venv ${venv} failed: ${lastLine(made.stderr)}` };
  }
  log(`installing bench/requirements.txt into ${venv}`);
  const pip = spawnSync(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '-r', requirements], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (pip.status !== 0) return { skip: `pip could not install bench/requirements.txt: ${lastLine(pip.stderr)}` };
  writeFileSync(join(venv, STAMP), stamp + '\n');
  return { python, script };
}
