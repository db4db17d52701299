// What the A2A tests share: a Node service on an in-memory database with a clock that moves only
// when a test moves it, A2A agents on loopback, each closed after its test (in reverse order),
// and ways to wait for what the service did (an event, a lease's new end) instead of sleeping.

import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import {
  type CollaborationEvent,
  type CreateRunInput,
  createServiceClient,
  type ServiceClient,
  ServiceError,
  type StageInput,
} from "@task-context/client";
import { afterEach } from "vitest";
import { type NodeServer, type NodeServerOptions, startNodeServer } from "../../src/node.ts";
import { manualClock } from "../contract/harness.ts";
import { attribute, elements, having, only, parsePage } from "../contract/html.ts";
import { type A2aAgentOptions, type RunningA2aAgent, startA2aAgent } from "./a2a-agent.ts";
import { type HostileAgent, type HostileAgentOptions, startHostileAgent } from "./hostile-agent.ts";

/** How long a wait may last before the test fails: it only matters when the test fails. */
const PATIENCE_MS = 20_000;

/** The first stage of the A2A tests' runs: a launch post, by an agent with `copywriting`. */
export const draftStage: StageInput = {
  id: "draft",
  stage_description: "Write the launch post",
  expected_output: "Markdown",
  available_skills: ["copywriting"],
};

/** The stage that reviews the draft, by an agent with `reviewing`. */
export const reviewStage: StageInput = {
  id: "review",
  kind: "review",
  reviews: "draft",
  review_criteria: ["clarity", "brand"],
  stage_description: "Review the post",
  expected_output: "A verdict",
  available_skills: ["reviewing"],
};

/** A run to launch Lumen, of the draft stage alone unless `fields` say otherwise. */
export function lumenRun(fields: Partial<CreateRunInput> = {}): CreateRunInput {
  return { goal: "Launch Lumen, a reading lamp", constraints: [], stages: [draftStage], ...fields };
}

/** The clock of a service: it moves only when told. */
export type TestClock = ReturnType<typeof manualClock>;

/** A service of the harness: the server, its admin client, its clock. */
export interface A2aService {
  server: NodeServer;
  admin: ServiceClient;
  clock: TestClock;
}

/**
 * Resolves with `read()`'s value once `done` holds for it, reading again every 10 ms; fails
 * after 20 s (a generous deadline that only matters when the awaited thing never comes).
 */
export async function waitFor<T>(
  what: string,
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
): Promise<T> {
  const end = Date.now() + PATIENCE_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`Gave up waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The ServiceError `promise` rejects with; fails the test when it resolves or rejects otherwise. */
export async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ServiceError.isInstance(error)) throw new Error(`expected a ServiceError, got ${error}`);
  return error;
}

/** A gate an agent's behaviour waits at until the test opens it (then a new one is set). */
export function cues() {
  let open: () => void = () => undefined;
  let gate = Promise.resolve();
  const next = () => {
    gate = new Promise<void>((resolve) => {
      open = resolve;
    });
  };
  next();
  return {
    wait: () => gate,
    open: () => {
      const opened = open;
      next();
      opened();
    },
  };
}

/** Every event of the run so far. */
export async function events(admin: ServiceClient, runId: string): Promise<CollaborationEvent[]> {
  return (await admin.listEvents(runId, { after: 0, limit: 1000 })).events;
}

/** The run's events of one type. */
export const ofType = <T extends CollaborationEvent["type"]>(all: CollaborationEvent[], type: T) =>
  all.filter((event): event is Extract<CollaborationEvent, { type: T }> => event.type === type);

/** Waits until the run has an event of `type` that `matches`, and answers it. */
export async function untilEvent<T extends CollaborationEvent["type"]>(
  admin: ServiceClient,
  runId: string,
  type: T,
  matches: (event: Extract<CollaborationEvent, { type: T }>) => boolean = () => true,
): Promise<Extract<CollaborationEvent, { type: T }>> {
  const found = await waitFor(
    `a ${type} event`,
    async () => ofType(await events(admin, runId), type).find(matches),
    (event) => event !== undefined,
  );
  return found as Extract<CollaborationEvent, { type: T }>;
}

/** Waits until the run is no longer active (completed, or blocked by a dead letter). */
export function settled(admin: ServiceClient, runId: string) {
  return waitFor(
    "the run to settle",
    () => admin.getRun(runId),
    (run) => run.status !== "active",
  );
}

/** When attempt `attempt` of the run's item was leased to end (its work_item.leased event). */
export async function leasedUntil(
  admin: ServiceClient,
  runId: string,
  attempt: number,
): Promise<number> {
  const leased = await untilEvent(admin, runId, "work_item.leased", (e) => e.attempt === attempt);
  return Date.parse(leased.expires_at);
}

/** The end of the lease the item holds now, as the run page shows it (undefined: none). */
export async function leaseEnd(
  service: A2aService,
  runId: string,
  itemId: string,
  adminToken: string,
): Promise<number | undefined> {
  const response = await fetch(`${service.server.url}/runs/${runId}`, {
    headers: { authorization: `Bearer ${adminToken}`, accept: "text/html" },
  });
  const page = parsePage(await response.text());
  const row = only(page, having("tr", "data-work-item-id", itemId), `the row of ${itemId}`);
  const time = elements(row).find((element) => element.tagName === "time");
  const at = time === undefined ? undefined : attribute(time, "datetime");
  return at === undefined ? undefined : Date.parse(at);
}

/** The service and agent starters of a test file, with `adminToken` and `options` for the service. */
export function a2aHarness(adminToken: string, options: Partial<NodeServerOptions> = {}) {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  /** Closes `close` after the test. */
  const onClose = (close: () => Promise<void>) => closers.push(close);
  /** A service whose clock moves only when the test moves it (`overrides` over `options`). */
  async function service(overrides: Partial<NodeServerOptions> = {}): Promise<A2aService> {
    const clock = manualClock();
    const server = await startNodeServer({
      port: 0,
      database: ":memory:",
      adminToken,
      limits: { rateLimit: false },
      clock: clock.now,
      ...options,
      ...overrides,
    });
    onClose(() => server.close());
    return { server, admin: createServiceClient({ url: server.url, token: adminToken }), clock };
  }
  async function agent(agentOptions: A2aAgentOptions): Promise<RunningA2aAgent> {
    const started = await startA2aAgent(agentOptions);
    onClose(() => started.close());
    return started;
  }
  async function hostile(agentOptions: HostileAgentOptions = {}): Promise<HostileAgent> {
    const started = await startHostileAgent(agentOptions);
    onClose(() => started.close());
    return started;
  }
  /**
   * Runs `examples/<name>` in a process of its own, as the docs say (closed after the test), with
   * `env` over this one's; answers what it printed so far, at any time.
   */
  function example(name: string, env: Record<string, string>): () => string {
    const file = fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));
    const child = spawn(process.execPath, ["--conditions=@task-context/source", file], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    onClose(async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    });
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    return () => printed;
  }
  return { service, agent, hostile, example, onClose };
}
