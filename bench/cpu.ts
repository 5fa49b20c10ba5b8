import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where the machine's CPU went during a scenario, from /proc (Linux): the
 * service processes, PostgreSQL (the postmaster and its backends), this
 * process (which runs the balancer in instance runs), the load driver (a
 * child this process has reaped), and everything else on the machine, which
 * is other people's work on a shared host. Reported in cores (1.0 = one core
 * busy for the whole scenario), so a reader sees which part hit the ceiling.
 */
export interface CpuShares {
  services: number;
  postgres: number;
  balancer: number;
  loadDriver: number;
  others: number;
  machine: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

interface Ticks {
  own: number;
  reapedChildren: number;
  ppid: number;
}

function ticksOf(pid: number | 'self'): Ticks | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces: state is [0], ppid [1], utime [11] ... cstime [14].
    const fields = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    return { own: fields[11]! + fields[12]!, reapedChildren: fields[13]! + fields[14]!, ppid: fields[1]! };
  } catch {
    return null; // gone, or not Linux
  }
}

function postgresTicks(postmaster: number | null): number {
  if (postmaster === null) return 0;
  const main = ticksOf(postmaster);
  if (!main) return 0;
  let total = main.own + main.reapedChildren;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const child = ticksOf(Number(entry));
    if (child?.ppid === postmaster) total += child.own;
  }
  return total;
}

function machineBusyTicks(): number {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = values.map(Number);
  return user + nice + system + irq + softirq + steal;
}

interface Snapshot {
  at: number;
  services: number;
  postgres: number;
  self: Ticks;
  machine: number;
}

/** The postmaster's PID of an embedded cluster (first line of postmaster.pid), or null. */
export function postmasterPid(clusterDir: string): number | null {
  try {
    return Number(readFileSync(`${clusterDir}/postmaster.pid`, 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

export function cpuMeter(postmaster: number | null) {
  const snapshot = (services: readonly number[]): Snapshot => ({
    at: Date.now(),
    services: services.reduce((sum, pid) => sum + (ticksOf(pid)?.own ?? 0), 0),
    postgres: postgresTicks(postmaster),
    self: ticksOf('self') ?? { own: 0, reapedChildren: 0, ppid: 0 },
    machine: machineBusyTicks(),
  });

  return {
    /** Starts measuring the given service processes; the returned function ends the measurement. */
    start(services: readonly number[]): () => CpuShares {
      const before = snapshot(services);
      return () => {
        const after = snapshot(services);
        const seconds = (after.at - before.at) / 1000;
        const cores = (ticks: number) => Math.round((ticks / TICKS_PER_SECOND / seconds) * 100) / 100;
        const shares = {
          services: cores(after.services - before.services),
          postgres: cores(after.postgres - before.postgres),
          balancer: cores(after.self.own - before.self.own),
          loadDriver: cores(after.self.reapedChildren - before.self.reapedChildren),
          machine: cores(after.machine - before.machine),
        };
        const ours = shares.services + shares.postgres + shares.balancer + shares.loadDriver;
        return { ...shares, others: Math.max(0, Math.round((shares.machine - ours) * 100) / 100) };
      };
    },
  };
}
