// The delivery store's operations, written once over SQL steps: SqlStore runs them on a
// synchronous database (SQLite on Node, a Durable Object's storage), PostgresStore on PostgreSQL.
import { ArgumentError } from "@task-context/core";
import { type Artifact, runContextSha256, type WorkItem } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import type {
  A2aAgent,
  AgentIdentity,
  ChangedOptions,
  CreateRunOptions,
  DeliveryStore,
  IdempotencyKey,
  RunOverview,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import { checkStageGraph } from "../delivery/stage-graph.ts";
import { emitEvent, eventPage, RunWaiters } from "./events.ts";
import { RunTransaction } from "./run-transaction.ts";
import {
  insertAgent,
  insertRun,
  loadRunState,
  type RunState,
  readA2aAgents,
  readAgent,
  readRunsWithA2aAgents,
  type StageDefinitions,
} from "./runs.ts";
import { done, type SqlSteps } from "./sql-steps.ts";
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
  failItem,
  findItem,
  itemsOnOffer,
  renewLease,
  requeueDeadLetter,
  requireSettlingItem,
  runIdempotent,
  runsWithOverdueLeases,
  type SettlingItem,
  startStage,
} from "./work-items.ts";

/** How many agents a store remembers (about 200 bytes each). */
const AGENTS_REMEMBERED = 10_000;

/** Checks that each named option is a function when given. */
export function requireFunctions(options: Record<string, unknown>): void {
  for (const [argument, value] of Object.entries(options)) {
    if (value !== undefined && typeof value !== "function") {
      throw new ArgumentError({
        argument,
        message: `expected a function, got ${value === null ? "null" : typeof value}.`,
      });
    }
  }
}

/**
 * The delivery store over SQL: every operation is one transaction (or one savepoint of a group
 * commit), so a completion, its artifact or review feedback, its events and the next stage's
 * offers are written together or not at all. A subclass says how steps run and commit.
 */
export abstract class StepStore implements DeliveryStore {
  /** The time in milliseconds since the epoch. */
  protected readonly clock: () => number;
  /** The long polls and streams of this process, woken after a commit that appended events. */
  protected readonly waiters = new RunWaiters();
  /** The stage definitions of the runs read (they never change). */
  protected readonly stages: StageDefinitions = new Map();
  readonly #agents = new Map<string, StoredAgent>();

  constructor(clock: () => number) {
    this.clock = clock;
  }

  /**
   * Runs `body`, an operation on the run `runId`, in one transaction (or one savepoint of a group
   * commit) and answers once it has committed, after waking the waiters of the runs it appended
   * events to.
   */
  protected abstract transact<T>(
    runId: string,
    body: (transaction: RunTransaction) => SqlSteps<T>,
  ): Promise<T>;

  /** Runs steps that only read, outside any transaction. */
  protected abstract read<T>(steps: SqlSteps<T>): Promise<T>;

  /** A transaction's view of the runs it works on. */
  protected newTransaction(): RunTransaction {
    return new RunTransaction(this.clock, this.stages);
  }

  /**
   * Runs `operation` on the run's current state, after expiring its overdue leases, in its own
   * transaction or the next group commit; answers once that has committed.
   */
  protected write<T>(runId: string, operation: (state: RunState) => SqlSteps<T>): Promise<T> {
    return this.transact(runId, (transaction) => transaction.apply(runId, operation));
  }

  async createRun(
    runId: string,
    input: Contract.CreateRunInput,
    options: CreateRunOptions = {},
  ): Promise<Contract.RunView> {
    checkStageGraph(input.stages);
    const now = this.clock();
    return this.transact(runId, function* (transaction) {
      yield* insertRun(runId, input, now, options.traceContext);
      return yield* transaction.apply(runId, function* (state) {
        yield* emitEvent(state, "run.created", {
          goal: input.goal,
          stage_ids: input.stages.map((stage) => stage.id),
        });
        yield* startStage(state, 0);
        return yield* runView(state);
      });
    });
  }

  async getRun(runId: string): Promise<Contract.RunView> {
    return this.write(runId, runView);
  }

  async addAgent(runId: string, agent: StoredAgent): Promise<void> {
    await this.write(runId, (state) => insertAgent(state, agent));
  }

  async a2aAgents(runId: string): Promise<A2aAgent[]> {
    return this.read(readA2aAgents(runId));
  }

  /** The runs not yet completed that have A2A agents: where a starting instance dispatches. */
  async runsWithA2aAgents(): Promise<string[]> {
    return this.read(readRunsWithA2aAgents());
  }

