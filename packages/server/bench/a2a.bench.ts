// Items per second through A2A agents against polling agents, in the same run of this script: a
// run of one task stage of A2A_BENCH_ITEMS items (default 400), done by K = 1, 4 and 16 agents
// that claim-next → complete with the typed client (the baseline), or by K A2A agents (the test
// agent of test/a2a/a2a-agent.ts: the official SDK's server, each registered with concurrency 1)
// that the service delivers to — followed by streaming, or by tasks/get every 20 ms. Each scenario
// has its own Node service (src/node.ts, in-memory SQLite, rate limit off) in this process; the
// agents run in this process too. A round is timed from the agents' registration until the run's
// event stream says `run.completed`; medians of A2A_ROUNDS (default 3) rounds in alternating order.
// Run: `cd packages/server && node --conditions=@task-context/source bench/a2a.bench.ts`.
import { median } from "@task-context/bench-kit";
import { type CreateRunInput, createServiceClient, type ServiceClient } from "@task-context/client";
import { type NodeServer, startNodeServer } from "../src/node.ts";
import {
  type Behaviour,
  type RunningA2aAgent,
  startA2aAgent,
  textPart,
} from "../test/a2a/a2a-agent.ts";
import { benchAdminToken, benchRun, completeBody } from "./cycle.ts";

const items = Number(process.env.A2A_BENCH_ITEMS ?? 400);
const rounds = Number(process.env.A2A_ROUNDS ?? 3);
const levels = [1, 4, 16];
const pollMs = 20;

/** The benchmark's run: one task stage ("work", skill `write_file`), leases of 60 s. */
const benchA2aRun = (count: number): CreateRunInput => ({ ...benchRun(count), lease_ms: 60_000 });

/** What every agent answers: the 512-character Markdown artifact of the other benchmarks. */
const { content } = completeBody(1).artifact;
/** The A2A agents' work: `working`, then that artifact, at once. */
const answerAtOnce: Behaviour = async (task) => {
  task.working();
  task.complete([textPart(content)]);
};

/** What one timed run gives. */
interface RoundResult {
  perSecond: number;
  /** CPU time of this process (service, agents and client alike) per item, in ms. */
  cpuMsPerItem: number;
}

/** One scenario at one K: its own service and agents, timed round by round. */
interface Contestant {
  name: string;
  /** Times one run of `count` items. */
  round(count: number): Promise<RoundResult>;
  close(): Promise<void>;
}

async function service(): Promise<{ server: NodeServer; admin: ServiceClient }> {
  const server = await startNodeServer({
    port: 0,
    database: ":memory:",
    adminToken: benchAdminToken,
    limits: { rateLimit: false },
    a2aPollMs: pollMs,
  });
  return { server, admin: createServiceClient({ url: server.url, token: benchAdminToken }) };
}

/** Events that mean an attempt did not complete at once (noted, not timed apart). */
const troubles = new Set([
  "work_item.failed",
  "work_item.lease_expired",
  "work_item.requeued",
  "work_item.dead_lettered",
]);

/**
 * Creates a run of `count` items, opens its event stream, then times `start` (which registers
 * the agents and sets them to work) until the stream's `run.completed`; `stop` ends the agents'
 * work after the clock stopped. Items per second, and CPU milliseconds per item.
 */
async function timeRun(
  admin: ServiceClient,
  count: number,
  start: (runId: string) => Promise<void>,
  stop: () => Promise<void> = async () => {},
): Promise<RoundResult> {
  const { run_id: runId } = await admin.createRun(benchA2aRun(count));
  const events = admin.followEvents(runId);
  await events.next(); // run.created: the stream is open.
  const began = performance.now();
  const cpu = process.cpuUsage();
  const started = start(runId);
  let completed = 0;
  const trouble = new Map<string, number>();
  for await (const event of events) {
    if (event.type === "work_item.completed") completed += 1;
    else if (troubles.has(event.type)) trouble.set(event.type, (trouble.get(event.type) ?? 0) + 1);
  }
  const elapsed = performance.now() - began;
  const used = process.cpuUsage(cpu);
  await started;
  await stop();
  if (completed !== count) throw new Error(`${completed} of ${count} items completed`);
  if (trouble.size > 0) {
    const counts = [...trouble].map(([type, times]) => `${times} ${type}`).join(", ");
    console.error(`note: ${counts} in a run of ${count} items`);
  }
  return {
    perSecond: count / (elapsed / 1000),
    cpuMsPerItem: (used.user + used.system) / 1000 / count,
  };
}

