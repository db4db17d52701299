import { ArgumentError } from "@task-context/core";
import { type Artifact, runContextSha256, type WorkItem } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import type {
  AgentIdentity,
  ChangedOptions,
  DeliveryStore,
  IdempotencyKey,
  RunOverview,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import { checkStageGraph } from "../delivery/stage-graph.ts";
import { emitEvent, eventPage, RunWaiters, saveLastSeq } from "./events.ts";
import {
  insertAgent,
  insertRun,
  loadRunState,
  type RunState,
  readAgent,
  type StageDefinitions,
} from "./runs.ts";
import { type ItemRow, migrate } from "./schema.ts";
import type { SqlDatabase } from "./sql-database.ts";
import {
  contextReceipts,
  listDeadLetters,
  readArtifact,
  readOverviewRows,
  runContextOf,
  runOverview,
  runView,
  withContextSha256,
  workItemView,
} from "./views.ts";
import {
  claimItem,
  completeItem,
  expireOverdueLeases,
  failItem,
  findItem,
  itemsOnOffer,
  nextLeaseExpiry,
  renewLease,
  requeueDeadLetter,
  requireItem,
  runIdempotent,
  runsWithOverdueLeases,
  startStage,
} from "./work-items.ts";

/** Options of {@link SqlStore}. */
export interface SqlStoreOptions {
  /** The time in milliseconds since the epoch; tests move it instead of sleeping. */
  clock?: () => number;
  /**
   * Group commit: the operations that arrive before `schedule` calls back share one transaction
   * (each in its own savepoint, so one that fails undoes only its own writes), and each is
   * answered after that commit. On Node, `setImmediate`: the requests read in one turn of the
   * event loop commit together, which shares the commit's cost (its flush to disk, with
   * `durability: "machine"`) and writes each page they touch once. Without it, every operation
   * commits on its own (a Durable Object, whose storage coalesces writes itself).
   */
  schedule?: (flush: () => void) => void;
}

/** How many agents a store remembers (about 200 bytes each). */
const AGENTS_REMEMBERED = 10_000;

/** A copy of a run's state that the operations on the original do not change. */
function copyRunState(state: RunState): RunState {
  return {
    run: { ...state.run },
    stages: state.stages.map((stage) => ({ ...stage })),
    now: state.now,
  };
}

/** An operation waiting for the next group commit. */
interface Pending {
  apply: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The delivery store over a synchronous SQL database: every operation is one transaction (or one
 * savepoint of a group commit), so a completion, its artifact or review feedback, its events and
 * the next stage's offers are written together or not at all. One store holds any number of runs
 * (Node), or the one run of a Durable Object (Workers).
 */
export class SqlStore implements DeliveryStore {
  readonly #database: SqlDatabase;
  readonly #clock: () => number;
  readonly #waiters = new RunWaiters();
  readonly #schedule: ((flush: () => void) => void) | undefined;
  readonly #stages: StageDefinitions = new Map();
  readonly #agents = new Map<string, StoredAgent>();
  #pending: Pending[] = [];
  /** The runs the transaction in progress has loaded, with the `last_seq` they had then. */
  readonly #loaded = new Map<string, { state: RunState; committedSeq: number }>();

  constructor(database: SqlDatabase, { clock = Date.now, schedule }: SqlStoreOptions = {}) {
    for (const [argument, value] of [
      ["options.clock", clock],
      ["options.schedule", schedule],
    ] as const) {
      if (value !== undefined && typeof value !== "function") {
        throw new ArgumentError({
          argument,
          message: `expected a function, got ${value === null ? "null" : typeof value}.`,
        });
      }
    }
    this.#database = database;
    this.#clock = clock;
    this.#schedule = schedule;
    migrate(database);
  }

  async createRun(runId: string, input: Contract.CreateRunInput): Promise<Contract.RunView> {
    checkStageGraph(input.stages);
    return this.#commit(() => {
      insertRun(this.#database, runId, input, this.#clock());
      return this.#apply(runId, (state) => {
        emitEvent(this.#database, state, "run.created", {
          goal: input.goal,
          stage_ids: input.stages.map((stage) => stage.id),
        });
        startStage(this.#database, state, 0);
        return runView(this.#database, state);
      });
    });
  }

  async getRun(runId: string): Promise<Contract.RunView> {
    return this.#write(runId, (state) => runView(this.#database, state));
  }

  async addAgent(runId: string, agent: StoredAgent): Promise<void> {
    await this.#write(runId, (state) => insertAgent(this.#database, state, agent));
  }

  async findAgent(runId: string, agentId: string): Promise<StoredAgent | undefined> {
    // Every agent request looks its agent up; an agent never changes once added, so the agents
    // found are remembered (the most recent AGENTS_REMEMBERED), never the ids that are not.
    const key = `${runId} ${agentId}`;
    const known = this.#agents.get(key);
    if (known !== undefined) return known;
    const agent = readAgent(this.#database, runId, agentId);
    if (agent === undefined) return undefined;
    if (this.#agents.size >= AGENTS_REMEMBERED) {
      this.#agents.delete(this.#agents.keys().next().value as string);
    }
    this.#agents.set(key, agent);
    return agent;
  }

  async offers(runId: string, agent: AgentIdentity, limit: number): Promise<WorkItem[]> {
    const items = await this.#write(runId, (state) =>
      itemsOnOffer(this.#database, state, agent, limit).map((item) =>
        workItemView(this.#database, state, item),
      ),
    );
    const receipts = contextReceipts();
    return Promise.all(items.map((item) => withContextSha256(item, receipts)));
  }

  async claim(
    runId: string,
    agent: AgentIdentity,
    workItemId: string | undefined,
  ): Promise<Contract.ClaimView | undefined> {
    const claim = await this.#write(runId, (state) =>
      claimItem(this.#database, state, agent, workItemId),
    );
    return claim === undefined
      ? undefined
      : { ...claim, work_item: await withContextSha256(claim.work_item) };
  }

  async heartbeat(
    runId: string,
    agent: AgentIdentity,
    workItemId: string,
    attempt: number,
  ): Promise<Contract.HeartbeatView> {
    return this.#write(runId, (state) =>
      renewLease(this.#database, state, agent, workItemId, attempt),
    );
  }

  async complete(
    ...[runId, agent, workItemId, body, idempotency]: Parameters<DeliveryStore["complete"]>
  ): Promise<Contract.CompletionView> {
    // The item's run context as it is now, hashed before the transaction (hashing is
    // asynchronous on Workers); only a completion that quotes a hash needs it.
    const current =
      body.context_sha256 === undefined
        ? undefined
        : await this.#currentContextSha256(runId, workItemId);
    return this.#settle(runId, agent, workItemId, idempotency, (state, item) =>
      completeItem(this.#database, state, item, agent, body, current),
    );
  }

  async fail(
    ...[runId, agent, workItemId, body, idempotency]: Parameters<DeliveryStore["fail"]>
  ): Promise<Contract.FailureView> {
    return this.#settle(runId, agent, workItemId, idempotency, (state, item) =>
      failItem(this.#database, state, item, agent, body),
    );
  }

  async deadLetters(runId: string): Promise<Contract.DeadLetter[]> {
    const letters = await this.#write(runId, (state) => listDeadLetters(this.#database, state));
    const receipts = contextReceipts();
    return Promise.all(
      letters.map(async (letter) => ({
        ...letter,
        work_item: await withContextSha256(letter.work_item, receipts),
      })),
    );
  }

  async requeue(runId: string, workItemId: string): Promise<WorkItem> {
    const requeued = await this.#write(runId, (state) =>
      requeueDeadLetter(this.#database, state, workItemId),
    );
    return withContextSha256(requeued);
  }

  async artifact(runId: string, artifactId: string): Promise<Artifact> {
    return this.#write(runId, () => readArtifact(this.#database, runId, artifactId));
  }

  async overview(runId: string): Promise<RunOverview> {
    return runOverview(
      await this.#write(runId, (state) => readOverviewRows(this.#database, state)),
    );
  }

  async events(runId: string, after: number, limit: number): Promise<Contract.EventPage> {
    return this.#write(runId, () => eventPage(this.#database, runId, after, limit));
  }

  async lastSeq(runId: string): Promise<number> {
    return this.#write(runId, (state) => state.run.last_seq);
  }

  async changed(runId: string, after: number, options: ChangedOptions): Promise<boolean> {
    // Looked at and waited for in one step, not in a group commit: a write in between would
    // wake no one.
    const lastSeq = this.#transaction(() => this.#apply(runId, (state) => state.run.last_seq));
    if (lastSeq > after) return true;
    return this.#waiters.wait(runId, options);
  }

  async expireLeases(runId: string): Promise<void> {
    await this.#write(runId, () => undefined);
  }

  /** Expires the overdue leases of every run (a Node timer calls it). */
  async expireAllLeases(): Promise<void> {
    for (const runId of runsWithOverdueLeases(this.#database, this.#clock())) {
      await this.#write(runId, () => undefined);
    }
  }

  /** The earliest lease expiry of a run, in milliseconds, or undefined (a Durable Object's alarm). */
  nextExpiry(runId: string): number | undefined {
    return nextLeaseExpiry(this.#database, runId);
  }

  /** Ends every wait: long polls and streams answer now. The database stays open. */
  close(): void {
    this.#waiters.close();
  }

  // -------------------------------------------------------------------------------------------
  // One transaction per operation, or one savepoint of a group commit

  /**
   * Runs `operation` on the run's current state, after expiring its overdue leases, in its own
   * transaction or the next group commit; answers once that has committed.
   */
  #write<T>(runId: string, operation: (state: RunState) => T): Promise<T> {
    return this.#commit(() => this.#apply(runId, operation));
  }

  /**
   * Runs `operation` on the run's state in the transaction in progress: loaded, and its overdue
   * leases expired, by the transaction's first operation on the run; shared by the others, which
   * see its writes. When `operation` throws, the state is as it was before it (its savepoint
   * undoes its writes).
   */
  #apply<T>(runId: string, operation: (state: RunState) => T): T {
    const loaded = this.#loaded.get(runId);
    const before = loaded === undefined ? undefined : copyRunState(loaded.state);
    try {
      let state = loaded?.state;
      if (state === undefined) {
        state = loadRunState(this.#database, runId, this.#clock(), this.#stages);
        this.#loaded.set(runId, { state, committedSeq: state.run.last_seq });
        expireOverdueLeases(this.#database, state);
      }
      return operation(state);
    } catch (error) {
      if (loaded === undefined) this.#loaded.delete(runId);
      else loaded.state = before as RunState;
      throw error;
    }
  }

  /**
   * Runs `fn` in a transaction: before it commits, writes each loaded run's `last_seq` once; once
   * it has committed, wakes the waiters of the runs it appended events to.
   */
  #transaction<T>(fn: () => T): T {
    const appended: string[] = [];
    try {
      const result = this.#database.transaction(() => {
        const value = fn();
        for (const [runId, { state, committedSeq }] of this.#loaded) {
          saveLastSeq(this.#database, state, committedSeq);
          if (state.run.last_seq > committedSeq) appended.push(runId);
        }
        return value;
      });
      for (const runId of appended) this.#waiters.wake(runId);
      return result;
    } finally {
      this.#loaded.clear();
    }
  }

  /** Commits `apply` in its own transaction, or queues it for the next group commit. */
  #commit<T>(apply: () => T): Promise<T> {
    if (this.#schedule === undefined) {
      try {
        return Promise.resolve(this.#transaction(apply));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.length === 0) this.#schedule?.(() => this.#flush());
      this.#pending.push({ apply, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** One group commit: every pending operation in its own savepoint of one transaction. */
  #flush(): void {
    const pending = this.#pending;
    this.#pending = [];
    const outcomes: Array<{ value: unknown } | { error: unknown }> = [];
    try {
      this.#transaction(() => {
        for (const operation of pending) {
          try {
            outcomes.push({ value: this.#database.transaction(operation.apply) });
          } catch (error) {
            outcomes.push({ error });
          }
        }
      });
    } catch (error) {
      // The commit itself failed: nothing of the group is written.
      for (const operation of pending) operation.reject(error);
      return;
    }
    pending.forEach((operation, index) => {
      const outcome = outcomes[index] as { value: unknown } | { error: unknown };
      if ("error" in outcome) operation.reject(outcome.error);
      else operation.resolve(outcome.value);
    });
  }

  /**
   * Runs a completion or failure of an item in one transaction, once per idempotency key: the
   * same key and request answer the stored answer; the same key with another request is refused.
   */
  #settle<T>(
    runId: string,
    agent: AgentIdentity,
    workItemId: string,
    idempotency: IdempotencyKey | undefined,
    settle: (state: RunState, item: ItemRow) => T,
  ): Promise<T> {
    return this.#write(runId, (state) =>
      runIdempotent(this.#database, state, agent, idempotency, () =>
        settle(state, requireItem(this.#database, runId, workItemId)),
      ),
    );
  }

  /**
   * The run-context hash of a work item; undefined for an item the run does not have (the
   * completion then fails with WORK_ITEM_NOT_FOUND). A run's context never changes, so this reads
   * the run, its stages and the item outside the completion's transaction and writes nothing.
   */
  async #currentContextSha256(runId: string, workItemId: string): Promise<string | undefined> {
    const row = findItem(this.#database, runId, workItemId);
    if (row === undefined) return undefined;
    const state = loadRunState(this.#database, runId, this.#clock(), this.#stages);
    return runContextSha256(runContextOf(state, row));
  }
}
