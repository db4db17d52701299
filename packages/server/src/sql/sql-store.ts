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
import { insertAgent, readAgent } from "./agents.ts";
import { readArtifact } from "./artifacts.ts";
import { completeItem } from "./completion.ts";
import { listDeadLetters, requeueDeadLetter } from "./dead-letters.ts";
import { failItem } from "./failures.ts";
import { runIdempotent } from "./idempotency.ts";
import { expireOverdueLeases, nextLeaseExpiry, runsWithOverdueLeases } from "./lease-expiry.ts";
import { claimItem, renewLease } from "./leases.ts";
import { migrate } from "./migrations.ts";
import { itemsOnOffer } from "./offers.ts";
import { insertRun } from "./run-creation.ts";
import { eventPage } from "./run-events.ts";
import { readOverviewRows, runOverview } from "./run-overview.ts";
import { findRow, loadRunState, type RunState, requireItem } from "./run-state.ts";
import { runView } from "./run-view.ts";
import { RunWaiters } from "./run-waiters.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ItemRow } from "./sql-rows.ts";
import {
  contextReceipts,
  runContextOf,
  withContextSha256,
  workItemView,
} from "./work-item-view.ts";

/** Options of {@link SqlStore}. */
export interface SqlStoreOptions {
  /** The time in milliseconds since the epoch; tests move it instead of sleeping. */
  clock?: () => number;
}

/**
 * The delivery store over a synchronous SQL database: every operation is one transaction, so a
 * completion, its artifact or review feedback, its events and the next stage's offers are
 * written together or not at all. One store holds any number of runs (Node), or the one run of a
 * Durable Object (Workers).
 */
export class SqlStore implements DeliveryStore {
  readonly #database: SqlDatabase;
  readonly #clock: () => number;
  readonly #waiters = new RunWaiters();

  constructor(database: SqlDatabase, { clock = Date.now }: SqlStoreOptions = {}) {
    this.#database = database;
    this.#clock = clock;
    migrate(database);
  }

  async createRun(runId: string, input: Contract.CreateRunInput): Promise<Contract.RunView> {
    checkStageGraph(input.stages);
    const view = this.#database.transaction(() =>
      insertRun(this.#database, runId, input, this.#clock),
    );
    this.#waiters.wake(runId);
    return view;
  }

  async getRun(runId: string): Promise<Contract.RunView> {
    return this.#write(runId, (state) => runView(this.#database, state));
  }

  async addAgent(runId: string, agent: StoredAgent): Promise<void> {
    this.#write(runId, (state) => insertAgent(this.#database, state, agent));
  }

  async findAgent(runId: string, agentId: string): Promise<StoredAgent | undefined> {
    return readAgent(this.#database, runId, agentId);
  }

  async offers(runId: string, agent: AgentIdentity, limit: number): Promise<WorkItem[]> {
    const items = this.#write(runId, (state) =>
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
    const claim = this.#write(runId, (state) =>
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
    const letters = this.#write(runId, (state) => listDeadLetters(this.#database, state));
    const receipts = contextReceipts();
    return Promise.all(
      letters.map(async (letter) => ({
        ...letter,
        work_item: await withContextSha256(letter.work_item, receipts),
      })),
    );
  }

  async requeue(runId: string, workItemId: string): Promise<WorkItem> {
    const requeued = this.#write(runId, (state) =>
      requeueDeadLetter(this.#database, state, workItemId),
    );
    return withContextSha256(requeued);
  }

  async artifact(runId: string, artifactId: string): Promise<Artifact> {
    return this.#write(runId, () => readArtifact(this.#database, runId, artifactId));
  }

  async overview(runId: string): Promise<RunOverview> {
    return runOverview(this.#write(runId, (state) => readOverviewRows(this.#database, state)));
  }

  async events(runId: string, after: number, limit: number): Promise<Contract.EventPage> {
    return this.#write(runId, () => eventPage(this.#database, runId, after, limit));
  }

  async lastSeq(runId: string): Promise<number> {
    return this.#write(runId, (state) => state.run.last_seq);
  }

  async changed(runId: string, after: number, options: ChangedOptions): Promise<boolean> {
    // Looked at and waited for in one step: a write in between would wake no one.
    if (this.#write(runId, (state) => state.run.last_seq) > after) return true;
    return this.#waiters.wait(runId, options);
  }

  async expireLeases(runId: string): Promise<void> {
    this.#write(runId, () => undefined);
  }

  /** Expires the overdue leases of every run (a Node timer calls it). */
  expireAllLeases(): void {
    for (const runId of runsWithOverdueLeases(this.#database, this.#clock())) {
      this.#write(runId, () => undefined);
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
  // One transaction per operation

  /**
   * Runs `operation` in a transaction on the run's current state, after expiring its overdue
   * leases; wakes the run's waiters when events were appended.
   */
  #write<T>(runId: string, operation: (state: RunState) => T): T {
    let before = 0;
    let after = 0;
    const result = this.#database.transaction(() => {
      const state = loadRunState(this.#database, runId, this.#clock());
      before = state.run.last_seq;
      expireOverdueLeases(this.#database, state);
      const value = operation(state);
      after = state.run.last_seq;
      return value;
    });
    if (after > before) this.#waiters.wake(runId);
    return result;
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
    return Promise.resolve(
      this.#write(runId, (state) =>
        runIdempotent(this.#database, state, agent, idempotency, () =>
          settle(state, requireItem(this.#database, runId, workItemId)),
        ),
      ),
    );
  }

  /**
   * The run-context hash of a work item; undefined for an item the run does not have (the
   * completion then fails with WORK_ITEM_NOT_FOUND). A run's context never changes, so this reads
   * the run, its stages and the item outside the completion's transaction and writes nothing.
   */
  async #currentContextSha256(runId: string, workItemId: string): Promise<string | undefined> {
    const row = findRow<ItemRow>(this.#database, "work_items", runId, workItemId);
    if (row === undefined) return undefined;
    return runContextSha256(runContextOf(loadRunState(this.#database, runId, this.#clock()), row));
  }
}