/** The baseline: `agents` agents, each claim-next (wait 1 s) → complete in a loop. */
async function polling(agents: number): Promise<Contestant> {
  const { server, admin } = await service();
  return {
    name: "polling",
    async round(count) {
      let done = false;
      const loops: Promise<void>[] = [];
      const work = async (token: string) => {
        const agent = createServiceClient({ url: server.url, token });
        while (!done) {
          const claim = await agent.claimNext({ wait: 1 });
          if (claim === undefined) continue;
          await agent.complete(claim.work_item.id, completeBody(claim.lease.attempt));
        }
      };
      return timeRun(
        admin,
        count,
        async (runId) => {
          // Each agent starts its loop once it is registered; the loops end after the clock.
          await Promise.all(
            Array.from({ length: agents }, async (_, index) => {
              const { token } = await admin.addAgent(runId, { tag: `poller-${index}` });
              loops.push(work(token));
            }),
          );
        },
        async () => {
          done = true;
          await Promise.all(loops);
        },
      );
    },
    close: () => server.close(),
  };
}

/** `agents` A2A agents, each registered with concurrency 1, streaming or not. */
async function a2a(agents: number, streaming: boolean): Promise<Contestant> {
  const { server, admin } = await service();
  const started: RunningA2aAgent[] = [];
  for (let index = 0; index < agents; index++) {
    started.push(
      await startA2aAgent({
        name: `Writer ${index}`,
        skills: [{ id: "write_file" }],
        streaming,
        behaviour: answerAtOnce,
      }),
    );
  }
  return {
    name: streaming ? "A2A streaming" : "A2A tasks/get",
    round: (count) =>
      timeRun(admin, count, async (runId) => {
        await Promise.all(
          started.map((agent, index) =>
            admin.addAgent(runId, { tag: `a2a-${index}`, a2a: { url: agent.url, concurrency: 1 } }),
          ),
        );
      }),
    async close() {
      // The service first: its dispatcher stops before the agents go.
      await server.close();
      for (const agent of started) await agent.close();
    },
  };
}

const rows: string[] = [];
for (const agents of levels) {
  const contestants = [await polling(agents), await a2a(agents, true), await a2a(agents, false)];
  const results = new Map<string, RoundResult[]>(contestants.map((each) => [each.name, []]));
  try {
    // A warm-up run each, then the rounds, each round in another order.
    for (const contestant of contestants) await contestant.round(Math.min(items, 200));
    for (let index = 0; index < rounds; index++) {
      const shift = index % contestants.length;
      const order = [...contestants.slice(shift), ...contestants.slice(0, shift)];
      for (const contestant of order) {
        results.get(contestant.name)?.push(await contestant.round(items));
      }
    }
  } finally {
    for (const contestant of contestants) await contestant.close();
  }
  const of = (name: string) => results.get(name) ?? [];
  const baseline = median(of("polling").map((result) => result.perSecond));
  for (const { name } of contestants) {
    const rate = median(of(name).map((result) => result.perSecond));
    const cpu = median(of(name).map((result) => result.cpuMsPerItem));
    const each = of(name)
      .map((result) => result.perSecond.toFixed(0))
      .join(" / ");
    rows.push(
      `| ${name} | ${agents} | ${rate.toFixed(0)} | ${(rate / baseline).toFixed(2)}× | ${cpu.toFixed(2)} ms | ${each} |`,
    );
  }
}

console.log(
  `${items} items of one task stage (lease 60 s), a 512-character Markdown artifact each; each scenario on its own service in this process (in-memory SQLite; tasks/get every ${pollMs} ms); K polling agents (claim-next wait 1 s → complete, typed client) or K A2A agents (official SDK server, concurrency 1 each), all in this process; timed from registration to run.completed; medians of ${rounds} rounds in alternating order, after a warm-up run each; CPU: this process's, per item.\n`,
);
console.log("| scenario | agents | items/s | ÷ polling | CPU per item | each round, items/s |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const row of rows) console.log(row);
