// The read views: runs, work items, artifacts, attempts, dead letters and the run page's overview
// as the contract shows them, with the receipts (context_sha256) of the run contexts.

import type * as Contract from "@task-context/contract";
import { sha256Hex } from "@task-context/core/internal";
import type {
  Artifact,
  ArtifactReference,
  ReviewFeedback,
  WorkItem,
} from "@task-context/protocols";
import { type RunContext, renderRunContext } from "@task-context/protocols/work-item";
import { artifactReferenceOf } from "../delivery/artifact-reference.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { RunOverview, WorkItemOverview } from "../delivery/delivery-store.ts";
import { type ItemRecord, type RunState, stageOf } from "../delivery/machine/run-state.ts";
import { itemStatus, shownAttempt } from "../delivery/rules.ts";
import {
  earlierArtifacts,
  runContextOf,
  runViewOf,
  workItemViewOf,
} from "../delivery/run-views.ts";
import {
  scannedArtifactFindings,
  storedArtifactFindings,
  withFindings,
} from "./artifact-findings.ts";
import { type ArtifactRow, type AttemptRow, iso } from "./schema.ts";
import { all, type SqlSteps } from "./sql-steps.ts";

export { artifactUri } from "../delivery/artifact-reference.ts";

/**
 * An artifact as the contract shows it: title and content exactly as stored, with `findings` and
 * a `warning` when they hold passages that pose as instructions.
 */
export function artifactOf(runId: string, row: ArtifactRow): Artifact {
  return withFindings(
    {
      id: row.id,
      run_id: runId,
      stage_id: row.stage_id,
      work_item_id: row.work_item_id,
      author_tag: row.author_tag,
      ...(row.title === null ? {} : { title: row.title }),
      media_type: row.media_type,
      content: row.content,
      created_at: iso(row.created_at),
    },
    scannedArtifactFindings(runId, row),
  );
}

/** A run's artifact with its content; `ARTIFACT_NOT_FOUND` for an id the run does not have. */
export function* readArtifact(runId: string, artifactId: string): SqlSteps<Artifact> {
  const [row] = yield* all<ArtifactRow>(
    "SELECT * FROM artifacts WHERE run_id = ? AND id = ?",
    runId,
    artifactId,
  );
  if (row === undefined) {
    throw new DeliveryError({
      code: "ARTIFACT_NOT_FOUND",
      message: `The run has no artifact ${artifactId}. Take artifact ids from work items' previous_artifacts or from artifact.created events.`,
    });
  }
  return artifactOf(runId, row);
}

/**
 * A work item as the contract shows it (before its `context_sha256`), with the artifacts of the
 * stages before its own (their findings remembered, or their content read and scanned) and the
 * trace context of its run.
 */
export function* workItemView(state: RunState, item: ItemRecord): SqlSteps<WorkItem> {
  const previous: ArtifactReference[] = [];
  for (const artifact of earlierArtifacts(state, item.stage_position)) {
    const findings = yield* storedArtifactFindings(state.run.id, artifact);
    previous.push(artifactReferenceOf(state.run.id, artifact, findings));
  }
  return workItemViewOf(state, item, previous);
}

/** The receipt of a run context: `(item) => its context_sha256`. */
export type ContextReceipts = (item: RunContext) => Promise<string>;

/**
 * Receipts of run contexts by protocols' `runContextSha256` (`sha256` of `renderRunContext`) — the
 * definition every reader can recompute — remembered by their canonical text for one read, so
 * that the items of a stage, which share one context, are hashed once.
 */
export function contextReceipts(): ContextReceipts {
  const known = new Map<string, Promise<string>>();
  return (item) => {
    const text = renderRunContext(item);
    let receipt = known.get(text);
    if (receipt === undefined) {
      receipt = sha256Hex(text);
      known.set(text, receipt);
    }
    return receipt;
  };
}

/**
 * A work item with its receipt: `context_sha256`, the hash of the run context (goal, constraints,
 * stage context) it was built from.
 */
export async function withContextSha256(
  item: WorkItem,
  receipts: ContextReceipts = contextReceipts(),
): Promise<WorkItem> {
  return { ...item, context_sha256: await receipts(item) };
}

/** A work item's attempts, first to last, as the contract shows them. */
export function* readAttempts(
  runId: string,
  workItemId: string,
): SqlSteps<Contract.AttemptRecord[]> {
  return (yield* all<AttemptRow>(
    "SELECT attempt, agent_tag, leased_at, ended_at, outcome, reason FROM attempts WHERE run_id = ? AND work_item_id = ? ORDER BY attempt",
    runId,
    workItemId,
  )).map(attemptRecord);
}

