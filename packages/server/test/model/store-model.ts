// Model-based test of a store against the state machine alone (fast-check's commands): random
// sequences of create, add agent, claim (by id and next), heartbeat, complete (task and review,
// with idempotency keys and receipts), fail, expire (the clock moved past leases), requeue, cancel and
// crash (the store replaced by a new one over the same database) run on a MemoryRun and on a
// store, which must give the same answers (status or code and message, with ids put in order of
// appearance) and append the same events. Runtime-neutral: Node runs it on SQLite and
// PostgreSQL, workerd on a Durable Object's storage.

import type { CompleteBody, CreateRunInput } from "@task-context/contract";
import { type CollaborationEvent, runContextSha256 } from "@task-context/protocols";
import fc from "fast-check";
import { expect } from "vitest";
import type { DeliveryStore, StoredAgent } from "../../src/delivery/delivery-store.ts";
import { newId } from "../../src/delivery/ids.ts";
import type { Answers, Command, CommandType } from "../../src/delivery/machine/machine.ts";
import { shownAttempt } from "../../src/delivery/rules.ts";
import { runContextOf, runViewOf } from "../../src/delivery/run-views.ts";
import { MemoryRun } from "./memory-run.ts";

/** A store under test, on a clock the test moves. */
export interface StoreUnderTest {
  /** The store as it is now (a crash replaces it). */
  readonly store: DeliveryStore;
  /** Replaces the store by a new one over the same database, as after a crash. */
  crash(): Promise<void>;
  /** Stops it and removes what it made. */
  close(): Promise<void>;
}

/** Opens a store whose clock is `clock` (milliseconds since the epoch). */
export type OpenStore = (clock: () => number) => Promise<StoreUnderTest>;

const LEASE_MS = 1000;
const TAGS = ["a0", "a1", "a2"] as const;
const CRITERIA = ["logic", "readability"];
const STALE = "0".repeat(64);

/** The agent with tag `tag` (the same ids in the model and the store). */
const agentOf = (tag: string): StoredAgent => ({
  agent_id: `agt_${tag}`,
  tag,
  token_hash: `hash of ${tag}`,
});

/** The run every sequence works on: a task stage, a review of it, a last task stage. */
function runInputOf({
  items,
  maxAttempts,
}: {
  items: number;
  maxAttempts: number;
}): CreateRunInput {
  const stage = (id: string) => ({
    id,
    stage_description: `Stage ${id}`,
    expected_output: "A document",
    available_skills: ["write_file"],
  });
  return {
    goal: "Write and review.",
    constraints: ["Short"],
    lease_ms: LEASE_MS,
    max_attempts: maxAttempts,
    stages: [
      { ...stage("draft"), items },
      { ...stage("review"), kind: "review", reviews: "draft", review_criteria: CRITERIA },
      { ...stage("final"), items: 1 },
    ],
  };
}

/** Ids put in order of appearance, one count per prefix: `wi#1`, `evt#3`, … */
class Ids {
  readonly #names = new Map<string, string>();
  readonly #counts = new Map<string, number>();

  /** `value` as JSON, each id replaced by its name. */
  normalize(value: unknown): unknown {
    if (value === undefined) return undefined;
    const text = JSON.stringify(value).replace(
      /\b(run|wi|art|evt|agt)_[0-9a-z]+\b/g,
      (id, prefix) => {
        let name = this.#names.get(id);
        if (name === undefined) {
          const count = (this.#counts.get(prefix) ?? 0) + 1;
          this.#counts.set(prefix, count);
          name = `${prefix}#${count}`;
          this.#names.set(id, name);
        }
        return name;
      },
    );
    return JSON.parse(text);
  }
}

/** A side of the comparison: the model's run, or a store's. */
interface Side {
  ids: Ids;
  /** The work items' ids in order of their first offer. */
  items: string[];
  /** The events seen so far. */
  events: CollaborationEvent[];
}

/** What the commands work on. */
interface Model {
  run: MemoryRun;
  side: Side;
  tags: Set<string>;
}

interface Real {
  system: StoreUnderTest;
  runId: string;
  side: Side;
  clock: { now: number };
}

/** An answer as both sides are compared: ok with a value, or a refusal's code and message. */
type Outcome = { ok: true; value: unknown } | { ok: false; code: string; message: string };

async function settle(answer: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await answer() };
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code !== "string") throw error;
    return { ok: false, code, message: String(message) };
  }
}

