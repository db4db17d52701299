import { ArgumentError, checkReceipt } from "@task-context/core";
import {
  type Artifact,
  type ArtifactReference,
  type ReviewFeedback,
  runContextSha256,
  type ValidationIssue,
  type WorkItem,
} from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type {
  AgentIdentity,
  ChangedOptions,
  DeliveryStore,
  IdempotencyKey,
  RunOverview,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import { newId } from "../delivery/ids.ts";
import { checkStageGraph } from "../delivery/stage-graph.ts";
import { artifactOf, artifactUri } from "./artifact-view.ts";
import { endAttempt } from "./attempts.ts";
import { listDeadLetters, requeueDeadLetter } from "./dead-letters.ts";
import { failItem } from "./failures.ts";
import { expireOverdueLeases, nextLeaseExpiry, runsWithOverdueLeases } from "./lease-expiry.ts";
import { claimItem, renewLease, requireCompletableLease } from "./leases.ts";
import { migrate } from "./migrations.ts";
import { itemsOnOffer, offerItem } from "./offers.ts";
import { emitEvent, eventPage } from "./run-events.ts";
import { readOverviewRows, runOverview } from "./run-overview.ts";
import { findRow, loadRunState, type RunState, requireItem, stageOf } from "./run-state.ts";
import { setRunStatus, updateRunStatus } from "./run-status.ts";
import { runView } from "./run-view.ts";
import { RunWaiters } from "./run-waiters.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ArtifactRow, ItemRow } from "./sql-rows.ts";
import { withContextSha256, workItemView } from "./work-item-view.ts";

export { artifactUri } from "./artifact-view.ts";

/** Options of {@link SqlStore}. */
export interface SqlStoreOptions {
  /** The time in milliseconds since the epoch; tests move it instead of sleeping. */
  clock?: () => number;
}

/** A completion in progress: the item, its stage and the agent completing it. */
interface Completing {
  state: RunState;
  item: ItemRow;
  stage: Contract.StageInput;
  agent: AgentIdentity;
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
    const view = this.#database.transaction(() => {
      if (this.#database.all("SELECT 1 FROM runs WHERE id = ?", runId).length > 0) {
        throw new ArgumentError({
          argument: "runId",
          message: `expected the id of a new run, got ${runId}, which exists. Make one with newId("run").`,
        });
      }
      const now = this.#clock();
      this.#database.run(
        `INSERT INTO runs (id, goal, constraints, lease_ms, max_attempts, status, current_stage, last_seq, created_at)
         VALUES (?, ?, ?, ?, ?, 'active', 0, 0, ?)`,
        runId,
        input.goal,
        JSON.stringify(input.constraints),
        input.lease_ms ?? 60_000,
        input.max_attempts ?? 5,
        now,
      );
      input.stages.forEach((stage, position) => {
        const kind = stage.kind ?? "task";
        const definition =
          kind === "task" ? { ...stage, kind, items: stage.items ?? 1 } : { ...stage, kind };
        this.#database.run(
          "INSERT INTO stages (run_id, position, id, definition, status) VALUES (?, ?, ?, ?, 'pending')",
          runId,
          position,
          stage.id,
          JSON.stringify(definition),
        );
      });
      const state = loadRunState(this.#database, runId, now);
      emitEvent(this.#database, state, "run.created", {
        goal: input.goal,
        stage_ids: input.stages.map((stage) => stage.id),
      });
      this.#startStage(state, 0);
      return runView(this.#database, loadRunState(this.#database, runId, now));
    });
    this.#waiters.wake(runId);
    return view;
  }

  async getRun(runId: string): Promise<Contract.RunView> {
    return this.#write(runId, (state) => runView(this.#database, state));
  }

  async addAgent(runId: string, agent: StoredAgent): Promise<void> {
    this.#write(runId, (state) => {
      const taken = this.#database.all(
        "SELECT 1 FROM agents WHERE run_id = ? AND tag = ?",
        runId,
        agent.tag,
      );
      if (taken.length > 0) {
        throw new DeliveryError({
          code: "AGENT_TAG_TAKEN",
          message: `The run already has an agent tagged "${agent.tag}". Choose another tag.`,
        });
      }
      this.#database.run(
        "INSERT INTO agents (run_id, id, tag, token_hash, created_at) VALUES (?, ?, ?, ?, ?)",
        runId,
        agent.agent_id,
        agent.tag,
        agent.token_hash,
        state.now,
      );
    });
  }

  async findAgent(runId: string, agentId: string): Promise<StoredAgent | undefined> {
    const [agent] = this.#database.all<StoredAgent>(
      "SELECT id AS agent_id, tag, token_hash FROM agents WHERE run_id = ? AND id = ?",
      runId,
      agentId,
    );
    return agent === undefined ? undefined : { ...agent };
  }

  async offers(runId: string, agent: AgentIdentity, limit: number): Promise<WorkItem[]> {
    const items = this.#write(runId, (state) =>
      itemsOnOffer(this.#database, state, agent, limit).map((item) =>
        workItemView(this.#database, state, item),
      ),
    );
    return Promise.all(items.map(withContextSha256));
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
    return this.#settle(runId, agent, workItemId, idempotency, (state, item) => {
      if (item.status === "completed") {
        throw new DeliveryError({
          code: "ALREADY_COMPLETED",
          message: `Work item ${item.id} is already completed; a second completion is refused. Poll the inbox for more work.`,
        });
      }
      requireCompletableLease(this.#database, runId, item, agent, body.attempt);
      const wrongKind = completionKindIssues(item, body);
      if (wrongKind.length > 0) throw invalidCompletion(wrongKind);
      const completion: Completing = { state, item, stage: stageOf(state, item), agent };
      let artifactId: string | undefined;
      if (body.artifact !== undefined) artifactId = this.#storeArtifact(completion, body.artifact);
      if (body.review !== undefined) this.#storeReview(completion, body.review);
      this.#database.run(
        `UPDATE work_items SET status = 'completed', lease_expires_at = NULL, dead_lettered_at = NULL
           WHERE run_id = ? AND id = ?`,
        runId,
        item.id,
      );
      endAttempt(this.#database, state, item.id, item.attempt, "completed");
      const receipt =
        current === undefined
          ? undefined
          : checkReceipt({
              quoted: body.context_sha256,
              current,
              recipient: `agent "${agent.tag}" on work item ${item.id}`,
            });
      if (receipt?.status === "stale") {
        emitEvent(this.#database, state, "context.stale", {
          work_item_id: item.id,
          agent_tag: agent.tag,
          attempt: item.attempt,
          quoted_context_sha256: receipt.quoted ?? "",
          context_sha256: current ?? "",
        });
      }
      const event = emitEvent(this.#database, state, "work_item.completed", {
        work_item_id: item.id,
        agent_tag: agent.tag,
        attempt: item.attempt,
      });
      if (item.status === "dead_lettered") updateRunStatus(this.#database, state, item.id);
      this.#advance(state, item.stage_position);
      return {
        work_item_id: item.id,
        status: "completed" as const,
        ...(artifactId === undefined ? {} : { artifact_id: artifactId }),
        event_id: event.id,
        ...(receipt?.warning === undefined ? {} : { warning: receipt.warning }),
      };
    });
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
    return Promise.all(
      letters.map(async (letter) => ({
        ...letter,
        work_item: await withContextSha256(letter.work_item),
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
    return this.#write(runId, () => {
      const row = findRow<ArtifactRow>(this.#database, "artifacts", runId, artifactId);
      if (row === undefined) {
        throw new DeliveryError({
          code: "ARTIFACT_NOT_FOUND",
          message: `The run has no artifact ${artifactId}. Take artifact ids from work items' previous_artifacts or from artifact.created events.`,
        });
      }
      return artifactOf(runId, row);
    });
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
    if ((await this.lastSeq(runId)) > after) return true;
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

  // -------------------------------------------------------------------------------------------
  // Items and leases

  // -------------------------------------------------------------------------------------------
  // Stages

  /** Activates a stage: creates its items and offers them. */
  #startStage(state: RunState, position: number): void {
    const entry = state.stages[position];
    if (entry === undefined) return;
    const { stage } = entry;
    this.#database.run(
      "UPDATE stages SET status = 'active' WHERE run_id = ? AND position = ?",
      state.run.id,
      position,
    );
    this.#database.run("UPDATE runs SET current_stage = ? WHERE id = ?", position, state.run.id);
    entry.status = "active";
    state.run.current_stage = position;
    const targets: Array<ArtifactRow | undefined> =
      stage.kind === "review"
        ? this.#database.all<ArtifactRow>(
            "SELECT * FROM artifacts WHERE run_id = ? AND stage_id = ? ORDER BY seq",
            state.run.id,
            stage.reviews ?? "",
          )
        : Array.from({ length: stage.items ?? 1 }, () => undefined);
    for (const target of targets) {
      const item = {
        id: newId("wi"),
        kind: target === undefined ? ("task" as const) : ("review" as const),
        attempt: 0,
        stage_position: position,
      };
      this.#database.run(
        `INSERT INTO work_items (run_id, id, stage_position, kind, status, attempt, failures, offered_seq,
           target_artifact_id, target_author_id, target_author_tag)
         VALUES (?, ?, ?, ?, 'offered', 0, 0, 0, ?, ?, ?)`,
        state.run.id,
        item.id,
        position,
        item.kind,
        target?.id ?? null,
        target?.author_id ?? null,
        target?.author_tag ?? null,
      );
      offerItem(this.#database, state, item);
    }
  }

  /** After a completion: when the stage has nothing left to do, the next one starts. */
  #advance(state: RunState, position: number): void {
    // Whether one item is still open, by index (run, status): counting them read every item of
    // the run on every completion.
    const open = this.#database.all(
      `SELECT 1 FROM work_items WHERE run_id = ? AND status IN ('offered', 'leased', 'dead_lettered')
         AND stage_position = ? LIMIT 1`,
      state.run.id,
      position,
    );
    if (open.length > 0) return;
    const entry = state.stages[position];
    if (entry === undefined || entry.status === "completed") return;
    this.#database.run(
      "UPDATE stages SET status = 'completed' WHERE run_id = ? AND position = ?",
      state.run.id,
      position,
    );
    entry.status = "completed";
    emitEvent(this.#database, state, "stage.completed", { stage_id: entry.id });
    if (position + 1 < state.stages.length) {
      this.#startStage(state, position + 1);
      return;
    }
    setRunStatus(this.#database, state, "completed");
    emitEvent(this.#database, state, "run.completed", {});
  }

  // -------------------------------------------------------------------------------------------
  // Completions

  #storeArtifact(
    { state, item, stage, agent }: Completing,
    artifact: NonNullable<Contract.CompleteBody["artifact"]>,
  ): string {
    const id = newId("art");
    const reference: ArtifactReference = {
      artifact_id: id,
      stage_id: stage.id,
      author_tag: agent.tag,
      ...(artifact.title === undefined ? {} : { title: artifact.title }),
      media_type: artifact.media_type,
      uri: artifactUri(state.run.id, id),
    };
    const event = emitEvent(this.#database, state, "artifact.created", {
      work_item_id: item.id,
      artifact: reference,
    });
    this.#database.run(
      `INSERT INTO artifacts (run_id, id, seq, stage_position, stage_id, work_item_id, author_id, author_tag,
         title, media_type, content, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      state.run.id,
      id,
      event.seq,
      item.stage_position,
      stage.id,
      item.id,
      agent.agent_id,
      agent.tag,
      artifact.title ?? null,
      artifact.media_type,
      artifact.content,
      state.now,
    );
    return id;
  }

  #storeReview(
    { state, item, stage, agent }: Completing,
    review: NonNullable<Contract.CompleteBody["review"]>,
  ): void {
    const issues: ValidationIssue[] = [];
    const target = item.target_artifact_id ?? "";
    if (review.target_artifact_id !== undefined && review.target_artifact_id !== target) {
      issues.push({
        path: "/review/target_artifact_id",
        message: `review.target_artifact_id must be ${target}, the artifact this item reviews, not ${review.target_artifact_id}.`,
      });
    }
    const expected = stage.review_criteria ?? [];
    const seen = new Set<string>();
    review.criteria.forEach(({ criterion }, index) => {
      if (!expected.includes(criterion)) {
        issues.push({
          path: `/review/criteria/${index}/criterion`,
          message: `review.criteria[${index}].criterion "${criterion}" is not a criterion of this review. The criteria are: ${expected.join(", ")}.`,
        });
      } else if (seen.has(criterion)) {
        issues.push({
          path: `/review/criteria/${index}/criterion`,
          message: `review.criteria[${index}].criterion "${criterion}" is judged twice. Give one entry per criterion.`,
        });
      }
      seen.add(criterion);
    });
    const missing = expected.filter((criterion) => !seen.has(criterion));
    if (missing.length > 0) {
      issues.push({
        path: "/review/criteria",
        message: `review.criteria has no entry for ${missing.map((name) => `"${name}"`).join(", ")}. Give one entry per criterion of the review context.`,
      });
    }
    if (issues.length > 0) throw invalidCompletion(issues);
    const feedback: ReviewFeedback = {
      work_item_id: item.id,
      target_artifact_id: target,
      reviewer_tag: agent.tag,
      verdict: review.verdict,
      summary: review.summary,
      criteria: review.criteria,
    };
    this.#database.run(
      "INSERT INTO reviews (run_id, work_item_id, target_artifact_id, feedback, created_at) VALUES (?, ?, ?, ?, ?)",
      state.run.id,
      item.id,
      target,
      JSON.stringify(feedback),
      state.now,
    );
    emitEvent(this.#database, state, "review.feedback", { artifact_id: target, feedback });
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
        this.#idempotent(state, agent, idempotency, () =>
          settle(state, requireItem(this.#database, runId, workItemId)),
        ),
      ),
    );
  }

  #idempotent<T>(
    state: RunState,
    agent: AgentIdentity,
    idempotency: IdempotencyKey | undefined,
    operation: () => T,
  ): T {
    if (idempotency === undefined) return operation();
    const [stored] = this.#database.all<{ request_hash: string; response: string }>(
      "SELECT request_hash, response FROM idempotency_keys WHERE run_id = ? AND agent_id = ? AND key = ?",
      state.run.id,
      agent.agent_id,
      idempotency.key,
    );
    if (stored !== undefined) {
      if (stored.request_hash === idempotency.requestHash) return JSON.parse(stored.response) as T;
      throw new DeliveryError({
        code: "IDEMPOTENCY_KEY_REUSED",
        message: `Idempotency-Key "${idempotency.key}" was already used for another request. Use a new key for a new request, or resend the first request unchanged.`,
      });
    }
    const response = operation();
    this.#database.run(
      "INSERT INTO idempotency_keys (run_id, agent_id, key, request_hash, response) VALUES (?, ?, ?, ?, ?)",
      state.run.id,
      agent.agent_id,
      idempotency.key,
      idempotency.requestHash,
      JSON.stringify(response),
    );
    return response;
  }

  // -------------------------------------------------------------------------------------------
  // Views

  /**
   * The run-context hash of a work item as the run stands now; undefined for an item the run
   * does not have (the completion then fails with WORK_ITEM_NOT_FOUND).
   */
  async #currentContextSha256(runId: string, workItemId: string): Promise<string | undefined> {
    const item = this.#write(runId, (state) => {
      const row = findRow<ItemRow>(this.#database, "work_items", runId, workItemId);
      return row === undefined ? undefined : workItemView(this.#database, state, row);
    });
    return item === undefined ? undefined : runContextSha256(item);
  }
}

/** A task item is completed with an artifact, a review item with a review: never both. */
function completionKindIssues(
  item: Pick<ItemRow, "id" | "kind">,
  body: Contract.CompleteBody,
): ValidationIssue[] {
  const [wanted, unwanted] =
    item.kind === "task" ? (["artifact", "review"] as const) : (["review", "artifact"] as const);
  const issues: ValidationIssue[] = [];
  if (body[unwanted] !== undefined) {
    issues.push({
      path: `/${unwanted}`,
      message: `Work item ${item.id} is a ${item.kind} item: complete it with ${wanted === "artifact" ? "an artifact" : "a review"}, not ${unwanted === "artifact" ? "an artifact" : "a review"}.`,
    });
  }
  if (body[wanted] === undefined) {
    issues.push({
      path: `/${wanted}`,
      message:
        wanted === "artifact"
          ? "artifact is required for a task item: { media_type, content, title? }, what the stage asked for."
          : "review is required for a review item: { verdict, summary, criteria: [{ criterion, comment, score? }] }.",
    });
  }
  return issues;
}

function invalidCompletion(issues: ValidationIssue[]): DeliveryError {
  return new DeliveryError({
    code: "INVALID_COMPLETION",
    message: "The completion does not fit the work item. Fix the issues listed.",
    issues,
  });
}