/** An attempt as the contract shows it. */
export function attemptRecord(row: AttemptRow): Contract.AttemptRecord {
  return {
    attempt: row.attempt,
    agent_tag: row.agent_tag,
    leased_at: iso(row.leased_at),
    ...(row.ended_at === null ? {} : { ended_at: iso(row.ended_at) }),
    outcome: row.outcome,
    ...(row.reason === null ? {} : { reason: row.reason }),
  };
}

/** The run's dead-lettered items with their attempts, oldest first (before `context_sha256`). */
export function* listDeadLetters(state: RunState): SqlSteps<Contract.DeadLetter[]> {
  const items = [...state.deadLettered]
    .map((id) => state.items.get(id) as ItemRecord)
    .sort(
      (left, right) =>
        (left.dead_lettered_at ?? 0) - (right.dead_lettered_at ?? 0) ||
        left.offered_seq - right.offered_seq,
    );
  const letters: Contract.DeadLetter[] = [];
  for (const item of items) {
    letters.push({
      work_item: yield* workItemView(state, item),
      dead_lettered_at: iso(item.dead_lettered_at ?? 0),
      attempts: yield* readAttempts(state.run.id, item.id),
    });
  }
  return letters;
}

/** What the run page shows, as one transaction reads it: the rows before any hashing. */
export interface OverviewRows {
  /** The run with its stages' counts. */
  run: Contract.RunView;
  /** Every work item: its row, stage, attempt and run context, by stage then offer order. */
  items: Array<{ row: ItemRecord; stageId: string; attempt: number; context: RunContext }>;
  /** Each work item's attempts, first to last, by work item id. */
  attempts: Map<string, Contract.AttemptRecord[]>;
  /** Every artifact, by stage then creation order. */
  artifacts: Artifact[];
  /** Every review's feedback, oldest first. */
  reviews: ReviewFeedback[];
}

/** Reads the run, its work items, attempts, artifacts and reviews at one instant. */
export function* readOverviewRows(state: RunState): SqlSteps<OverviewRows> {
  const runId = state.run.id;
  const attempts = new Map<string, Contract.AttemptRecord[]>();
  for (const row of yield* all<AttemptRow & { work_item_id: string }>(
    "SELECT work_item_id, attempt, agent_tag, leased_at, ended_at, outcome, reason FROM attempts WHERE run_id = ? ORDER BY work_item_id, attempt",
    runId,
  )) {
    const list = attempts.get(row.work_item_id) ?? [];
    list.push(attemptRecord(row));
    attempts.set(row.work_item_id, list);
  }
  const items = [...state.items.values()]
    .sort(
      (left, right) =>
        left.stage_position - right.stage_position ||
        left.offered_seq - right.offered_seq ||
        (left.id < right.id ? -1 : left.id > right.id ? 1 : 0),
    )
    .map((row) => ({
      row,
      stageId: stageOf(state, row).id,
      attempt: shownAttempt(row),
      context: runContextOf(state, row),
    }));
  const artifacts = (yield* all<ArtifactRow>(
    "SELECT * FROM artifacts WHERE run_id = ? ORDER BY stage_position, seq",
    runId,
  )).map((row) => artifactOf(runId, row));
  const reviews = (yield* all<{ feedback: string }>(
    "SELECT feedback FROM reviews WHERE run_id = ? ORDER BY created_at, work_item_id",
    runId,
  )).map((row) => JSON.parse(row.feedback) as ReviewFeedback);
  return { run: runViewOf(state), items, attempts, artifacts, reviews };
}

/** The run page's overview of the rows read, each work item with its `context_sha256`. */
export async function runOverview(read: OverviewRows): Promise<RunOverview> {
  const receipts = contextReceipts();
  const workItems = await Promise.all(
    read.items.map(
      async ({ row, stageId, attempt, context }): Promise<WorkItemOverview> => ({
        id: row.id,
        stage_id: stageId,
        kind: row.kind,
        state: row.status,
        attempt,
        ...(row.holder_tag === null ? {} : { holder_tag: row.holder_tag }),
        ...(row.status === itemStatus.leased && row.lease_expires_at !== null
          ? { lease_expires_at: iso(row.lease_expires_at) }
          : {}),
        context_sha256: await receipts(context),
        ...(row.target_artifact_id === null ? {} : { target_artifact_id: row.target_artifact_id }),
        attempts: read.attempts.get(row.id) ?? [],
      }),
    ),
  );
  return {
    run: read.run,
    work_items: workItems,
    artifacts: read.artifacts,
    reviews: read.reviews,
  };
}