function decided<Type extends CommandType>(run: MemoryRun, command: Command<Type>) {
  const decision = run.run(command);
  return decision.ok
    ? ({ ok: true, value: decision.answer } as { ok: true; value: Answers[Type] })
    : ({ ok: false, code: decision.error.code, message: decision.error.message } as Outcome);
}

/** The id of the `index`-th work item of a side (modulo those known; none: an unknown id). */
const itemAt = (side: Side, index: number) =>
  side.items.length === 0 ? "wi_unknown" : (side.items[index % side.items.length] as string);

/** Compares both sides' outcomes (their values through `project`) and their events so far. */
async function compare(
  model: Model,
  real: Real,
  expected: Outcome,
  actual: Outcome,
  project: (value: unknown, side: "model" | "real") => unknown = (value) => value,
): Promise<void> {
  const shown = (outcome: Outcome, side: "model" | "real", ids: Ids) =>
    outcome.ok
      ? { ok: true, value: ids.normalize(project(outcome.value, side)) }
      : { ...outcome, message: ids.normalize(outcome.message) };
  expect(shown(actual, "real", real.side.ids)).toEqual(shown(expected, "model", model.side.ids));
  // Reading the events expires leases (none left at this time: the command did) on both sides.
  model.run.answer({ type: "expireLeases" });
  const page = await real.system.store.events(real.runId, 0, 100_000);
  see(model.side, model.run.events);
  see(real.side, page.events);
  expect(real.side.ids.normalize(real.side.events)).toEqual(
    model.side.ids.normalize(model.side.events),
  );
}

/** Takes the events of a side in: new work items' ids in order of their first offer. */
function see(side: Side, events: readonly CollaborationEvent[]): void {
  for (const event of events.slice(side.events.length)) {
    side.events.push(event);
    if (event.type === "work_item.offered" && !side.items.includes(event.work_item_id)) {
      side.items.push(event.work_item_id);
    }
  }
}

type StoreCommand = fc.AsyncCommand<Model, Real>;

class AddAgent implements StoreCommand {
  readonly tag: string;
  constructor(tag: string) {
    this.tag = tag;
  }
  check = () => true;
  async run(model: Model, real: Real) {
    const expected = decided(model.run, { type: "addAgent", agent: agentOf(this.tag) });
    if (expected.ok) model.tags.add(this.tag);
    const actual = await settle(() => real.system.store.addAgent(real.runId, agentOf(this.tag)));
    await compare(model, real, expected, actual);
  }
  toString = () => `addAgent(${this.tag})`;
}

class Claim implements StoreCommand {
  readonly tag: string;
  readonly index: number | undefined;
  constructor(tag: string, index: number | undefined) {
    this.tag = tag;
    this.index = index;
  }
  check = (model: Readonly<Model>) => model.tags.has(this.tag);
  async run(model: Model, real: Real) {
    const agent = agentOf(this.tag);
    const of = (side: Side) => (this.index === undefined ? undefined : itemAt(side, this.index));
    const expected = decided(model.run, {
      type: "claim",
      agent,
      workItemId: of(model.side),
    });
    const actual = await settle(() => real.system.store.claim(real.runId, agent, of(real.side)));
    await compare(model, real, expected, actual, (value, side) => {
      if (value === undefined) return null;
      if (side === "model") {
        const { item, lease } = value as NonNullable<Answers["claim"]>;
        return { id: item.id, kind: item.kind, attempt: shownAttempt(item), lease };
      }
      const { work_item, lease } = value as NonNullable<
        Awaited<ReturnType<DeliveryStore["claim"]>>
      >;
      return { id: work_item.id, kind: work_item.kind, attempt: work_item.attempt, lease };
    });
  }
  toString = () => `claim(${this.tag}, ${this.index ?? "next"})`;
}

