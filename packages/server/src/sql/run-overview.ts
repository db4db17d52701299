import type { Artifact, ReviewFeedback } from "@task-context/protocols";
import type { RunContext } from "@task-context/protocols/work-item";
import type * as Contract from "../contract/schemas.ts";
import type { RunOverview, WorkItemOverview } from "../delivery/delivery-store.ts";
import { artifactOf } from "./artifact-view.ts";
import { attemptRecord } from "./attempts.ts";
import { type RunState, stageOf } from "./run-state.ts";
import { runView } from "./run-view.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { type ArtifactRow, type AttemptRow, type ItemRow, iso } from "./sql-rows.ts";
import { contextReceipts, contractAttempt, runContextOf } from "./work-item-view.ts";

/** What the run page shows, as one transaction reads it: the rows before any hashing. */
export interface OverviewRows {
  /** The run with its stages' counts. */
  run: Contract.RunView;
  /** Every work item: its row, stage, attempt and run context, by stage then offer order. */
  items: Array<{ row: ItemRow; stageId: string; attempt: number; context: RunContext }>;
  /** Each work item's attempts, first to last, by work item id. */
  attempts: Map<string, Contract.AttemptRecord[]>;
  /** Every artifact, by stage then creation order. */
  artifacts: Artifact[];
  /** Every review's feedback, oldest first. */
  reviews: ReviewFeedback[];
}

/** Reads the run, its work items, attempts, artifacts and reviews at one instant. */
export function readOverviewRows(database: SqlDatabase, state: RunState): OverviewRows {
  const runId = state.run.id;
  const attempts = new Map<string, Contract.AttemptRecord[]>();
  for (const row of database.all<AttemptRow & { work_item_id: string }>(
    "SELECT work_item_id, attempt, agent_tag, leased_at, ended_at, outcome, reason FROM attempts WHERE run_id = ? ORDER BY work_item_id, attempt",
    runId,
  )) {
    const list = attempts.get(row.work_item_id) ?? [];
    list.push(attemptRecord(row));
    attempts.set(row.work_item_id, list);
  }
  const items = database
    .all<ItemRow>(
      "SELECT * FROM work_items WHERE run_id = ? ORDER BY stage_position, offered_seq, id",
      runId,
    )
    .map((row) => ({
      row,
      stageId: stageOf(state, row).id,
      attempt: contractAttempt(row),
      context: runContextOf(state, row),
    }));
  const artifacts = database
    .all<ArtifactRow>(
      "SELECT * FROM artifacts WHERE run_id = ? ORDER BY stage_position, seq",
      runId,
    )
    .map((row) => artifactOf(runId, row));
  const reviews = database
    .all<{ feedback: string }>(
      "SELECT feedback FROM reviews WHERE run_id = ? ORDER BY created_at, work_item_id",
      runId,
    )
    .map((row) => JSON.parse(row.feedback) as ReviewFeedback);
  return { run: runView(database, state), items, attempts, artifacts, reviews };
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
        ...(row.status === "leased" && row.lease_expires_at !== null
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
