import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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

/** A process and its live children (nginx's master and its workers). */
export function treeCpuSeconds(root: number): number {
  let total = cpuSeconds(root);
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid !== root && parentOf(pid) === root) total += cpuSeconds(pid);
  }
  return total;
}

/** The process listening on a loopback TCP port (from /proc/net/tcp and each process's fds), or null. */
export function listenerPid(port: number): number | null {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      // local address, state 0A (LISTEN), inode
      if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A') inode = f[9];
    }
  }
  if (!inode) return null;
  const target = `socket:[${inode}]`;
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return pid;
      } catch {}
    }
  }
  return null;
}

/** Busy CPU time of the whole machine, all cores (user, nice, system, irq, softirq), from /proc/stat. */
export function machineBusySeconds(): number {
  const f = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return ((f[0] ?? 0) + (f[1] ?? 0) + (f[2] ?? 0) + (f[5] ?? 0) + (f[6] ?? 0)) / TICKS;
}

/**
 * CPU of `root` and every process below it, with the children each has reaped (a wrk that
 * ran and exited counts too): what a benchmark's own processes used, to tell apart from the
 * rest of a shared machine's work (machineBusySeconds minus this).
 */
export function treeWithReapedCpuSeconds(root: number): number {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent !== null) parents.set(pid, parent);
  }
  const below = (pid: number) => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parents.get(p))
      if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const pid of parents.keys()) if (below(pid)) total += cpuSeconds(pid, true);
  return total;
}