/** Who acts on which item: a tag, or `"holder"`: a leased item (the `index`-th) and its holder. */
const HOLDER = "holder";

/** The agent's tag and the item's index (in order of first offer) a command acts with. */
function actor(model: Model, tag: string, index: number): { tag: string; index: number } {
  if (tag !== HOLDER) return { tag, index };
  const leased = [...(model.run.state?.leased ?? [])];
  const id = leased[index % Math.max(1, leased.length)];
  const item = id === undefined ? undefined : model.run.state?.items.get(id);
  if (item === undefined) return { tag: TAGS[0], index };
  return { tag: item.holder_tag ?? TAGS[0], index: model.side.items.indexOf(item.id) };
}

/** The attempt a command quotes: the item's current one, moved by `shift` (fencing). */
function attemptOf(model: Model, index: number, shift: number): number {
  const item = model.run.state?.items.get(itemAt(model.side, index));
  return Math.max(1, (item?.attempt ?? 1) + shift);
}

class Heartbeat implements StoreCommand {
  readonly tag: string;
  readonly index: number;
  readonly shift: number;
  constructor(tag: string, index: number, shift: number) {
    this.tag = tag;
    this.index = index;
    this.shift = shift;
  }
  check = (model: Readonly<Model>) => this.tag === HOLDER || model.tags.has(this.tag);
  async run(model: Model, real: Real) {
    const { tag, index } = actor(model, this.tag, this.index);
    const agent = agentOf(tag);
    const attempt = attemptOf(model, index, this.shift);
    const expected = decided(model.run, {
      type: "heartbeat",
      agent,
      workItemId: itemAt(model.side, index),
      attempt,
    });
    const actual = await settle(() =>
      real.system.store.heartbeat(real.runId, agent, itemAt(real.side, index), attempt),
    );
    await compare(model, real, expected, actual);
  }
  toString = () => `heartbeat(${this.tag}, ${this.index}, ${this.shift})`;
}

/** How a completion is made. */
interface CompletionShape {
  content: "one" | "two";
  /** A body of the other kind than the item's (INVALID_COMPLETION). */
  wrongKind: boolean;
  receipt: "none" | "current" | "stale";
  key: string | undefined;
}

class Complete implements StoreCommand {
  readonly tag: string;
  readonly index: number;
  readonly shift: number;
  readonly shape: CompletionShape;
  constructor(tag: string, index: number, shift: number, shape: CompletionShape) {
    this.tag = tag;
    this.index = index;
    this.shift = shift;
    this.shape = shape;
  }
  check = (model: Readonly<Model>) => this.tag === HOLDER || model.tags.has(this.tag);
  async run(model: Model, real: Real) {
    const { tag, index } = actor(model, this.tag, this.index);
    const agent = agentOf(tag);
    const modelId = itemAt(model.side, index);
    const state = model.run.state;
    const item = state?.items.get(modelId);
    const attempt = attemptOf(model, index, this.shift);
    const review = (item?.kind === "review") !== this.shape.wrongKind;
    const current =
      state === undefined || item === undefined
        ? undefined
        : await runContextSha256(runContextOf(state, item));
    const quoted =
      this.shape.receipt === "none" ? undefined : this.shape.receipt === "stale" ? STALE : current;
    const body: CompleteBody = {
      attempt,
      ...(quoted === undefined ? {} : { context_sha256: quoted }),
      ...(review
        ? {
            review: {
              verdict: "approve",
              summary: `Review ${this.shape.content}`,
              criteria: CRITERIA.map((criterion) => ({ criterion, comment: this.shape.content })),
            },
          }
        : { artifact: { media_type: "text/plain", content: this.shape.content, title: "T" } }),
    };
    const key = this.shape.key;
    const idempotency = key === undefined ? undefined : { key, requestHash: JSON.stringify(body) };
    const expected = decided(model.run, {
      type: "complete",
      agent,
      workItemId: modelId,
      body,
      idempotency,
      current: quoted === undefined ? undefined : current,
    });
    const actual = await settle(() =>
      real.system.store.complete(real.runId, agent, itemAt(real.side, index), body, idempotency),
    );
    // The whole answer: the view and its typed receipt (given again with an idempotent replay).
    await compare(model, real, expected, actual);
  }
  toString = () =>
    `complete(${this.tag}, ${this.index}, ${this.shift}, ${JSON.stringify(this.shape)})`;
}

