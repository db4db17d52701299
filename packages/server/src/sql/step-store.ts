// The delivery store over SQL: each operation is a command of the state machine
// (../delivery/machine), decided on the run's state in one transaction and written down there, and
// a view of the result; SqlStore runs the steps on a synchronous database (SQLite on Node, a
// Durable Object's storage), PostgresStore on PostgreSQL.

import type * as Contract from "@task-context/contract";
import { ArgumentError } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import { type Artifact, renderRunContext, type WorkItem } from "@task-context/protocols";
import { type PushTasks, pushTasksOver } from "../a2a/push-tasks.ts";
import { ClaimWaiters, type OfferWatch, type RunOffers } from "../delivery/claim-waiters.ts";
import type {
  A2aAgent,
  AgentIdentity,
  ChangedOptions,
  ClaimNextOptions,
  Completed,
  CreateRunOptions,
  DeliveryStore,
  RunOverview,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import { newId } from "../delivery/ids.ts";
import type { CardCheck } from "../delivery/machine/check-card.ts";
import type { Answers, Command, CommandType } from "../delivery/machine/machine.ts";
import { nextLeaseExpiry, type RunState } from "../delivery/machine/run-state.ts";
import { runContextOf, runViewOf } from "../delivery/run-views.ts";
import { readA2aAgents, readAgent } from "./agents.ts";
import type { ReadInput, ReadOutput, ReadRunId } from "./define-read.ts";
import { readRunsWithA2aAgents, runsWithOverdueLeases } from "./due-runs.ts";
import { eventPage, RunWaiters } from "./events.ts";
import { type ReadName, type Reads, reads } from "./reads.ts";
import { RunStateCache } from "./run-state-cache.ts";
import { loadRunState } from "./run-state-rows.ts";
import { RunTransaction } from "./run-transaction.ts";
import { done, type SqlSteps } from "./sql-steps.ts";
import { storedRuns } from "./stored-runs.ts";
import {
  contextReceipts,
  listDeadLetters,
  readArtifact,
  readOverviewRows,
  runOverview,
  withContextSha256,
  workItemView,
} from "./views.ts";

/** How many agents a store remembers (about 200 bytes each). */
const AGENTS_REMEMBERED = 10_000;

/** How many run-context hashes a store remembers (one per stage of a run). */
const RECEIPTS_REMEMBERED = 10_000;

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

/** The run id of a read of one run: an `ArgumentError` when there is none. */
export function requireRunId(name: string, runId: string | undefined): string {
  if (runId === undefined) {
    throw new ArgumentError({
      argument: "runId",
      message: `expected the run id the read ${name} reads, got undefined.`,
    });
  }
  return runId;
}

/** Told of a run that a commit changed, with its state as committed. */
export type RunChanged = (runId: string, state: RunState) => void;

/** The view of a command's answer: read in its transaction, after its writes. */
type View<Type extends CommandType, V> = (answer: Answers[Type], state: RunState) => SqlSteps<V>;

/**
 * The delivery store over SQL: every operation is one transaction (or one savepoint of a group
 * commit), so a completion, its artifact or review feedback, its events and the next stage's
 * offers are written together or not at all. A subclass says how steps run and commit.
 */
export abstract class StepStore implements DeliveryStore {
  /** The time in milliseconds since the epoch. */
  protected readonly clock: () => number;
  /**
   * The claim-next long polls of this process, a line per run: a change wakes one per item on
   * offer (one look at the run, whoever waits).
   */
  readonly #claimers: ClaimWaiters;
  /** The long polls and streams of this process, woken after a commit that appended events. */
  protected readonly waiters: RunWaiters;
  /** The runs' states kept between transactions (each checked by its version before use). */
  protected readonly states = new RunStateCache();
  readonly #agents = new Map<string, StoredAgent>();
  #onRunChanged: RunChanged | undefined;
  /** The receipt (run-context hash) of each stage of the runs completed lately. */
  readonly #receipts = new Map<string, string>();

  constructor(clock: () => number) {
    this.clock = clock;
    this.#claimers = new ClaimWaiters({
      look: (runId) => this.look(runId, (state) => done(runOffers(state))),
      clock,
    });
    this.waiters = new RunWaiters((runId) => this.#claimers.changed(runId));
  }

  /**
   * Tells every waiter of this process to look again: changes may have been made that it did not
   * hear of (another instance's commits while the store was not listening).
   */
  protected missedChanges(): void {
    this.#claimers.changedEverywhere();
    this.waiters.wakeAll();
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

  /** A new transaction over the store's cache of runs' states. */
  protected newTransaction(): RunTransaction {
    return new RunTransaction({ cache: this.states, clock: this.clock, newId });
  }

  /**
   * Once `transaction` has committed: keeps its runs' states and tells {@link onRunChanged}'s
   * listener of each run it changed; the runs it appended events to.
   */
  protected committed(transaction: RunTransaction): string[] {
    const appended = transaction.appended();
    for (const [runId, state] of transaction.committed()) {
      // The change its events tell next is matched to the run's claim-next line on these offers.
      if (appended.includes(runId)) this.#claimers.committed(runId, () => runOffers(state));
      try {
        this.#onRunChanged?.(runId, state);
      } catch {
        // A listener's failure is its own (the background duties report theirs).
      }
    }
    return appended;
  }

  /**
   * Calls `listener` after every commit that changed a run, with the run's state as committed
   * (read-only): the background duties schedule from it (../background/background-duties.ts).
   * One listener; a new one replaces it.
   */
  onRunChanged(listener: RunChanged | undefined): void {
    this.#onRunChanged = listener;
  }

  /** The run's state once its overdue leases are expired (read-only; kept by the store). */
  async runState(runId: string): Promise<RunState> {
    return this.look(runId, done);
  }

  /**
   * Decides `command` on the run in its own transaction (or the next group commit), writes what it
   * changes and answers `view` of the answer; answers once that has committed.
   */
  protected execute<Type extends CommandType, V>(
    runId: string,
    command: Command<Type>,
    view: View<Type, V>,
  ): Promise<V> {
    return this.transact(runId, (transaction) => transaction.execute(runId, command, view));
  }

  /** Expires the run's overdue leases, then answers `view` of its state. */
  protected look<V>(runId: string, view: (state: RunState) => SqlSteps<V>): Promise<V> {
    return this.execute(runId, { type: "expireLeases" }, (_, state) => view(state));
  }

  async createRun(
    runId: string,
    input: Contract.CreateRunInput,
    options: CreateRunOptions = {},
  ): Promise<Contract.RunView> {
    const command = { type: "createRun" as const, input, traceContext: options.traceContext };
    return this.execute(runId, command, (_, state) => done(runViewOf(state)));
  }

  async getRun(runId: string): Promise<Contract.RunView> {
    return this.look(runId, (state) => done(runViewOf(state)));
  }

  async query<Name extends ReadName>(
    name: Name,
    runId: ReadRunId<Reads[Name]>,
    input: ReadInput<Reads[Name]>,
  ): Promise<ReadOutput<Reads[Name]>> {
    const read = reads[name];
    const answer =
      read.scope === "run"
        ? this.look<unknown>(requireRunId(name, runId), (state) =>
            read.steps(state, input as never),
          )
        : this.read(read.steps(input as never, { runs: storedRuns }));
    return answer as Promise<ReadOutput<Reads[Name]>>;
  }

  async addAgent(runId: string, agent: StoredAgent): Promise<void> {
    await this.execute(runId, { type: "addAgent", agent }, () => done(undefined));
  }

  async checkCard(runId: string, check: CardCheck): Promise<void> {
    await this.execute(runId, { type: "checkCard", ...check }, () => done(undefined));
  }

  async a2aAgents(runId: string): Promise<A2aAgent[]> {
    return this.read(readA2aAgents(runId));
  }

  /**
   * The A2A attempts whose tasks push their updates (../a2a/push-tasks.ts), kept beside the runs
   * in the store's database.
   */
  pushTasks(): PushTasks {
    return pushTasksOver((steps) => this.read(steps));
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
    const items = await this.look(runId, function* (state) {
      const views: WorkItem[] = [];
      for (const id of state.queue) {
        if (views.length >= limit) break;
        const item = state.items.get(id);
        if (item === undefined || item.target_author_id === agent.agent_id) continue;
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
    limit?: number,
  ): Promise<Contract.ClaimView | undefined> {
    const claims = await this.execute(
      runId,
      { type: "claim", agent, workItemId, limit },
      function* (claimed, state) {
        if (claimed === undefined) return undefined;
        const views: Contract.ClaimView[] = [];
        for (const { item, lease } of [claimed, ...(claimed.more ?? [])]) {
          views.push({ work_item: yield* workItemView(state, item), lease });
        }
        return views;
      },
    );
    if (claims === undefined) return undefined;
    const receipts = contextReceipts();
    const views = await Promise.all(
      claims.map(async (claim) => ({
        ...claim,
        work_item: await withContextSha256(claim.work_item, receipts),
      })),
    );
    const [first] = views as [Contract.ClaimView];
    return limit === undefined ? first : { ...first, claims: views };
  }

  async claimNext(
    runId: string,
    agent: AgentIdentity,
    options: ClaimNextOptions,
  ): Promise<Contract.ClaimView | undefined> {
    // In the line before claiming: a change while it claims is not missed.
    const ticket = this.#claimers.enter(runId, agent);
    const end = performance.now() + options.timeoutMs;
    let claim: Contract.ClaimView | undefined;
    try {
      // A quiet run on which nothing is on offer: no claim to try.
      let skip = ticket.nothingOnOffer(options.recheckMs);
      for (;;) {
        if (!skip) {
          claim = await this.claim(runId, agent, undefined, options.limit);
          if (claim !== undefined) return claim;
          // The run's state as the claim left it: kept by the store after every commit.
          const state = this.states.get(runId);
          ticket.claimedNothing(state === undefined ? undefined : runOffers(state));
        }
        skip = false;
        if (!(await ticket.idle(end - performance.now(), options.signal))) return undefined;
      }
    } finally {
      ticket.leave(claim !== undefined);
    }
  }

  /**
   * Watches the run's offers to `agent` in its claim-next line (`poll` with `wait`, see
   * ../http/wait.ts): a change committed here wakes the poll only when it offers the agent
   * something.
   */
  watchOffers(runId: string, agent: AgentIdentity): OfferWatch {
    return this.#claimers.watch(runId, agent);
  }

  async heartbeat(
    runId: string,
    agent: AgentIdentity,
    workItemId: string,
    attempt: number,
  ): Promise<Contract.HeartbeatView> {
    return this.execute(runId, { type: "heartbeat", agent, workItemId, attempt }, done);
  }

  async complete(
    ...[runId, agent, workItemId, body, idempotency]: Parameters<DeliveryStore["complete"]>
  ): Promise<Completed> {
    // The item's run context as it is now, hashed before the transaction (hashing is
    // asynchronous on Workers); only a completion that quotes a hash needs it.
    const current =
      body.context_sha256 === undefined
        ? undefined
        : await this.#currentContextSha256(runId, workItemId);
    const command = { type: "complete" as const, agent, workItemId, body, idempotency, current };
    return this.execute(runId, command, done);
  }

  async fail(
    ...[runId, agent, workItemId, body, idempotency]: Parameters<DeliveryStore["fail"]>
  ): Promise<Contract.FailureView> {
    const command = { type: "fail" as const, agent, workItemId, body, idempotency };
    return this.execute(runId, command, done);
  }

  async deadLetters(runId: string): Promise<Contract.DeadLetter[]> {
    const letters = await this.look(runId, listDeadLetters);
    const receipts = contextReceipts();
    return Promise.all(
      letters.map(async (letter) => ({
        ...letter,
        work_item: await withContextSha256(letter.work_item, receipts),
      })),
    );
  }

  async requeue(runId: string, workItemId: string): Promise<WorkItem> {
    const requeued = await this.execute(runId, { type: "requeue", workItemId }, (item, state) =>
      workItemView(state, item),
    );
    return withContextSha256(requeued);
  }

  async cancelRun(runId: string, reason: string | undefined): Promise<Contract.RunView> {
    return this.execute(runId, { type: "cancelRun", reason }, (_answer, state) =>
      done(runViewOf(state)),
    );
  }

  async artifact(runId: string, artifactId: string): Promise<Artifact> {
    return this.look(runId, () => readArtifact(runId, artifactId));
  }

  async overview(runId: string): Promise<RunOverview> {
    return runOverview(await this.look(runId, readOverviewRows));
  }

  async events(runId: string, after: number, limit: number): Promise<Contract.EventPage> {
    return this.look(runId, () => eventPage(runId, after, limit));
  }

  async lastSeq(runId: string): Promise<number> {
    return this.look(runId, (state) => done(state.run.last_seq));
  }

  abstract changed(runId: string, after: number, options: ChangedOptions): Promise<boolean>;

  async expireLeases(runId: string): Promise<void> {
    await this.look(runId, () => done(undefined));
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
    this.#claimers.close();
  }

  /**
   * The run-context hash of a work item; undefined for an item the run does not have (the
   * completion then fails with WORK_ITEM_NOT_FOUND). A run's context never changes: it is taken
   * from the run's state kept in memory, else read outside the completion's transaction, and
   * each stage's hash is remembered.
   */
  async #currentContextSha256(runId: string, workItemId: string): Promise<string | undefined> {
    let state = this.states.get(runId);
    let item = state?.items.get(workItemId);
    if (item === undefined) {
      // Read outside any transaction: kept only when none is, as any is checked before use.
      state = await this.read(loadRunState(runId, undefined));
      item = state?.items.get(workItemId);
      if (state !== undefined && this.states.get(runId) === undefined) {
        this.states.set(runId, state);
      }
    }
    if (state === undefined || item === undefined) return undefined;
    const key = `${runId} ${item.stage_position}`;
    const known = this.#receipts.get(key);
    if (known !== undefined) return known;
    const receipt = await sha256Hex(renderRunContext(runContextOf(state, item)));
    if (this.#receipts.size >= RECEIPTS_REMEMBERED) {
      this.#receipts.delete(this.#receipts.keys().next().value as string);
    }
    this.#receipts.set(key, receipt);
    return receipt;
  }
}

/** What the run offers, in offer order, for the claim-next line's match. */
function runOffers(state: RunState): RunOffers {
  const offered = [];
  for (const id of state.queue) {
    const item = state.items.get(id);
    if (item !== undefined) offered.push(item);
  }
  return { offered, nextLeaseExpiry: nextLeaseExpiry(state) };
}
