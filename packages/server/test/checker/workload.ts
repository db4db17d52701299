// The checker's workload, in the style of Jepsen's queue tests: many agents work through a run
// over HTTP against the Node server process on an SQLite file — or against several Node
// instances on one PostgreSQL database (`instances`) — while faults are injected: agents crash
// after claiming, send duplicate and stale completions, let leases expire, fail items until they
// are dead-lettered (an admin requeues them), and a server is killed (SIGKILL) or stopped
// (SIGTERM) and started again on the same database. Every operation and its answer is recorded;
// a real SSE client follows the event stream throughout, from one instance to another when its
// own goes away. On PostgreSQL a disruption can also fail the database under the service
// (postgres-chaos.ts), and agents can fail and claim again all at once (a retry storm). No test
// framework here: the benchmark runs the large configuration.
import { join } from "node:path";
import type {
  ClaimView,
  CreateRunInput,
  DeadLetter,
  EventPage,
  RunView,
} from "@task-context/contract";
import type { Artifact, CollaborationEvent, WorkItem } from "@task-context/protocols";
import { dataPart, type RunningA2aAgent, startA2aAgent, textPart } from "../a2a/a2a-agent.ts";
import { type Follower, followEvents, type StreamRequest } from "../sse/follow.ts";
import type {
  Action,
  Crash,
  Fault,
  FinalState,
  History,
  Intent,
  Operation,
  Restart,
} from "./history.ts";
import { seededRandom, streamSeed } from "./random.ts";
import { type ServerProcess, startServerProcess } from "./server-process.ts";

/** The size of a workload and the rates of its faults. */
export interface WorkloadOptions {
  /** Seeds every decision (each agent draws from its own stream of it). */
  seed: number;
  agents: number;
  /** Items of the task stage. */
  items: number;
  /** A review stage after the task stage: one review item per artifact. */
  reviews: boolean;
  /** The run's lease_ms: the server's clock is real time. */
  leaseMs: number;
  /** The run's max_attempts; at least 2 (a stale holder's expiry must not dead-letter). */
  maxAttempts: number;
  /** Per claim: the agent stops without completing or failing. */
  crash: number;
  /** The first this many claims of the run crash too, whatever the draws (a small run's sure crashes). */
  firstCrashes?: number;
  /** Per claim: the agent fails its attempt. */
  fail: number;
  /** Per claim of a first attempt: the agent holds it past its expiry while another agent
   * claims it, then completes the stale attempt (twice: before and after the other completes). */
  stale: number;
  /** Per completion: duplicates of it (same key; another key; same key, another body; and in
   * every fourth such burst, another key and the same key again after the lease expired). */
  duplicate: number;
  /** Per claim: one heartbeat before completing. */
  heartbeat: number;
  /** How many of the first items are failed on every attempt until dead-lettered, then done. */
  poison: number;
  /**
   * Restarts of the server, each when this many items have been completed; with `instances`,
   * of each instance in turn (the first restart is instance 0's, the second instance 1's, …).
   */
  restarts: ReadonlyArray<{ afterCompleted: number; signal: Restart["signal"] }>;
  /** An agent works up to this long on an item before completing it. */
  workMs: number;
  /** The folder of the SQLite file (one server process); unused with `instances`. */
  folder?: string;
  /**
   * Instead of one process on an SQLite file: `count` server processes on the PostgreSQL
   * database at `databaseUrl`, all serving the run at once. Each request goes to the next live
   * instance (round-robin per request, so one agent's claim, heartbeat and completion land on
   * different instances); the SSE client starts on instance 0 and reconnects to another one.
   * `pool`: the most connections each instance opens (TASK_CONTEXT_DATABASE_POOL).
   */
  instances?: { databaseUrl: string; count: number; pool?: number };
  /**
   * Faults injected into the database under the service while the agents work (see
   * postgres-chaos.ts): started with the agents, awaited before the final state is read.
   */
  disrupt?: (workload: WorkloadProgress) => Promise<void>;
  /**
   * Retry storms, each when this many items have been completed: every agent claims an item and
   * waits for all the others; then they all fail their attempts at once and claim again at once.
   */
  storms?: ReadonlyArray<{ afterCompleted: number }>;
  /** Gives up ("blocked") when the run is not completed after this long. */
  deadlineMs: number;
  /**
   * A2A agents beside the polling ones (the official SDK's server, in this process), registered
   * by their URL; the server process delivers to them. They fault at the same rates: silent
   * until canceled (`crash`), a late answer past the lease (`stale`), completed twice
   * (`duplicate`).
   */
  a2a?: { agents: number; concurrency: number };
}