class Fail implements StoreCommand {
  readonly tag: string;
  readonly index: number;
  readonly shift: number;
  readonly key: string | undefined;
  constructor(tag: string, index: number, shift: number, key: string | undefined) {
    this.tag = tag;
    this.index = index;
    this.shift = shift;
    this.key = key;
  }
  check = (model: Readonly<Model>) => this.tag === HOLDER || model.tags.has(this.tag);
  async run(model: Model, real: Real) {
    const { tag, index } = actor(model, this.tag, this.index);
    const agent = agentOf(tag);
    const body = { attempt: attemptOf(model, index, this.shift), reason: "gave up" };
    const idempotency =
      this.key === undefined ? undefined : { key: this.key, requestHash: JSON.stringify(body) };
    const expected = decided(model.run, {
      type: "fail",
      agent,
      workItemId: itemAt(model.side, index),
      body,
      idempotency,
    });
    const actual = await settle(() =>
      real.system.store.fail(real.runId, agent, itemAt(real.side, index), body, idempotency),
    );
    await compare(model, real, expected, actual);
  }
  toString = () => `fail(${this.tag}, ${this.index}, ${this.shift}, ${this.key})`;
}

class Requeue implements StoreCommand {
  readonly index: number;
  constructor(index: number) {
    this.index = index;
  }
  check = () => true;
  async run(model: Model, real: Real) {
    const expected = decided(model.run, {
      type: "requeue",
      workItemId: itemAt(model.side, this.index),
    });
    const actual = await settle(() =>
      real.system.store.requeue(real.runId, itemAt(real.side, this.index)),
    );
    await compare(model, real, expected, actual, (value, side) => {
      const item = value as { id: string; attempt: number; status?: "offered" };
      return {
        id: item.id,
        attempt: side === "model" ? shownAttempt(value as Answers["requeue"]) : item.attempt,
      };
    });
  }
  toString = () => `requeue(${this.index})`;
}

/** The admin cancels the run (with a reason, or none): the run as it is after, or the refusal. */
class Cancel implements StoreCommand {
  readonly reason: string | undefined;
  constructor(reason: string | undefined) {
    this.reason = reason;
  }
  /** Not before the run has done some work: every command after a cancel is refused. */
  check = (model: Readonly<Model>) => model.side.events.length >= 12;
  async run(model: Model, real: Real) {
    const expected = decided(model.run, { type: "cancelRun", reason: this.reason });
    const actual = await settle(() => real.system.store.cancelRun(real.runId, this.reason));
    await compare(model, real, expected, actual, (value, side) => {
      const state = model.run.state;
      if (side === "model" && state !== undefined) return runViewOf(state);
      return value;
    });
  }
  toString = () => `cancel(${JSON.stringify(this.reason)})`;
}

/** The clock moved by `milliseconds`; then both expire their leases. */
class Expire implements StoreCommand {
  readonly milliseconds: number;
  constructor(milliseconds: number) {
    this.milliseconds = milliseconds;
  }
  check = () => true;
  async run(model: Model, real: Real) {
    real.clock.now += this.milliseconds;
    model.run.now = real.clock.now;
    const expected = decided(model.run, { type: "expireLeases" });
    const actual = await settle(() => real.system.store.expireLeases(real.runId));
    await compare(model, real, expected, actual);
  }
  toString = () => `expire(${this.milliseconds})`;
}

