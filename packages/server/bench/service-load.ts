// The load the benchmarks put on the delivery service over HTTP: the service as its own process
// (src/main.ts on an SQLite file, as throughput.bench.ts and queue-anchors.bench.ts start it),
// agents that claim-next and complete, and the rounds that time them.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClaimView, RunView } from "@task-context/contract";
import { type ServerProcess, startServerProcess } from "../test/checker/server-process.ts";
import { benchAdminToken, benchRun, completeBody } from "./cycle.ts";
import { processCpu } from "./cycle-cost.ts";
import { type Answer, httpClient } from "./http-client.ts";

const now = () => performance.now();

export const expectStatus = (answer: Answer, status: number, what: string) => {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer;
};

/** What an agent holds after a claim. */
export interface Lease {
  id: string;
  attempt: number;
}

/** A server under load: the service, or a baseline. */
export interface Target {
  name: string;
  /** The client of the (first) server: the admin's requests. */
  client: ReturnType<typeof httpClient>;
  /** Closes every client of the target. */
  close(): void;
  /** Tokens of `agents` agents, with `items` items on offer to them. */
  prepare(agents: number, items: number): Promise<string[]>;
  claim(token: string): Promise<Lease>;
  complete(token: string, lease: Lease): Promise<void>;
}

/**
 * Starts the baseline: bare Hono routes (bare-server.ts) on the same server stack as the service,
 * in their own process, answering `claim` and `completion` (the service's own answers, as text)
 * with nothing in between; and a target that drives them as the service's is driven.
 */
export async function startBare(
  claim: string,
  completion: string,
): Promise<{ bare: Target; server: ServerProcess }> {
  const server = await startServerProcess({
    database: ":memory:",
    adminToken: benchAdminToken,
    now,
    entry: fileURLToPath(new URL("bare-server.ts", import.meta.url)),
    environment: {
      BARE_SAMPLES: JSON.stringify({
        claim: JSON.parse(claim),
        completion: JSON.parse(completion),
      }),
    },
  });
  const bare: Target = {
    name: "bare",
    client: httpClient(server.url(), 64),
    close() {
      this.client.close();
    },
    async prepare(agents) {
      return Array.from({ length: agents }, (_, index) => `bare-${index}`);
    },
    async claim(token) {
      const answer = await this.client.send("POST", "/claim-next", token);
      const view = JSON.parse(expectStatus(answer, 200, "bare claim-next").text) as ClaimView;
      if (answer.text.length !== claim.length) throw new Error("the bare claim differs");
      return { id: view.work_item.id, attempt: view.lease.attempt };
    },
    async complete(token, lease) {
      const answer = await this.client.send(
        "POST",
        "/complete",
        token,
        completeBody(lease.attempt),
      );
      expectStatus(answer, 200, "bare complete");
    },
  };
  return { bare, server };
}

/** What {@link startService} starts. */
export interface ServiceOptions {
  /** More options for node (e.g. `--cpu-prof`). */
  nodeOptions?: string[];
  /** More environment variables (e.g. `TASK_CONTEXT_DATABASE_URL`). */
  environment?: Record<string, string>;
  /** How many server processes serve the database (default 1; more need PostgreSQL). */
  instances?: number;
  /** The server's entry: this checkout's `src/main.ts` by default, or another checkout's. */
  entry?: string;
}

/**
 * Starts the service (`src/main.ts`) on `bench.db` in `folder` (or on the database of
 * `environment`), with no rate limit, in `instances` processes, and a target that drives it with
 * up to 64 kept-alive connections to each: agent `i` talks to instance `i % instances`.
 */
