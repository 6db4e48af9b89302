// Apache Spark as the engine of the reduce side: the library renders the shipped SQL templates for
// the spark dialect (what `resemble plan --dialect spark` prints) and hands them to a small PySpark
// driver (sql/spark/driver.py) that `spark-submit` runs in client mode, so the driver sits on this
// machine and the executors wherever the master puts them. One driver (one SparkSession, one JVM)
// serves every job of a process that asks with the same settings while it is open: a command that
// needs Spark twice, or a test suite, starts it once.
//
// spark-submit is found through `sparkHome`, then SPARK_HOME, then an installed pyspark (the
// `python` option, PYSPARK_PYTHON, then python3 on the PATH), then `spark-submit` on the PATH.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { ResembleError, intOption, optionError, rejectUnknown } from '../errors.js';
import { templateFolder } from './template-files.js';

/** Options of the Spark engine. */
export interface SparkOptions {
  /** Spark master URL (default 'local[*]'): local-cluster[N,C,MB], spark://host:port, yarn, k8s://https://host:port. */
  master?: string;
  /** Spark configuration, as `--conf key=value` pairs (e.g. spark.executor.memory: '4g'). */
  sparkConf?: Record<string, string>;
  /** Folder holding bin/spark-submit (default: SPARK_HOME, else the installed pyspark's). */
  sparkHome?: string;
  /** Python with pyspark, for finding it and for the driver (default: PYSPARK_PYTHON, else python3). */
  python?: string;
  /** Folder for the files exchanged with Spark: sketch keys written for it, results read back (default: the system temp folder). Executors must see it: on a cluster, shared storage. */
  tempDir?: string;
  /** Seconds to wait for the SparkSession to start (default 300). */
  startTimeout?: number;
  /** Keep the exchanged files (default false). */
  keepTemp?: boolean;
}

/** Option names of the Spark engine. */
export const SPARK_OPTIONS = ['master', 'sparkConf', 'sparkHome', 'python', 'tempDir', 'startTimeout', 'keepTemp'] as const;

/** One job for the driver: SQL statements, one-row queries, query results written as Parquet, tables to drop. */
export interface SparkJob {
  statements?: string[];
  queries?: Record<string, string>;
  outputs?: { sql: string; path: string }[];
  drop?: string[];
}

/** The driver's answer to a job. */
export interface SparkResult {
  rows: Record<string, Record<string, number | string | null>>;
  outputs: { path: string; files: string[] }[];
  seconds: number;
}

/** Where spark-submit was found, and how. */
export interface SparkSubmit {
  path: string;
  home: string;
  python?: string;
  how: string;
}