class Crash implements StoreCommand {
  check = () => true;
  async run(model: Model, real: Real) {
    await real.system.crash();
    // The run as the new store reads it: the same as the model's.
    const view = await real.system.store.getRun(real.runId);
    model.run.answer({ type: "expireLeases" });
    const state = model.run.state;
    if (state === undefined) throw new Error("the model has no run");
    expect(real.side.ids.normalize(view)).toEqual(model.side.ids.normalize(runViewOf(state)));
  }
  toString = () => "crash";
}

const tag = fc.constantFrom(...TAGS);
/** The acting agent of a heartbeat, completion or failure: often the holder of a lease. */
const actingTag = fc.constantFrom(...TAGS, HOLDER, HOLDER, HOLDER);
const index = fc.nat(7);
const shift = fc.constantFrom(0, 0, 0, -1, 1);
const key = fc.option(fc.constantFrom("k1", "k2"), { freq: 2 });

/** Every command, with its arguments drawn; the work itself (claims, completions) the most often. */
const claim = fc
  .tuple(tag, fc.option(index, { freq: 2 }))
  .map(([chosen, at]) => new Claim(chosen, at ?? undefined));
const complete = fc
  .tuple(
    actingTag,
    index,
    shift,
    fc.record({
      content: fc.constantFrom("one" as const, "two" as const),
      wrongKind: fc.integer({ min: 0, max: 4 }).map((value) => value === 0),
      receipt: fc.constantFrom("none" as const, "current" as const, "stale" as const),
      key: key.map((chosen) => chosen ?? undefined),
    }),
  )
  .map(([chosen, at, by, shape]) => new Complete(chosen, at, by, shape));
const fail = fc
  .tuple(actingTag, index, shift, key)
  .map(([chosen, at, by, k]) => new Fail(chosen, at, by, k ?? undefined));
const commands = [
  tag.map((chosen) => new AddAgent(chosen)),
  claim,
  claim,
  fc.tuple(actingTag, index, shift).map(([chosen, at, by]) => new Heartbeat(chosen, at, by)),
  complete,
  complete,
  fail,
  index.map((at) => new Requeue(at)),
  fc
    .option(fc.constant("the brief changed"), { freq: 2 })
    .map((reason) => new Cancel(reason ?? undefined)),
  fc.constantFrom(LEASE_MS / 2, LEASE_MS, LEASE_MS + 1).map((ms) => new Expire(ms)),
  fc.constant(new Crash()),
];

/**
 * Runs `numRuns` random sequences (of at most `maxCommands`) against a store `open` opens and the
 * machine alone, from a new run each.
 */
export async function checkStoreAgainstModel(
  open: OpenStore,
  { numRuns, maxCommands = 60 }: { numRuns: number; maxCommands?: number },
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        items: fc.integer({ min: 1, max: 2 }),
        maxAttempts: fc.integer({ min: 1, max: 3 }),
      }),
      fc.commands(commands, { maxCommands, size: "max" }),
      async (shape, sequence) => {
        const clock = { now: Date.UTC(2026, 10, 20, 10, 0, 0) };
        const system = await open(() => clock.now);
        try {
          const run = new MemoryRun("run_model", clock.now);
          const input = runInputOf(shape);
          const model: Model = {
            run,
            side: { ids: new Ids(), items: [], events: [] },
            tags: new Set(),
          };
          const runId = newId("run");
          const real: Real = {
            system,
            runId,
            side: { ids: new Ids(), items: [], events: [] },
            clock,
          };
          const expected = decided(run, { type: "createRun", input });
          const actual = await settle(() => system.store.createRun(runId, input));
          await compare(model, real, expected, actual, () => "created");
          // Two agents from the start (the third is added by a command, or never).
          for (const first of TAGS.slice(0, 2)) await new AddAgent(first).run(model, real);
          await fc.asyncModelRun(() => ({ model, real }), sequence);
        } finally {
          await system.close();
        }
      },
    ),
    { numRuns, endOnFailure: true },
  );
}
