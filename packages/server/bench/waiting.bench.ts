// What agents that merely wait cost the service, against bare Hono routes holding the same
// connections (bare-waiting-server.ts), in the same run: N agents each holding a claim-next long
// poll (one connection each, wait=30, polling again when it ends), and N followers of a run's
// event stream. For each: the server process's CPU while nothing happens (over WAITING_IDLE_S
// seconds), its resident memory per held connection, the wake-up latency (an item put back on
// offer → the waiter's claim answered; one item at a time, WAITING_WAKES times spread over
// WAITING_WAKE_SPAN_S seconds — a whole cycle of the long polls, in which each ends and polls
// again, on every side alike) with the waiters
// spread over runs of 100 agents and all on one run, and the fan-out latency (an event → each
// follower has it). The service runs as its own process (src/main.ts on an SQLite file, rate
// limit off), as the other benchmarks start it.
// Run: `node --conditions=@task-context/source bench/waiting.bench.ts` in packages/server;
// WAITING_LEVELS=1000,10000 (default 1000,5000) sets the numbers of waiters and followers,
// WAITING_IDLE_S (default 30: a whole cycle) the seconds of idle CPU measured, WAITING_WAKES
// (default 20) the wake-ups timed. WAITING_BEFORE=<another checkout>/packages/server/src/main.ts measures that
// service too, in the same run ("before": e.g. a worktree of main), beside this one ("service").
// WAITING_ONLY=waiters or followers measures only those, WAITING_LAYOUT=one or spread only that
// layout of the waiters. WAITING_CPU_PROF=<folder> writes the
// service's CPU profiles there; WAITING_TRACE=1 prints each wake-up with the long polls that ended
// meanwhile.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClaimView, RunView } from "@task-context/contract";
import { type ServerProcess, startServerProcess } from "../test/checker/server-process.ts";
import { benchAdminToken, benchRun } from "./cycle.ts";
import { type Answer, httpClient } from "./http-client.ts";
import { loadAverage } from "./job-queues.ts";
import { percentile } from "./service-load.ts";

const levels = (process.env.WAITING_LEVELS ?? "1000,5000").split(",").map(Number);
const idleSeconds = Number(process.env.WAITING_IDLE_S ?? 30);
const wakes = Number(process.env.WAITING_WAKES ?? 20);
/** Seconds the wake-ups are spread over: a whole cycle of long polls (each ends and polls again). */
const wakeSpanSeconds = Number(process.env.WAITING_WAKE_SPAN_S ?? 30);
/** `waiters` or `followers`: measure only those (default both). */
const only = process.env.WAITING_ONLY;
/** `one` (all waiters on one run) or `spread` (runs of 100): only that layout (default both). */
const layout = process.env.WAITING_LAYOUT;
/** Another service's entry to measure beside this one (its `src/main.ts`), or undefined. */
const beforeEntry = process.env.WAITING_BEFORE;
/** A folder for the service's CPU profiles (`--cpu-prof`), or undefined. */
const profileFolder = process.env.WAITING_CPU_PROF;
/** Agents per run when the waiters are spread. */
const PER_RUN = 100;
const now = () => performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  // utime and stime are fields 14 and 15 of /proc/<pid>/stat, in clock ticks (100 a second).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The process's resident memory, in bytes. */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((each) => each.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

/** One side of the comparison: the service or the bare routes. */
interface Side {
  name: string;
  server: ServerProcess;
  client: ReturnType<typeof httpClient>;
  /** Tokens of `agents` waiting agents over `runs` runs, and how to put one item back on offer
   * in run `r` (resolves when the request that does it was sent). */
  prepare(
    agents: number,
    runs: number,
  ): Promise<{
    tokens: string[];
    release(run: number): Promise<void>;
    runOf(agent: number): number;
  }>;
  /** A follower's path and token, and how to make one event in the run followed. */
  prepareFollowers(): Promise<{ path: string; token: string; emit(): Promise<void> }>;
}