function isFile(path: string): boolean {
  try { return statSync(path).isFile(); } catch { return false; }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isFile(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** Takes a python command; returns the folder of the pyspark it imports, or undefined. */
function pysparkHome(python: string): string | undefined {
  const r = spawnSync(python, ['-c', 'import os, pyspark; print(os.path.dirname(pyspark.__file__))'], { encoding: 'utf8', timeout: 30_000 });
  const home = r.status === 0 ? r.stdout.trim() : '';
  return home && isFile(join(home, 'bin', 'spark-submit')) ? home : undefined;
}

/** Takes the options; returns where spark-submit is, or throws E_ENGINE saying where it looked. */
export function findSparkSubmit(options: Pick<SparkOptions, 'sparkHome' | 'python'> = {}): SparkSubmit {
  const tried: string[] = [];
  const home = options.sparkHome ?? process.env.SPARK_HOME;
  if (home) {
    // a Spark home named is the one meant: no other is looked for
    const path = join(home, 'bin', 'spark-submit');
    if (isFile(path)) return { path, home, python: options.python ?? process.env.PYSPARK_PYTHON, how: options.sparkHome ? 'sparkHome' : 'SPARK_HOME' };
    throw new ResembleError('E_ENGINE', `the spark engine needs Apache Spark: ${options.sparkHome ? 'sparkHome' : 'SPARK_HOME'} is ${home}, which has no bin/spark-submit`, { sparkHome: home });
  }
  const python = options.python ?? process.env.PYSPARK_PYTHON ?? 'python3';
  const fromPip = pysparkHome(python);
  if (fromPip) return { path: join(fromPip, 'bin', 'spark-submit'), home: fromPip, python, how: `pyspark of ${python}` };
  tried.push(`the pyspark of ${python} (not installed)`);
  const submit = onPath('spark-submit');
  if (submit) return { path: submit, home: dirname(dirname(submit)), python: options.python ?? process.env.PYSPARK_PYTHON, how: 'PATH' };
  tried.push('spark-submit on the PATH (none)');
  throw new ResembleError('E_ENGINE', `the spark engine needs Apache Spark: set SPARK_HOME, or pip install pyspark (tried ${tried.join(', ')})`, { tried });
}

/** Returns the java that spark-submit will run (JAVA_HOME's, else the PATH's), or throws E_ENGINE. */
export function findJava(): string {
  const javaHome = process.env.JAVA_HOME;
  const java = javaHome ? join(javaHome, 'bin', 'java') : onPath('java');
  if (!java || !isFile(java)) {
    throw new ResembleError('E_ENGINE', javaHome
      ? `the spark engine needs Java 17 or later: JAVA_HOME is ${javaHome}, which has no bin/java`
      : 'the spark engine needs Java 17 or later: no java on the PATH and JAVA_HOME is not set', { java: javaHome ?? null });
  }
  return java;
}

/** Takes a master URL; resolves when it answers a TCP connection (spark:// and k8s:// masters), or throws E_ENGINE. */
export async function checkMaster(master: string, timeoutMs = 10_000): Promise<void> {
  const hosts: { host: string; port: number }[] = [];
  const spark = /^spark:\/\/(.+)$/.exec(master);
  if (spark) {
    for (const part of spark[1].split(',')) {
      const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(part.trim());
      if (!m) throw optionError('master', 'spark://host:port', master);
      hosts.push({ host: m[1], port: Number(m[2]) });
    }
  }
  const k8s = /^k8s:\/\/(https?):\/\/([^/:]+)(?::(\d+))?/.exec(master);
  if (k8s) hosts.push({ host: k8s[2], port: Number(k8s[3] ?? (k8s[1] === 'https' ? 443 : 80)) });
  if (hosts.length === 0) return;
  const errors: string[] = [];
  for (const { host, port } of hosts) {
    const ok = await new Promise<string | undefined>((resolve) => {
      const s = createConnection({ host, port });
      const timer = setTimeout(() => { s.destroy(); resolve(`no answer in ${timeoutMs / 1000} s`); }, timeoutMs);
      s.once('connect', () => { clearTimeout(timer); s.end(); resolve(undefined); });
      s.once('error', (e) => { clearTimeout(timer); resolve((e as NodeJS.ErrnoException).code ?? e.message); });
    });
    if (ok === undefined) return;
    errors.push(`${host}:${port} ${ok}`);
  }
  throw new ResembleError('E_ENGINE', `the Spark master ${master} does not answer (${errors.join(', ')}): start it, or pass another --master`, { master });
}

const MASTER = /^(local(\[(\*|\d+)(,\d+)?\])?|local-cluster\[\d+,\d+,\d+\]|spark:\/\/.+|yarn|k8s:\/\/.+|mesos:\/\/.+)$/;

/** Validated Spark options. */
interface ResolvedSpark {
  master: string;
  conf: Record<string, string>;
  sparkHome?: string;
  python?: string;
  tempDir?: string;
  startTimeout: number;
  keepTemp: boolean;
}

/** Takes Spark options; returns them validated, or throws E_OPTION. */
export function resolveSpark(options: SparkOptions, where = 'spark engine'): ResolvedSpark {
  rejectUnknown(options, SPARK_OPTIONS, where);
  const master = options.master ?? 'local[*]';
  if (typeof master !== 'string' || !MASTER.test(master)) throw optionError('master', 'a Spark master URL (local[N], local-cluster[N,C,MB], spark://host:port, yarn, k8s://…)', master);
  const conf: Record<string, string> = {};
  if (options.sparkConf !== undefined) {
    if (typeof options.sparkConf !== 'object' || options.sparkConf === null) throw optionError('sparkConf', 'an object of Spark settings', options.sparkConf);
    for (const [k, v] of Object.entries(options.sparkConf)) {
      if (!/^[A-Za-z0-9_.-]+$/.test(k) || typeof v !== 'string') throw optionError('sparkConf', 'key=value settings (keys like spark.executor.memory)', `${k}=${String(v)}`);
      conf[k] = v;
    }
  }
  for (const name of ['sparkHome', 'python', 'tempDir'] as const) {
    const v = options[name];
    if (v !== undefined && (typeof v !== 'string' || v === '')) throw optionError(name, 'a path', v);
  }
  if (options.keepTemp !== undefined && typeof options.keepTemp !== 'boolean') throw optionError('keepTemp', 'boolean', options.keepTemp);
  const startTimeout = intOption('startTimeout', options.startTimeout, 300, 1, 86_400);
  // spark-submit runs in a folder of its own: paths are made absolute (a bare python command stays one)
  const abs = (p: string | undefined) => (p === undefined ? undefined : resolve(p));
  const python = options.python === undefined || !options.python.includes('/') ? options.python : resolve(options.python);
  return { master, conf, sparkHome: abs(options.sparkHome), python, tempDir: abs(options.tempDir), startTimeout, keepTemp: options.keepTemp ?? false };
}

/** Takes `key=value` texts (the CLI's --spark-conf); returns them as settings, or throws E_OPTION. */
export function parseSparkConf(pairs: readonly string[], name = '--spark-conf'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const at = p.indexOf('=');
    if (at <= 0) throw optionError(name, 'key=value', p);
    out[p.slice(0, at)] = p.slice(at + 1);
  }
  return out;
}

/**
 * A running driver: one spark-submit process, one SparkSession, jobs one at a time in the order
 * sent. Opened with `openSpark`; sessions of the same settings are shared within a process.
 */
export class SparkSession {
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  private exited?: ResembleError;
  private users = 0;
  private stderr: string[] = [];
  /** The Spark version and master the driver reported. */
  version = '';
  master = '';

  private constructor(
    readonly key: string,
    private readonly child: ChildProcess,
    private readonly server: Server,
    /** Folder of this session's warehouse and exchanged files. */
    readonly folder: string,
    private readonly keepTemp: boolean,
  ) {}

  /** Starts a driver with these settings; resolves when its SparkSession is up. */
  static async start(key: string, o: ResolvedSpark): Promise<SparkSession> {
    findJava();
    const submit = findSparkSubmit(o);
    await checkMaster(o.master);
    const driver = join(templateFolder(), 'spark', 'driver.py');
    if (!existsSync(driver)) throw new ResembleError('E_ENGINE', `cannot find the Spark driver ${driver} of the package`);
    let folder: string;
    try {
      folder = mkdtempSync(join(o.tempDir ?? tmpdir(), 'resemble-spark-'));
    } catch (e) {
      throw new ResembleError('E_IO', `cannot make a temporary folder in ${o.tempDir ?? tmpdir()}: ${(e as Error).message}`, { path: o.tempDir });
    }
    const token = randomBytes(16).toString('hex');
    const server = createServer();
    await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
    const port = (server.address() as { port: number }).port;
    const conf = { 'spark.sql.warehouse.dir': join(folder, 'warehouse'), 'spark.ui.enabled': 'false', ...o.conf };
    const args = ['--master', o.master, '--name', 'resemble', ...Object.entries(conf).flatMap(([k, v]) => ['--conf', `${k}=${v}`]), driver, `127.0.0.1:${port}`, token];
    const env = { ...process.env, SPARK_HOME: submit.home, ...(submit.python ? { PYSPARK_PYTHON: submit.python, PYSPARK_DRIVER_PYTHON: submit.python } : {}) };
    const child = spawn(submit.path, args, { env, cwd: folder, stdio: ['ignore', 'ignore', 'pipe'] });
    const session = new SparkSession(key, child, server, folder, o.keepTemp);
    child.stderr!.setEncoding('utf8');
    let partial = '';
    child.stderr!.on('data', (c: string) => {
      const lines = (partial + c).split('\n');
      partial = lines.pop()!;
      session.stderr.push(...lines.filter((l) => l.trim() && !/^\s+at /.test(l)));
      if (session.stderr.length > 200) session.stderr.splice(0, session.stderr.length - 200);
    });
    try {
      await session.connect(token, o.startTimeout);
    } catch (e) {
      session.kill();
      throw e;
    }
    return session;
  }

  private socket?: Socket;

  private failure(what: string): ResembleError {
    const errs = this.stderr.filter((l) => /ERROR|Exception|Error:|error:/.test(l)).slice(-3);
    return new ResembleError('E_ENGINE', `Spark: ${what}${errs.length ? `: ${errs.join(' | ')}` : ''}`, { stderr: this.stderr.slice(-20).join('\n') });
  }

  private connect(token: string, timeout: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const fail = (e: ResembleError) => { if (!settled) { settled = true; clearTimeout(timer); reject(e); } };
      const timer = setTimeout(() => fail(this.failure(`the driver did not start in ${timeout} s`)), timeout * 1000);
      this.child.once('error', (e) => fail(new ResembleError('E_ENGINE', `Spark: cannot run spark-submit: ${e.message}`)));
      this.child.once('exit', (code, signal) => {
        this.exited = this.failure(`the driver stopped (${signal ?? `exit ${code}`})`);
        fail(this.exited);
        for (const p of this.pending.values()) p.reject(this.exited);
        this.pending.clear();
      });
      this.server.on('connection', (socket) => {
        if (this.socket) { socket.destroy(); return; }
        socket.setEncoding('utf8');
        let buffer = '', authed = false;
        socket.on('data', (chunk: string) => {
          buffer += chunk;
          let nl;
          while ((nl = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, nl);
            buffer = buffer.slice(nl + 1);
            let msg: Record<string, unknown>;
            try { msg = JSON.parse(line); } catch { continue; }
            if (!authed) {
              if (msg.token !== token) { socket.destroy(); return; }
              authed = true;
              this.socket = socket;
              continue;
            }
            if (msg.ready) {
              this.version = String(msg.spark); this.master = String(msg.master);
              settled = true; clearTimeout(timer); resolve();
              continue;
            }
            const p = this.pending.get(msg.id as number);
            if (p) { this.pending.delete(msg.id as number); p.resolve(msg); }
          }
        });
        socket.on('error', () => undefined);
      });
    });
  }

  private send(msg: Record<string, unknown>): Promise<Record<string, unknown>> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket!.write(JSON.stringify({ ...msg, id }) + '\n');
    });
  }

  /** Runs a job (after the jobs sent before it); resolves with its answer, or rejects E_ENGINE naming the statement that failed. */
  run(job: SparkJob): Promise<SparkResult> {
    const done = this.queue.then(async () => {
      const r = await this.send(job as Record<string, unknown>);
      if (!r.ok) throw new ResembleError('E_ENGINE', `Spark: ${String(r.error)}`, { sql: r.sql, trace: r.trace });
      return { rows: (r.rows ?? {}) as SparkResult['rows'], outputs: (r.outputs ?? []) as SparkResult['outputs'], seconds: Number(r.seconds ?? 0) };
    });
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** Resolves with the number of executors registered with the driver. */
  async executors(): Promise<number> {
    const r = await this.send({ executors: true });
    return Number((r.rows as Record<string, Record<string, number>>).executors.n);
  }

  /** A new folder in the session's folder for one job's files. */
  jobFolder(): string {
    return mkdtempSync(join(this.folder, 'job-'));
  }

  /** Counts one more user of the session. */
  acquire(): this {
    this.users++;
    return this;
  }

  /** Counts one user less; the last one stops the driver (resolves when it has exited). */
  async release(): Promise<void> {
    if (--this.users > 0) return;
    if (sessions.get(this.key) === this) sessions.delete(this.key);
    await this.stop();
  }

  private kill(): void {
    this.child.kill('SIGKILL');
    this.server.close();
    if (!this.keepTemp) rmSync(this.folder, { recursive: true, force: true });
  }

  private async stop(): Promise<void> {
    if (!this.exited) {
      const exit = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.socket?.write(JSON.stringify({ stop: true }) + '\n');
      this.socket?.end();
      const timer = setTimeout(() => this.child.kill('SIGTERM'), 60_000);
      await exit;
      clearTimeout(timer);
    }
    this.server.close();
    if (!this.keepTemp) rmSync(this.folder, { recursive: true, force: true });
  }
}

const sessions = new Map<string, Promise<SparkSession>>() as Map<string, Promise<SparkSession> | SparkSession>;

/**
 * Takes Spark options; returns a running session, started on first use and shared by every caller
 * with the same settings until each has called `release()`. Throws E_ENGINE when Java or Spark is
 * missing, the master does not answer or the driver does not start; E_OPTION for bad options.
 */
export async function openSpark(options: SparkOptions = {}): Promise<SparkSession> {
  const o = resolveSpark(options);
  const key = JSON.stringify([o.master, Object.entries(o.conf).sort(), o.sparkHome, o.python, o.tempDir]);
  let entry = sessions.get(key);
  if (!entry) {
    const starting = SparkSession.start(key, o);
    sessions.set(key, starting);
    starting.then((s) => sessions.set(key, s), () => sessions.delete(key));
    entry = starting;
  }
  return (await entry).acquire();
}