/** What a workload leaves: the history, the final state, and the run. */
export interface WorkloadResult {
  options: WorkloadOptions;
  runId: string;
  history: History;
  final: FinalState;
  /** Milliseconds from the first claim to the run's completion. */
  durationMs: number;
  /** The SSE client's connection attempts, each with the instance it went to (0-based). */
  stream: StreamConnection[];
  /**
   * How many times the SSE client gave up (a reconnection answered with another status than
   * 200, e.g. 500 while the database was away) and a new one started after its last event.
   */
  streamRestarts: number;
}

/** What a disruption sees of the workload, and where it records the faults it injects. */
export interface WorkloadProgress {
  runId: string;
  /** The monotonic clock of the history. */
  now(): number;
  /** Resolves true once `count` items have been completed; false when the run ended first. */
  completed(count: number): Promise<boolean>;
  /**
   * Resolves true once the agents have been answered `count` more server errors (5xx) than so
   * far; false when the run ended first.
   */
  serverErrors(count: number): Promise<boolean>;
  /** Records a fault: `what` was done, from `start` (of {@link now}) until now. */
  fault(what: string, start: number): void;
}

/** A connection attempt of the SSE client and the server instance it went to. */
export interface StreamConnection extends StreamRequest {
  /** Where it went (`url` is the EventSource's; the client sends it to this instance's host). */
  instance: number;
}

const adminToken = "checker-admin-token-0123456789abcdef";
const now = () => performance.now();
const sleep = (milliseconds: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, milliseconds)));

interface Agent {
  index: number;
  tag: string;
  token: string;
  random: () => number;
  keys: number;
}

interface Request {
  action: Action;
  intent: Intent;
  retry?: true;
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  workItemId?: string;
  attempt?: number;
  idempotencyKey?: string;
  content?: string;
}