async function serviceSide(folder: string, entry?: string): Promise<Side> {
  const server = await startServerProcess({
    database: join(folder, "waiting.db"),
    adminToken: benchAdminToken,
    now,
    ...(entry === undefined ? {} : { entry }),
    ...(profileFolder === undefined
      ? {}
      : { nodeOptions: ["--cpu-prof", `--cpu-prof-dir=${profileFolder}`] }),
  });
  const client = httpClient(server.url(), Number.POSITIVE_INFINITY);
  const ok = (answer: Answer, status: number, what: string) => {
    if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text}`);
    return answer.text;
  };
  /** A run of `items` items, with a releaser agent that holds their leases. */
  const runWithReleaser = async (items: number) => {
    const created = await client.send("POST", "/v1/runs", benchAdminToken, {
      ...benchRun(items),
      max_attempts: 100,
    });
    const { run_id: runId } = JSON.parse(ok(created, 201, "create a run")) as RunView;
    const addAgent = async (tag: string) =>
      (
        JSON.parse(
          ok(
            await client.send("POST", `/v1/runs/${runId}/agents`, benchAdminToken, { tag }),
            201,
            "add an agent",
          ),
        ) as { token: string }
      ).token;
    const releaser = await addAgent("releaser");
    const held: { id: string; attempt: number }[] = [];
    for (let index = 0; index < items; index++) {
      const claim = JSON.parse(
        ok(await client.send("POST", "/v1/inbox/claim-next", releaser), 200, "claim"),
      ) as ClaimView;
      held.push({ id: claim.work_item.id, attempt: claim.lease.attempt });
    }
    const release = async () => {
      const item = held.shift();
      if (item === undefined) throw new Error("no item left to release");
      await client.send("POST", `/v1/work-items/${item.id}/fail`, releaser, {
        attempt: item.attempt,
        reason: "released for the benchmark",
      });
    };
    return { runId, addAgent, release };
  };
  return {
    name: entry === undefined ? "service" : "before",
    server,
    client,
    async prepare(agents, runs) {
      const made = await Promise.all(
        Array.from({ length: runs }, () => runWithReleaser(Math.ceil(wakes / runs) + 1)),
      );
      const tokens: string[] = [];
      for (let index = 0; index < agents; index++) {
        tokens.push(await (made[index % runs] as (typeof made)[0]).addAgent(`waiter-${index}`));
      }
      return {
        tokens,
        release: (run) => (made[run] as (typeof made)[0]).release(),
        runOf: (agent) => agent % runs,
      };
    },
    async prepareFollowers() {
      const { runId, release } = await runWithReleaser(wakes + 1);
      return {
        path: `/v1/runs/${runId}/events`,
        token: benchAdminToken,
        emit: release,
      };
    },
  };
}

async function bareSide(claimSample: string): Promise<Side> {
  const server = await startServerProcess({
    database: ":memory:",
    adminToken: benchAdminToken,
    now,
    entry: fileURLToPath(new URL("bare-waiting-server.ts", import.meta.url)),
    environment: {
      BARE_SAMPLES: JSON.stringify({
        claim: JSON.parse(claimSample),
        event: { type: "work_item.failed" },
      }),
    },
  });
  const client = httpClient(server.url(), Number.POSITIVE_INFINITY);
  return {
    name: "bare",
    server,
    client,
    async prepare(agents) {
      return {
        tokens: Array.from({ length: agents }, (_, index) => `bare-${index}`),
        release: async () => {
          await client.send("POST", "/release", "bare");
        },
        runOf: () => 0,
      };
    },
    async prepareFollowers() {
      return {
        path: "/v1/runs/bare/events",
        token: "bare",
        emit: async () => {
          await client.send("POST", "/emit", "bare");
        },
      };
    },
  };
}

interface WaitingFigures {
  idleCpu: number;
  bytesPerConnection: number;
  wake: number[];
}

/** One side's row: idle CPU, memory per connection, and its latencies as printed. */
interface Figures {
  idleCpu: number;
  bytesPerConnection: number;
  latency: string;
}

/** N long-polling agents over `runs` runs: idle CPU, memory per connection, wake-up latencies. */
async function measureWaiters(side: Side, agents: number, runs: number): Promise<WaitingFigures> {
  const { tokens, release, runOf } = await side.prepare(agents, runs);
  const pid = side.server.pid();
  await sleep(1000);
  const memoryBefore = residentBytes(pid);
  let stopping = false;
  let sent = 0;
  let allSent: () => void = () => {};
  const everySent = new Promise<void>((resolve) => {
    allSent = resolve;
  });
  const claimed: Array<{ at: number; run: number }> = [];
  /** Long polls answered 204 (their wait over) so far. */
  let ended = 0;
  const waitFrom = async (token: string, index: number) => {
    let first = true;
    while (!stopping) {
      let answer: Answer;
      try {
        answer = await side.client.send(
          "POST",
          "/v1/inbox/claim-next?wait=30",
          token,
          undefined,
          () => {
            if (!first) return;
            first = false;
            sent += 1;
            if (sent === tokens.length) allSent();
          },
        );
      } catch (error) {
        if (stopping) return;
        // A connection the server reset or never accepted: counted, and the agent polls again.
        const code = (error as { code?: string }).code ?? "error";
        const key = `${side.name} ${code}`;
        errors.set(key, (errors.get(key) ?? 0) + 1);
        await sleep(100);
        continue;
      }
      if (answer.status === 204) ended += 1;
      if (answer.status === 200) {
        claimed.push({ at: now(), run: runOf(index) });
        return; // this agent holds its item: it waits no more
      }
      if (answer.status !== 204) throw new Error(`claim-next: ${answer.status} ${answer.text}`);
    }
  };
  // Connections opened 500 at a time, as agents start over time, not in one burst that
  // overflows the listening socket's queue.
  const waiting: Promise<void>[] = [];
  for (let batch = 0; batch < tokens.length; batch += 500) {
    const upTo = Math.min(tokens.length, batch + 500);
    for (let index = batch; index < upTo; index++) {
      waiting.push(waitFrom(tokens[index] as string, index));
    }
    while (sent < upTo) await sleep(5);
  }
  await everySent;
  await sleep(2000); // every wait in place
  const memory = residentBytes(pid);
  const cpuBefore = cpuSeconds(pid);
  await sleep(idleSeconds * 1000);
  const idleCpu = (cpuSeconds(pid) - cpuBefore) / idleSeconds;
  const wake: number[] = [];
  for (let index = 0; index < wakes; index++) {
    const run = index % runs;
    const before = claimed.length;
    const start = now();
    await release(run);
    const endedBefore = ended;
    while (claimed.length === before) await sleep(1);
    wake.push((claimed[before]?.at ?? now()) - start);
    if (process.env.WAITING_TRACE !== undefined) {
      console.error(
        `${side.name} wake ${index}: ${fmt(wake.at(-1) ?? 0)} ms, ${ended - endedBefore} long polls ended meanwhile, ${ended} in all`,
      );
    }
    await sleep(Math.max(200, (wakeSpanSeconds * 1000) / wakes - (now() - start)));
  }
  stopping = true;
  side.client.close();
  await Promise.allSettled(waiting);
  return { idleCpu, bytesPerConnection: (memory - memoryBefore) / agents, wake };
}

/** Requests that failed on their connection (reset, never accepted), by side and error code. */
const errors = new Map<string, number>();

/** N followers of one run's event stream: idle CPU, memory per follower, fan-out latencies. */
async function measureFollowers(side: Side, followers: number) {
  const { path, token, emit } = await side.prepareFollowers();
  const pid = side.server.pid();
  await sleep(1000);
  const memoryBefore = residentBytes(pid);
  let waitingFor = 0;
  let emittedAt = 0;
  const received: number[] = [];
  const stops: Array<() => void> = [];
  for (let batch = 0; batch < followers; batch += 500) {
    const size = Math.min(500, followers - batch);
    stops.push(
      ...(await Promise.all(
        Array.from({ length: size }, () =>
          side.client.follow(path, token, (text) => {
            if (waitingFor > 0 && text.includes("work_item.failed")) {
              received.push(now() - emittedAt);
              waitingFor -= 1;
            }
          }),
        ),
      )),
    );
  }
  await sleep(2000);
  const memory = residentBytes(pid);
  const cpuBefore = cpuSeconds(pid);
  await sleep(idleSeconds * 1000);
  const idleCpu = (cpuSeconds(pid) - cpuBefore) / idleSeconds;
  const fanOut: number[] = [];
  for (let index = 0; index < Math.min(wakes, 5); index++) {
    received.length = 0;
    waitingFor = followers;
    emittedAt = now();
    await emit();
    while (waitingFor > 0) await sleep(1);
    fanOut.push(percentile(received, 0.5), percentile(received, 0.99));
    await sleep(300);
  }
  for (const stop of stops) stop();
  side.client.close();
  return {
    idleCpu,
    bytesPerConnection: (memory - memoryBefore) / followers,
    p50: fanOut.filter((_, index) => index % 2 === 0),
    p99: fanOut.filter((_, index) => index % 2 === 1),
  };
}

const folder = mkdtempSync(join(tmpdir(), "task-context-waiting-bench-"));
const loadBefore = loadAverage();
const rows: string[] = [];
const fmt = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)}`;
const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const p = (values: number[]) =>
  `${fmt(percentile(values, 0.5))} / ${fmt(percentile(values, 0.99))}`;
try {
  // One claim of the service, as the bare routes answer it.
  const probe = await serviceSide(folder);
  const { tokens, release } = await probe.prepare(1, 1);
  const claimAnswer = probe.client.send("POST", "/v1/inbox/claim-next?wait=5", tokens[0] ?? "");
  await sleep(200);
  await release(0);
  const claimSample = (await claimAnswer).text;
  probe.client.close();
  await probe.server.stop();

  /** The sides measured, one after the other: this service, the one before it, bare routes. */
  const sides = [
    () => serviceSide(folder),
    ...(beforeEntry === undefined ? [] : [() => serviceSide(folder, beforeEntry)]),
    () => bareSide(claimSample),
  ];
  const row = (held: string, figures: Record<string, Figures>) => {
    const bare = figures.bare as Figures;
    for (const [name, each] of Object.entries(figures)) {
      rows.push(
        `| ${held} | ${name} | ${pct(each.idleCpu)} | ${kb(each.bytesPerConnection)} | ${(each.bytesPerConnection / bare.bytesPerConnection).toFixed(1)}× | ${each.latency} |`,
      );
      console.error(rows.at(-1));
    }
  };
  for (const agents of levels) {
    const layouts = layout === "one" ? [false] : layout === "spread" ? [true] : [true, false];
    for (const spread of only === "followers" ? [] : layouts) {
      const runs = spread ? Math.max(1, Math.ceil(agents / PER_RUN)) : 1;
      const results: Record<string, Figures> = {};
      for (const make of sides) {
        const side = await make();
        try {
          const measured = await measureWaiters(side, agents, runs);
          results[side.name] = { ...measured, latency: p(measured.wake) };
        } finally {
          await side.server.stop();
        }
        rmSync(join(folder, "waiting.db"), { force: true });
      }
      row(`${agents} long polls, ${spread ? `${runs} runs` : "one run"}`, results);
    }
    if (only === "waiters") continue;
    const followers: Record<string, Figures> = {};
    for (const make of sides) {
      const side = await make();
      try {
        const measured = await measureFollowers(side, agents);
        followers[side.name] = {
          ...measured,
          latency: `${fmt(percentile(measured.p50, 0.5))} / ${fmt(percentile(measured.p99, 0.5))}`,
        };
      } finally {
        await side.server.stop();
      }
      rmSync(join(folder, "waiting.db"), { force: true });
    }
    row(`${agents} followers of one run`, followers);
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

console.log(
  `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? "unknown"}); load average ${loadBefore} before, ${loadAverage()} after. Idle CPU over ${idleSeconds} s (100 % = one core); memory: resident, per held connection; wake-up: an item back on offer → a waiter's claim answered (${wakes} times over ${wakeSpanSeconds} s, p50 / p99 ms); fan-out: an event → each follower has it (p50 / p99 ms over the followers, median of 5 events).\n`,
);
console.log(
  "| held | side | idle CPU | memory / connection | ÷ bare | wake-up or fan-out p50 / p99 ms |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: |");
for (const row of rows) console.log(row);
console.log(
  `\nLong polls that failed on their connection (polled again after 100 ms): ${
    errors.size === 0 ? "none" : [...errors].map(([key, count]) => `${key}: ${count}`).join(", ")
  }.`,
);
