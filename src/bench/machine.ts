import { availableParallelism, cpus, loadavg, platform, arch } from 'node:os';

/** The conditions a measurement was taken under, printed above every table. */
export interface Machine {
  node: string;
  cpu: string;
  cores: number;
  /** 1, 5 and 15 minute load averages (all 0 on Windows). */
  load: [number, number, number];
  platform: string;
}

/** Takes nothing; returns the machine's conditions now. */
export function machine(): Machine {
  const c = cpus();
  const [a, b, d] = loadavg();
  return {
    node: process.version,
    cpu: (c[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim(),
    cores: availableParallelism(),
    load: [a, b, d],
    platform: `${platform()} ${arch()}`,
  };
}

/** Takes a Machine; returns its one-line description. */
export function machineLine(m: Machine): string {
  const busy = m.load[0] > m.cores ? ' (busier than its cores)' : '';
  return `node ${m.node} · ${m.cpu} · ${m.cores} cores · load ${m.load.map((x) => x.toFixed(2)).join(' ')}${busy} · ${m.platform}`;
}
