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

/** CPU milliseconds used so far by each kind of process on this machine (Linux's /proc; empty elsewhere). */
export function cpuByProcess(): Map<string, number> {
  const out = new Map<string, number>();
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
      out.set(kind, (out.get(kind) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10); // utime + stime, in 10 ms ticks
    } catch { /* the process ended meanwhile */ }
  }
  return out;
}

/** The CPU each kind of process used since `before`, largest first (kinds that used none left out). */
export function cpuSince(before: Map<string, number>): string {
  return [...cpuByProcess()].map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const).filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`).join(', ');
}
