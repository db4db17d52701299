// What a round of cycles costs, accounted where it is spent (postgres.bench.ts): the instance's
// CPU (its process's user + system time, from /proc), PostgreSQL's CPU (the postmaster and every
// process it started: backends, the WAL writer, the checkpointer), the statements and
// transactions PostgreSQL ran (pg_stat_statements, pg_stat_database), and the round trips
// between the clients and PostgreSQL, counted by a TCP proxy in front of it: a round trip is a
// client's turn to send after PostgreSQL answered (pipelined statements are one turn).
import { readdirSync, readFileSync } from "node:fs";
import { createConnection, createServer, type Socket } from "node:net";
import { join } from "node:path";
import type postgres from "postgres";

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const TICKS = 100;

/**
 * The CPU seconds (user + system) process `pid` has used, those of its children that ended and
 * were waited for, and its parent's pid.
 */
function stat(pid: number): { cpu: number; endedChildren: number; parent: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    // After the name: state, ppid (field 4), …, utime (14), stime (15), cutime (16), cstime (17).
    return {
      parent: Number(fields[1]),
      cpu: (Number(fields[11]) + Number(fields[12])) / TICKS,
      endedChildren: (Number(fields[13]) + Number(fields[14])) / TICKS,
    };
  } catch {
    return undefined; // it ended
  }
}

/** CPU seconds process `pid` has used (0 once it ended). */
export function processCpu(pid: number): number {
  return stat(pid)?.cpu ?? 0;
}

/**
 * CPU seconds of the PostgreSQL server whose data folder is `data`: its postmaster, its running
 * children, and the children that ended (a backend whose connection closed during a round: the
 * postmaster waits for it and the kernel adds its CPU to the postmaster's children's times —
 * without them, the round's figure could come out negative). The children are read before the
 * postmaster: one ending in between is counted twice (a few ticks over), never left out.
 */
export function postgresCpu(data: string): number {
  const postmasterPid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const found = stat(Number(entry));
    if (found?.parent === postmasterPid) total += found.cpu;
  }
  const postmaster = stat(postmasterPid);
  return total + (postmaster === undefined ? 0 : postmaster.cpu + postmaster.endedChildren);
}

/** Statements and committed transactions PostgreSQL counted in database `database` so far. */
export async function statementCounts(
  sql: postgres.Sql,
  database: string,
): Promise<{ statements: number; transactions: number }> {
  const [statements] = await sql<{ calls: string | null }[]>`
    SELECT sum(calls)::text AS calls FROM pg_stat_statements s
    JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = ${database}`;
  const [transactions] = await sql<{ commits: string }[]>`
    SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = ${database}`;
  return {
    statements: Number(statements?.calls ?? 0),
    transactions: Number(transactions?.commits ?? 0),
  };
}

/** A TCP proxy in front of PostgreSQL that counts round trips. */
export interface CountingProxy {
  port: number;
  /** Round trips (a client's turn to send after an answer) and bytes each way since the start. */
  counts(): { roundTrips: number; toServer: number; toClient: number };
  close(): Promise<void>;
}