/** Runs a workload to the end of its run and reads the final state. */
export async function runWorkload(options: WorkloadOptions): Promise<WorkloadResult> {
  if (options.maxAttempts < 2) throw new Error("maxAttempts must be at least 2");
  const { instances, folder } = options;
  if (instances !== undefined && !(instances.count >= 1)) {
    throw new Error("instances.count must be at least 1");
  }
  const store =
    instances !== undefined
      ? {
          environment: {
            TASK_CONTEXT_DATABASE_URL: instances.databaseUrl,
            ...(instances.pool === undefined
              ? {}
              : { TASK_CONTEXT_DATABASE_POOL: String(instances.pool) }),
          },
        }
      : folder !== undefined
        ? { database: join(folder, "checker.db") }
        : undefined;
  if (store === undefined) throw new Error("a workload needs a folder (SQLite) or instances");
  const launched = await Promise.allSettled(
    Array.from({ length: instances?.count ?? 1 }, () =>
      startServerProcess({ ...store, adminToken, now }),
    ),
  );
  const servers = launched.flatMap((start) => (start.status === "fulfilled" ? [start.value] : []));
  const failed = launched.find((start) => start.status === "rejected");
  if (failed !== undefined) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failed.reason;
  }
  const instance = (index: number) => servers[index] as ServerProcess;
  /** Restarts under way, per instance: an instance is live when it has none. */
  const restartsUnderWay = servers.map(() => 0);
  /** The first live instance after `from`, in turn (`from`'s successor when none is). */
  const nextLive = (from: number) => {
    for (let step = 1; step <= servers.length; step++) {
      const candidate = (from + step) % servers.length;
      if (restartsUnderWay[candidate] === 0) return candidate;
    }
    return (from + 1) % servers.length;
  };
  // Requests are spread round-robin, request by request, over the live instances.
  let lastPicked = -1;
  const pick = () => {
    lastPicked = nextLive(lastPicked);
    return lastPicked;
  };
  /** Resolves when an instance listens: at once, unless every one is being restarted. */
  const someUp = () => Promise.race(servers.map((server) => server.up()));
  const operations: Operation[] = [];
  const crashes: Crash[] = [];
  const restarts: Restart[] = [];
  const faults: Fault[] = [];
  let finished = false;
  let stopping = false;
  let errorsAnswered = 0;
  /** What a disruption waits for: each settled when its condition holds, or (false) at the end. */
  const conditions = new Set<{ holds: () => boolean; settle: (held: boolean) => void }>();
  const until = (holds: () => boolean) =>
    holds()
      ? Promise.resolve(true)
      : new Promise<boolean>((settle) => conditions.add({ holds, settle }));
  const recheck = () => {
    for (const condition of conditions) {
      if (finished || condition.holds()) {
        conditions.delete(condition);
        condition.settle(!finished);
      }
    }
  };

  /** Sends a request and records it with its answer; "unknown" when no answer came. */
  const call = async (caller: { tag: string; token: string }, request: Request) => {
    const at = pick();
    const start = now();
    let status: number | "unknown" = "unknown";
    let body: unknown;
    try {
      const response = await fetch(`${instance(at).url()}${request.path}`, {
        method: request.method,
        headers: {
          Authorization: `Bearer ${caller.token}`,
          ...(request.body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(request.idempotencyKey === undefined
            ? {}
            : { "Idempotency-Key": request.idempotencyKey }),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      body = text === "" ? undefined : JSON.parse(text);
      status = response.status;
    } catch {
      status = "unknown";
    }
    const operation: Operation = {
      index: operations.length,
      process: caller.tag,
      ...(instances === undefined ? {} : { instance: at }),
      action: request.action,
      intent: request.intent,
      ...(request.retry === undefined ? {} : { retry: true as const }),
      ...(request.workItemId === undefined ? {} : { workItemId: request.workItemId }),
      ...(request.attempt === undefined ? {} : { attempt: request.attempt }),
      ...(request.idempotencyKey === undefined ? {} : { idempotencyKey: request.idempotencyKey }),
      ...(request.content === undefined ? {} : { content: request.content }),
      start,
      end: now(),
      status,
      ...(typeof status === "number" && status >= 400
        ? { code: (body as { code?: string } | undefined)?.code ?? "" }
        : {}),
      ...(body === undefined ? {} : { body }),
    };
    operations.push(operation);
    if (typeof status === "number" && status >= 500) {
      errorsAnswered += 1;
      recheck();
    }
    return operation;
  };
  /**
   * Sends a request until an answer other than a server error comes, waiting for a server
   * between tries (each try goes to the next live instance), 5 ms after the first, twice as long
   * after each next, at most 200 ms.
   */
  const settle = async (caller: { tag: string; token: string }, request: Request) => {
    for (let tries = 0; ; tries++) {
      const answer = await call(caller, tries === 0 ? request : { ...request, retry: true });
      if (answer.status !== "unknown" && answer.status < 500) return answer;
      await someUp();
      await sleep(Math.min(200, 5 * 2 ** tries));
    }
  };
  const admin = { tag: "admin", token: adminToken };

  // The run and its agents.
  const stages: CreateRunInput["stages"] = [
    {
      id: "work",
      stage_description: "Do the work",
      expected_output: "A text",
      available_skills: ["write_file"],
      items: options.items,
    },
  ];
  if (options.reviews) {
    stages.push({
      id: "review",
      kind: "review",
      reviews: "work",
      review_criteria: ["correct", "complete"],
      stage_description: "Review the work",
      expected_output: "A verdict",
      available_skills: [],
    });
  }
  const created = await settle(admin, {
    action: "run",
    intent: "admin",
    method: "POST",
    path: "/v1/runs",
    body: {
      goal: "Check the delivery guarantees",
      constraints: ["Every item exactly once"],
      stages,
      lease_ms: options.leaseMs,
      max_attempts: options.maxAttempts,
    } satisfies CreateRunInput,
  });
  if (created.status !== 201) throw new Error(`could not create the run: ${created.status}`);
  const runId = (created.body as RunView).run_id;
  const agents: Agent[] = [];
  for (let index = 0; index < options.agents; index++) {
    const tag = `agent-${String(index).padStart(2, "0")}`;
    const added = await settle(admin, {
      action: "run",
      intent: "admin",
      method: "POST",
      path: `/v1/runs/${runId}/agents`,
      body: { tag },
    });
    const token = (added.body as { token: string }).token;
    agents.push({
      index,
      tag,
      token,
      random: seededRandom(streamSeed(options.seed, index)),
      keys: 0,
    });
  }
  const a2aAgents = await startA2aAgents(options, (tag, url) =>
    settle(admin, {
      action: "run",
      intent: "admin",
      method: "POST",
      path: `/v1/runs/${runId}/agents`,
      body: { tag, a2a: { url, concurrency: options.a2a?.concurrency ?? 1 } },
    }),
  );
  const readEvents = async (): Promise<CollaborationEvent[]> => {
    const events: CollaborationEvent[] = [];
    for (let after = 0; ; ) {
      const page = await settle(admin, {
        action: "run",
        intent: "admin",
        method: "GET",
        path: `/v1/runs/${runId}/events?after=${after}&limit=1000`,
      });
      const { events: more, next_after } = page.body as EventPage;
      events.push(...more);
      if (more.length === 0) return events;
      after = next_after;
    }
  };
  const poisoned = new Set(
    (await readEvents())
      .flatMap((event) => (event.type === "work_item.offered" ? [event.work_item_id] : []))
      .slice(0, options.poison),
  );
  // The SSE client starts on instance 0 (the first one restarted); each reconnection goes to
  // the next live instance after the one it was on: another one, when there are several. An
  // EventSource gives up when a reconnection is answered with another status than 200: then a
  // new one starts after the last event received, on the next live instance, as an application
  // would to keep following.
  const streamInstances: number[] = [];
  let streamAt = 0;
  const followers: Follower[] = [];
  const streamed = () => followers.flatMap((follower) => follower.frames);
  const follow = () => {
    const after = streamed().at(-1)?.event.seq ?? 0;
    if (followers.length > 0) streamAt = nextLive(streamAt);
    followers.push(
      followEvents(
        (previous) => {
          if (previous !== undefined) streamAt = nextLive(streamAt);
          streamInstances.push(streamAt);
          return instance(streamAt).url();
        },
        `/v1/runs/${runId}/events${after === 0 ? "" : `?after=${after}`}`,
        adminToken,
      ),
    );
  };
  /** A new SSE client when the last one gave up. */
  const keepFollowing = () => {
    if (followers.at(-1)?.closed() === true) follow();
  };
  follow();

  // The agents' side.
  const completedItems = new Set<string>();
  /** Items completed as the run last said (its stages' counts): A2A agents' completions too. */
  let completedByRun = 0;
  /** How many items have been completed, as far as anyone here knows. */
  const completedCount = () => Math.max(completedItems.size, completedByRun);
  const restarting: Promise<void>[] = [];
  /** Starts the next restart once enough items have been completed. */
  const restartWhenDue = () => {
    const restart = options.restarts[restarting.length];
    if (restart !== undefined && completedCount() >= restart.afterCompleted) {
      // The instances in turn; the others serve meanwhile.
      const at = restarting.length % servers.length;
      restartsUnderWay[at] = (restartsUnderWay[at] ?? 0) + 1;
      restarting.push(
        instance(at)
          .restart(restart.signal)
          .then((done) => {
            restartsUnderWay[at] = (restartsUnderWay[at] ?? 1) - 1;
            restarts.push(instances === undefined ? done : { ...done, instance: at });
          }),
      );
    }
  };
  const completed = (workItemId: string) => {
    completedItems.add(workItemId);
    recheck();
    restartWhenDue();
  };
  const newKey = (agent: Agent) => {
    agent.keys += 1;
    return `${agent.tag}-${agent.keys}`;
  };
  let bursts = 0;
  /** Claims that reached an agent's work, for firstCrashes. */
  let claimsSeen = 0;
  const completion = (agent: Agent, item: WorkItem, attempt: number, extra = "") => {
    const content = `${item.id}|${attempt}|${agent.tag}${extra}`;
    const body =
      item.kind === "task"
        ? { attempt, artifact: { media_type: "text/plain", content } }
        : {
            attempt,
            review: {
              verdict: "approve",
              summary: content,
              criteria: item.review_context.review_criteria.map((criterion) => ({
                criterion,
                comment: `Fine on ${criterion}.`,
              })),
            },
          };
    return { body, content };
  };
  const complete = async (
    agent: Agent,
    item: WorkItem,
    attempt: number,
    intent: Intent,
    key = newKey(agent),
    extra = "",
  ) => {
    const { body, content } = completion(agent, item, attempt, extra);
    const answer = await settle(agent, {
      action: "complete",
      intent,
      method: "POST",
      path: `/v1/work-items/${item.id}/complete`,
      body,
      workItemId: item.id,
      attempt,
      idempotencyKey: key,
      content,
    });
    if (answer.status === 200) completed(item.id);
    return answer;
  };
  const fail = (agent: Agent, item: WorkItem, attempt: number, intent: Intent) =>
    settle(agent, {
      action: "fail",
      intent,
      method: "POST",
      path: `/v1/work-items/${item.id}/fail`,
      body: { attempt, reason: intent === "poison" ? "poisoned on purpose" : "gave up" },
      workItemId: item.id,
      attempt,
      idempotencyKey: newKey(agent),
    });
  const untilExpired = (expiresAt: string) => sleep(Date.parse(expiresAt) - Date.now() + 20);

  /** Holds the lease past its expiry; another agent claims the item; then completes anyway. */
  const stale = async (agent: Agent, item: WorkItem, lease: ClaimView["lease"]) => {
    await untilExpired(lease.expires_at);
    const author = item.kind === "review" ? item.review_context.target_author_tag : undefined;
    const thief =
      agents.find((other) => other.index > agent.index && other.tag !== author) ??
      agents.find((other) => other !== agent && other.tag !== author);
    if (thief === undefined) return;
    const stolen = await settle(thief, {
      action: "claim",
      intent: "steal",
      method: "POST",
      path: `/v1/work-items/${item.id}/claim`,
      workItemId: item.id,
    });
    await complete(agent, item, lease.attempt, "stale");
    if (stolen.status === 200) {
      await complete(thief, item, (stolen.body as ClaimView).lease.attempt, "work");
    }
    await complete(agent, item, lease.attempt, "stale");
  };

  /** A completion's duplicates. */
  const duplicates = async (
    agent: Agent,
    item: WorkItem,
    lease: ClaimView["lease"],
    key: string,
  ) => {
    await complete(agent, item, lease.attempt, "same-key", key);
    await complete(agent, item, lease.attempt, "other-key");
    await complete(agent, item, lease.attempt, "other-body", key, " (edited)");
    if (bursts++ % 4 === 0) {
      await untilExpired(lease.expires_at);
      await complete(agent, item, lease.attempt, "late");
      await complete(agent, item, lease.attempt, "same-key", key);
    }
  };

  const work = async (agent: Agent, claim: ClaimView) => {
    const { work_item: item, lease } = claim;
    if (poisoned.has(item.id) && lease.attempt <= options.maxAttempts) {
      await fail(agent, item, lease.attempt, "poison");
      return;
    }
    const roll = agent.random();
    const early = claimsSeen++ < (options.firstCrashes ?? 0);
    if (roll < options.crash || early) {
      crashes.push({ process: agent.tag, workItemId: item.id, attempt: lease.attempt, at: now() });
      return;
    }
    if (roll < options.crash + options.fail) {
      await fail(agent, item, lease.attempt, "work");
      return;
    }
    if (roll < options.crash + options.fail + options.stale && lease.attempt === 1) {
      await stale(agent, item, lease);
      return;
    }
    await sleep(agent.random() * options.workMs);
    if (agent.random() < options.heartbeat) {
      await call(agent, {
        action: "heartbeat",
        intent: "work",
        method: "POST",
        path: `/v1/work-items/${item.id}/heartbeat`,
        body: { attempt: lease.attempt },
        workItemId: item.id,
        attempt: lease.attempt,
      });
    }
    const key = newKey(agent);
    const answer = await complete(agent, item, lease.attempt, "work", key);
    if (answer.status === 200 && agent.random() < options.duplicate) {
      await duplicates(agent, item, lease, key);
    }
  };

  // Retry storms: the agents meet, each holding an item when one was on offer; once the last
  // arrives, all fail at once and claim again at once.
  const storms = options.storms ?? [];
  let stormsBegun = 0;
  let activeAgents = agents.length;
  let gathering:
    | {
        joined: Set<Agent>;
        arrived: number;
        holding: number;
        start: number;
        released: Promise<void>;
        release(): void;
      }
    | undefined;
  const releaseIfAllArrived = () => {
    if (gathering === undefined || gathering.arrived < activeAgents) return;
    const { arrived, holding, start, release } = gathering;
    gathering = undefined;
    faults.push({
      what: `retry storm ${stormsBegun}: ${arrived} agents met holding ${holding} leases, all failed at once and claimed again at once`,
      start,
      end: now(),
    });
    release();
  };
  const joinStorm = async (agent: Agent) => {
    if (gathering === undefined) {
      stormsBegun += 1;
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      gathering = { joined: new Set(), arrived: 0, holding: 0, start: now(), released, release };
    }
    const storm = gathering;
    storm.joined.add(agent);
    const claim = await call(agent, {
      action: "claim-next",
      intent: "work",
      method: "POST",
      path: "/v1/inbox/claim-next",
    });
    const held = claim.status === 200 ? (claim.body as ClaimView) : undefined;
    if (held !== undefined) storm.holding += 1;
    storm.arrived += 1;
    releaseIfAllArrived();
    await storm.released;
    if (held !== undefined) {
      await fail(agent, held.work_item, held.lease.attempt, "storm");
    }
  };
  const stormFor = (agent: Agent) =>
    gathering !== undefined
      ? !gathering.joined.has(agent)
      : stormsBegun < storms.length &&
        completedCount() >= (storms[stormsBegun]?.afterCompleted ?? Number.POSITIVE_INFINITY);

  const agentLoop = async (agent: Agent) => {
    while (!finished) {
      if (stormFor(agent)) {
        await joinStorm(agent);
        continue;
      }
      const claim = await call(agent, {
        action: "claim-next",
        intent: "work",
        method: "POST",
        path: "/v1/inbox/claim-next?wait=1",
      });
      // No answer: the claim may have happened, a lease nobody knows of (it expires).
      if (claim.status === "unknown") await someUp();
      if (claim.status === 200) await work(agent, claim.body as ClaimView);
    }
    // Those still gathering for a storm no longer wait for this agent.
    activeAgents -= 1;
    releaseIfAllArrived();
  };

  // The admin requeues dead letters and watches for the run's completion.
  const adminLoop = async () => {
    while (!finished && !stopping) {
      const letters = await call(admin, {
        action: "dead-letters",
        intent: "admin",
        method: "GET",
        path: `/v1/runs/${runId}/dead-letters`,
      });
      for (const letter of (letters.body as { dead_letters?: DeadLetter[] })?.dead_letters ?? []) {
        await settle(admin, {
          action: "requeue",
          intent: "admin",
          method: "POST",
          path: `/v1/runs/${runId}/work-items/${letter.work_item.id}/requeue`,
          workItemId: letter.work_item.id,
        });
      }
      const run = await call(admin, {
        action: "run",
        intent: "admin",
        method: "GET",
        path: `/v1/runs/${runId}`,
      });
      if (run.status === 200) {
        const { status, stages } = run.body as RunView;
        completedByRun = stages.reduce((sum, stage) => sum + stage.counts.completed, 0);
        restartWhenDue();
        recheck();
        if (status === "completed") {
          finished = true;
          recheck();
        }
      }
      if (run.status === "unknown") await someUp();
      keepFollowing();
      await sleep(50);
    }
  };

  const started = now();
  const deadline = setTimeout(() => {
    stopping = true;
    finished = true;
    recheck();
  }, options.deadlineMs);
  // A disruption that fails ends the workload: the agents stop, the servers are stopped.
  let disruptionFailed: { error: unknown } | undefined;
  const disrupting = options
    .disrupt?.({
      runId,
      now,
      completed: (count) => until(() => completedCount() >= count),
      serverErrors: (count) => {
        const target = errorsAnswered + count;
        return until(() => errorsAnswered >= target);
      },
      fault: (what, start) => faults.push({ what, start, end: now() }),
    })
    .catch((error: unknown) => {
      disruptionFailed = { error };
      finished = true;
      recheck();
    });
  try {
    await Promise.all([adminLoop(), ...agents.map(agentLoop)]);
  } finally {
    clearTimeout(deadline);
  }
  const durationMs = now() - started;
  await disrupting;
  if (disruptionFailed !== undefined) {
    await Promise.all(restarting);
    await Promise.all(a2aAgents.map((agent) => agent.close()));
    for (const follower of followers) follower.close();
    await Promise.all(servers.map((server) => server.stop()));
    throw disruptionFailed.error;
  }
  await Promise.all(restarting);
  await Promise.all(a2aAgents.map((agent) => agent.close()));

  // The final state.
  const read = async <Body>(path: string) =>
    (await settle(admin, { action: "run", intent: "admin", method: "GET", path })).body as Body;
  const run = await read<RunView>(`/v1/runs/${runId}`);
  const events = await readEvents();
  const artifacts: Artifact[] = [];
  const artifactIds = events.flatMap((event) =>
    event.type === "artifact.created" ? [event.artifact.artifact_id] : [],
  );
  for (let index = 0; index < artifactIds.length; index += 16) {
    artifacts.push(
      ...(await Promise.all(
        artifactIds
          .slice(index, index + 16)
          .map((id) => read<Artifact>(`/v1/runs/${runId}/artifacts/${id}`)),
      )),
    );
  }
  const deadLetters = (await read<{ dead_letters: DeadLetter[] }>(`/v1/runs/${runId}/dead-letters`))
    .dead_letters;
  // The SSE client catches up (it may be waiting to reconnect after the last restart).
  const last = events.at(-1)?.seq ?? 0;
  const caughtUp = now() + 30_000;
  while ((streamed().at(-1)?.event.seq ?? 0) < last && now() < caughtUp) {
    keepFollowing();
    await sleep(20);
  }
  for (const follower of followers) follower.close();
  const serverErrors = (await Promise.all(servers.map((server) => server.stop())))
    .map((errors, at) =>
      servers.length > 1 && errors !== "" ? `instance ${at}: ${errors}` : errors,
    )
    .join("");
  if (stopping) {
    throw new Error(
      `blocked: the run did not complete within ${options.deadlineMs} ms: ${JSON.stringify(run.stages.map((stage) => stage.counts))}`,
    );
  }
  return {
    options,
    runId,
    history: { operations, crashes, restarts, faults },
    final: {
      run,
      events,
      streamed: streamed(),
      artifacts,
      deadLetters,
      serverErrors,
    },
    durationMs,
    // A connection attempt is recorded before its instance is chosen: the last may have none yet.
    stream: followers
      .flatMap((follower) => follower.requests)
      .map((request, at) => ({ ...request, instance: streamInstances[at] ?? streamAt })),
    streamRestarts: followers.length - 1,
  };
}

/**
 * Starts the workload's A2A agents and registers each with `register` (which must answer 201):
 * each completes an item with the content the checker expects of its tag and attempt, or
 * faults, drawing from its own stream of the seed.
 */
async function startA2aAgents(
  options: WorkloadOptions,
  register: (tag: string, url: string) => Promise<Operation>,
): Promise<RunningA2aAgent[]> {
  const started: RunningA2aAgent[] = [];
  for (let index = 0; index < (options.a2a?.agents ?? 0); index++) {
    const tag = `a2a-${String(index).padStart(2, "0")}`;
    const random = seededRandom(streamSeed(options.seed, 1000 + index));
    const agent = await startA2aAgent({
      name: tag,
      skills: [{ id: "write_file" }],
      streaming: index % 2 === 0, // half followed by streaming, half by tasks/get
      behaviour: async (task) => {
        const content = `${task.item.id}|${task.attempt}|${tag}`;
        const parts =
          task.item.kind === "task"
            ? [textPart(content, "text/plain")]
            : [
                dataPart({
                  verdict: "approve",
                  summary: content,
                  criteria: task.item.review_context.review_criteria.map((criterion) => ({
                    criterion,
                    comment: "ok",
                  })),
                }),
              ];
        const draw = random();
        task.working();
        if (draw < options.crash) {
          while (!task.canceled()) await sleep(20);
          return;
        }
        if (draw < options.crash + options.stale) await sleep(options.leaseMs * 1.5);
        else await sleep(random() * options.workMs);
        task.complete(parts);
        if (random() < options.duplicate) task.complete(parts);
      },
    });
    started.push(agent);
    const added = await register(tag, agent.url);
    if (added.status !== 201) throw new Error(`could not register ${tag}: ${added.status}`);
  }
  return started;
}
