/**
 * Where the machine's CPU went during a part of the bench, by kind of process (PostgreSQL's backends,
 * the product's API and worker, the bench itself, Redis): a measurement's own cost shows here.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** What a process on this machine is, for the bench's CPU accounts (its command line). */
function processKind(cmdline: string): string {
  if (cmdline.startsWith('postgres') || cmdline.includes('/bin/postgres ')) return /autovacuum/.test(cmdline) ? 'postgres autovacuum' : /postgres: .*\d+\.\d+\.\d+\.\d+\(\d+\)/.test(cmdline) ? 'postgres backends' : 'postgres other';
  if (cmdline.includes('worker/src/main')) return 'worker';
  if (cmdline.includes('api/src/main')) return 'api';
  if (cmdline.includes('scripts/bench.ts')) return 'bench (catcher, bare client)';
  if (cmdline.includes("app.get('/bare/")) return 'bare stack';
  if (cmdline.includes('redis')) return 'redis';
  return 'other';
}

/** The CPU milliseconds each process on this machine has used so far, by pid (Linux's /proc; empty elsewhere). */
export type CpuSnapshot = Map<number, { kind: string; ms: number }>;

export function cpuByProcess(): CpuSnapshot {
  const out: CpuSnapshot = new Map();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const kind = processKind(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
      out.set(Number(pid), { kind, ms: (Number(fields[11]) + Number(fields[12])) * 10 }); // utime + stime, in 10 ms ticks
    } catch { /* the process ended meanwhile */ }
  }
  return out;
}

/**
 * The CPU each kind of process used since `before`, largest first (kinds that used none left out).
 * By process, not by kind: a process that ended meanwhile (a pool's idle connection closing) takes
 * its whole past with it, which a sum by kind would subtract from the window; a process started
 * meanwhile counts from its start.
 */
export function cpuUsedSince(before: CpuSnapshot): Array<[kind: string, ms: number]> {
  const used = new Map<string, number>();
  for (const [pid, now] of cpuByProcess()) {
    const then = before.get(pid);
    const ms = now.ms - (then && then.kind === now.kind ? then.ms : 0);
    if (ms > 0) used.set(now.kind, (used.get(now.kind) ?? 0) + ms);
  }
  return [...used].sort((a, b) => b[1] - a[1]);
}

/** cpuUsedSince as a line: `kind 1.23 s, …`. */
export function cpuSince(before: CpuSnapshot): string {
  return cpuUsedSince(before).map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`).join(', ');
}