  async findAgent(runId: string, agentId: string): Promise<StoredAgent | undefined> {
    // Every agent request looks its agent up; an agent never changes once added, so the agents
    // found are remembered (the most recent AGENTS_REMEMBERED), never the ids that are not.
    const key = `${runId} ${agentId}`;
    const known = this.#agents.get(key);
    if (known !== undefined) return known;
    const agent = await this.read(readAgent(runId, agentId));
    if (agent === undefined) return undefined;
    if (this.#agents.size >= AGENTS_REMEMBERED) {
      this.#agents.delete(this.#agents.keys().next().value as string);
    }
    this.#agents.set(key, agent);
    return agent;
  }

  async offers(runId: string, agent: AgentIdentity, limit: number): Promise<WorkItem[]> {
    const items = await this.write(runId, function* (state) {
      const views: WorkItem[] = [];
      for (const item of yield* itemsOnOffer(state, agent, limit)) {
        views.push(yield* workItemView(state, item));
      }
      return views;
    });
    const receipts = contextReceipts();
    return Promise.all(items.map((item) => withContextSha256(item, receipts)));
  }

  async claim(
    runId: string,
    agent: AgentIdentity,
    workItemId: string | undefined,
  ): Promise<Contract.ClaimView | undefined> {
    const claim = await this.write(runId, (state) => claimItem(state, agent, workItemId));
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
    return this.write(runId, (state) => renewLease(state, agent, workItemId, attempt));
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
      completeItem(state, item, agent, body, current),
    );
  }

  async fail(
    ...[runId, agent, workItemId, body, idempotency]: Parameters<DeliveryStore["fail"]>
  ): Promise<Contract.FailureView> {
    return this.#settle(runId, agent, workItemId, idempotency, (state, item) =>
      failItem(state, item, agent, body),
    );
  }

  async deadLetters(runId: string): Promise<Contract.DeadLetter[]> {
    const letters = await this.write(runId, listDeadLetters);
    const receipts = contextReceipts();
    return Promise.all(
      letters.map(async (letter) => ({
        ...letter,
        work_item: await withContextSha256(letter.work_item, receipts),
      })),
    );
  }

  async requeue(runId: string, workItemId: string): Promise<WorkItem> {
    const requeued = await this.write(runId, (state) => requeueDeadLetter(state, workItemId));
    return withContextSha256(requeued);
  }

  async artifact(runId: string, artifactId: string): Promise<Artifact> {
    return this.write(runId, () => readArtifact(runId, artifactId));
  }

  async overview(runId: string): Promise<RunOverview> {
    return runOverview(await this.write(runId, readOverviewRows));
  }

  async events(runId: string, after: number, limit: number): Promise<Contract.EventPage> {
    return this.write(runId, () => eventPage(runId, after, limit));
  }

  async lastSeq(runId: string): Promise<number> {
    return this.write(runId, (state) => done(state.run.last_seq));
  }

  abstract changed(runId: string, after: number, options: ChangedOptions): Promise<boolean>;

  async expireLeases(runId: string): Promise<void> {
    await this.write(runId, () => done(undefined));
  }

  /** Expires the overdue leases of every run (a Node timer calls it). */
  async expireAllLeases(): Promise<void> {
    for (const runId of await this.read(runsWithOverdueLeases(this.clock()))) {
      await this.expireLeases(runId);
    }
  }

  /** Ends every wait: long polls and streams answer now. The database stays open. */
  close(): void {
    this.waiters.close();
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
    settle: (state: RunState, item: SettlingItem) => SqlSteps<T>,
  ): Promise<T> {
    return this.write(runId, (state) =>
      runIdempotent(state, agent, idempotency, function* () {
        return yield* settle(state, yield* requireSettlingItem(runId, workItemId));
      }),
    );
  }

  /**
   * The run-context hash of a work item; undefined for an item the run does not have (the
   * completion then fails with WORK_ITEM_NOT_FOUND). A run's context never changes, so this reads
   * the run, its stages and the item outside the completion's transaction and writes nothing.
   */
  async #currentContextSha256(runId: string, workItemId: string): Promise<string | undefined> {
    const clock = this.clock;
    const stages = this.stages;
    const context = await this.read(
      (function* () {
        const row = yield* findItem(runId, workItemId);
        if (row === undefined) return undefined;
        return runContextOf(yield* loadRunState(runId, clock(), stages), row);
      })(),
    );
    return context === undefined ? undefined : runContextSha256(context);
  }
}