/** Starts a {@link CountingProxy} on 127.0.0.1 in front of `127.0.0.1:${port}`. */
export function startCountingProxy(port: number): Promise<CountingProxy> {
  const totals = { roundTrips: 0, toServer: 0, toClient: 0 };
  const sockets = new Set<Socket>();
  // TCP_NODELAY both ways, as the store's own connections: with Nagle's algorithm a relayed
  // piece waits for the previous one's acknowledgement (up to 40 ms on Linux).
  const server = createServer({ noDelay: true }, (client) => {
    const upstream = createConnection({ host: "127.0.0.1", port, noDelay: true });
    sockets.add(client);
    sockets.add(upstream);
    // The client's turn: true until it sends, then false until the server answers.
    let answered = true;
    client.on("data", (chunk) => {
      totals.toServer += chunk.length;
      if (answered) totals.roundTrips += 1;
      answered = false;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      totals.toClient += chunk.length;
      answered = true;
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end);
    upstream.on("close", end);
    client.on("error", end);
    upstream.on("error", end);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        counts: () => ({ ...totals }),
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A round's cost per cycle. */
export interface CycleCost {
  /** CPU milliseconds of the instance(s) or of the anchor's process, per cycle. */
  instanceCpuMs: number;
  /** CPU milliseconds of PostgreSQL's processes, per cycle. */
  postgresCpuMs: number;
  /** CPU milliseconds of this process (the load's client; the anchors' workers run in it too). */
  clientCpuMs: number;
  statements: number;
  transactions: number;
  roundTrips: number;
}

/** What {@link measureCost} reads before and after a round. */
export interface CostProbes {
  /** The processes whose CPU is the instance's (a service's processes, or this one). */
  pids: () => number[];
  /** PostgreSQL's data folder. */
  data: string;
  /** An admin connection to PostgreSQL that is not counted (not through the proxy). */
  sql: postgres.Sql;
  database: string;
  proxy: CountingProxy;
}

/** Runs `round` (which answers how many cycles it did) and accounts its cost per cycle. */
export async function measureCost(
  probes: CostProbes,
  round: () => Promise<number>,
): Promise<CycleCost> {
  const cpu = () => probes.pids().reduce((sum, pid) => sum + processCpu(pid), 0);
  const client = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  const before = {
    client: client(),
    instance: cpu(),
    postgres: postgresCpu(probes.data),
    counts: await statementCounts(probes.sql, probes.database),
    trips: probes.proxy.counts().roundTrips,
  };
  const cycles = await round();
  const after = {
    client: client(),
    instance: cpu(),
    postgres: postgresCpu(probes.data),
    counts: await statementCounts(probes.sql, probes.database),
    trips: probes.proxy.counts().roundTrips,
  };
  return {
    instanceCpuMs: ((after.instance - before.instance) * 1000) / cycles,
    postgresCpuMs: ((after.postgres - before.postgres) * 1000) / cycles,
    clientCpuMs: ((after.client - before.client) * 1000) / cycles,
    statements: (after.counts.statements - before.counts.statements) / cycles,
    transactions: (after.counts.transactions - before.counts.transactions) / cycles,
    roundTrips: (after.trips - before.trips) / cycles,
  };
}

/** A statement PostgreSQL ran, with how long it ran (pg_stat_statements). */
export interface StatementTime {
  query: string;
  calls: number;
  meanMs: number;
  maxMs: number;
}

/**
 * The statements of database `database` that take row locks (`FOR UPDATE`, `SKIP LOCKED`), most
 * called first, with their execution times since pg_stat_statements was last reset: a job
 * queue's row lock lasts its statement (and the statement's own commit), so these times are how
 * long pg-boss's and graphile-worker's jobs stay locked.
 */
export async function lockingStatementTimes(
  sql: postgres.Sql,
  database: string,
): Promise<StatementTime[]> {
  const rows = await sql<{ query: string; calls: string; mean: number; max: number }[]>`
    SELECT s.query, s.calls::text AS calls, s.mean_exec_time AS mean, s.max_exec_time AS max
    FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
    WHERE d.datname = ${database} AND (s.query ILIKE '%for update%' OR s.query ILIKE '%skip locked%')
    ORDER BY s.calls DESC LIMIT 4`;
  return rows.map((row) => ({
    query: row.query.replace(/\s+/g, " ").slice(0, 60),
    calls: Number(row.calls),
    meanMs: Number(row.mean),
    maxMs: Number(row.max),
  }));
}

/** How long a run's row lock was held, per group commit (the store's lockHolds channel). */
export interface LockHoldSummary {
  groups: number;
  /** Operations per group, on average. */
  operations: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

/** Summarizes group commits' lock holds (`holdMs`, `operations` each). */
export function summarizeLockHolds(
  holds: ReadonlyArray<{ holdMs: number; operations: number }>,
): LockHoldSummary {
  const sorted = holds.map((hold) => hold.holdMs).sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    groups: holds.length,
    operations: sum(holds.map((hold) => hold.operations)) / holds.length,
    meanMs: sum(sorted) / sorted.length,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}
