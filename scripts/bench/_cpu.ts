import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time from Linux's /proc, in seconds: a figure a busy machine disturbs far less than
 * wall-clock time (the benchmark machine is shared; docs/benchmarks.md says when).
 */

const TICKS = 100; // USER_HZ: /proc reports clock ticks of 1/100 s on Linux.

function fields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** User + system CPU of a process (its threads included); with `reaped`, of its exited children too. */
export function cpuSeconds(pid: number, reaped = false): number {
  const f = fields(pid);
  if (!f) return 0;
  const own = Number(f[11]) + Number(f[12]);
  return (reaped ? own + Number(f[13]) + Number(f[14]) : own) / TICKS;
}

export const parentOf = (pid: number): number | null => {
  const f = fields(pid);
  return f ? Number(f[1]) : null;
};

/** A PostgreSQL server's CPU: the postmaster with its exited children, and its live backends. */
export function serverCpuSeconds(postmaster: number): number {
  let total = cpuSeconds(postmaster, true);
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid !== postmaster && parentOf(pid) === postmaster) total += cpuSeconds(pid);
  }
  return total;
}