export async function startService(
  folder: string,
  { nodeOptions = [], environment = {}, instances = 1, entry }: ServiceOptions = {},
): Promise<{ service: Target; stop(): Promise<void>; pids(): number[] }> {
  const servers: ServerProcess[] = [];
  for (let index = 0; index < instances; index++) {
    servers.push(
      await startServerProcess({
        database: join(folder, "bench.db"),
        adminToken: benchAdminToken,
        now,
        nodeOptions,
        environment,
        ...(entry === undefined ? {} : { entry }),
      }),
    );
  }
  const clients = servers.map((server) => httpClient(server.url(), 64));
  const clientOf = new Map<string, ReturnType<typeof httpClient>>();
  const client = (token: string) => clientOf.get(token) ?? (clients[0] as (typeof clients)[0]);
  const service: Target = {
    name: "service",
    client: clients[0] as (typeof clients)[0],
    close() {
      for (const each of clients) each.close();
    },
    async prepare(agents, items) {
      const created = await this.client.send("POST", "/v1/runs", benchAdminToken, benchRun(items));
      const { run_id } = JSON.parse(expectStatus(created, 201, "create a run").text) as RunView;
      const tokens: string[] = [];
      for (let index = 0; index < agents; index++) {
        const added = await this.client.send("POST", `/v1/runs/${run_id}/agents`, benchAdminToken, {
          tag: `agent-${index}`,
        });
        const { token } = JSON.parse(expectStatus(added, 201, "add an agent").text) as {
          token: string;
        };
        clientOf.set(token, clients[index % clients.length] as (typeof clients)[0]);
        tokens.push(token);
      }
      return tokens;
    },
    async claim(token) {
      const answer = await client(token).send("POST", "/v1/inbox/claim-next", token);
      const claim = JSON.parse(expectStatus(answer, 200, "claim-next").text) as ClaimView;
      return { id: claim.work_item.id, attempt: claim.lease.attempt };
    },
    async complete(token, lease) {
      const path = `/v1/work-items/${lease.id}/complete`;
      expectStatus(
        await client(token).send("POST", path, token, completeBody(lease.attempt)),
        200,
        "complete",
      );
    },
  };
  return {
    service,
    async stop() {
      for (const server of servers) await server.stop();
    },
    pids: () => servers.map((server) => server.pid()),
  };
}

export type Phase = "cycle" | "claim-next" | "complete";

/**
 * `count` cycles (or claims, or completions of leases claimed beforehand) by `agents` agents: the
 * rate, and the latency of each claim, each completion and each whole cycle (claim + complete).
 */
export async function round(target: Target, phase: Phase, agents: number, count: number) {
  const tokens = await target.prepare(agents, count);
  const leases = tokens.map(() => [] as Lease[]);
  if (phase === "complete") {
    await Promise.all(
      tokens.map(async (token, index) => {
        for (let next = index; next < count; next += agents) {
          leases[index]?.push(await target.claim(token));
        }
      }),
    );
  }
  const latencies = { claim: [] as number[], complete: [] as number[], cycle: [] as number[] };
  let started = 0;
  const start = now();
  await Promise.all(
    tokens.map(async (token, index) => {
      if (phase === "complete") {
        for (const lease of leases[index] ?? []) {
          const before = now();
          await target.complete(token, lease);
          latencies.complete.push(now() - before);
        }
        return;
      }
      while (started < count) {
        started += 1;
        const before = now();
        const lease = await target.claim(token);
        const claimed = now();
        latencies.claim.push(claimed - before);
        if (phase === "cycle") {
          await target.complete(token, lease);
          const done = now();
          latencies.complete.push(done - claimed);
          latencies.cycle.push(done - before);
        }
      }
    }),
  );
  return { perSecond: count / ((now() - start) / 1000), count, latencies };
}

/**
 * {@link round} of `count` whole cycles, with the CPU milliseconds per cycle that the processes
 * `pids` (the service's) spent on it, read from /proc: the round's setup (its run, agents and
 * items) is left out.
 */
export async function costedRound(
  target: Target,
  pids: () => number[],
  agents: number,
  count: number,
) {
  const cpu = () => pids().reduce((sum, pid) => sum + processCpu(pid), 0);
  let start = 0;
  const timed: Target = {
    ...target,
    async prepare(agents, items) {
      const tokens = await target.prepare(agents, items);
      start = cpu();
      return tokens;
    },
  };
  const result = await round(timed, "cycle", agents, count);
  return { ...result, cpuMs: ((cpu() - start) * 1000) / count };
}

/** The value below which `fraction` of `values` lie. */
export const percentile = (values: number[], fraction: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
};
/** `0.53 ms`, `19.7 ms` */
export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
/** `p50 / p99` of `values` in milliseconds. */
export const latency = (values: number[]) =>
  `${ms(percentile(values, 0.5))} / ${ms(percentile(values, 0.99))}`;
