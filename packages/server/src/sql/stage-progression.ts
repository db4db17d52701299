import { newId } from "../delivery/ids.ts";
import { offerItem } from "./offers.ts";
import { emitEvent } from "./run-events.ts";
import type { RunState } from "./run-state.ts";
import { setRunStatus } from "./run-status.ts";
import type { SqlDatabase } from "./sql-database.ts";
import type { ArtifactRow } from "./sql-rows.ts";

/**
 * Activates a stage: creates its items and offers them. A task stage gets its `items`; a review
 * stage one item for each artifact of the stage it reviews.
 */
export function startStage(database: SqlDatabase, state: RunState, position: number): void {
  const entry = state.stages[position];
  if (entry === undefined) return;
  const { stage } = entry;
  database.run(
    "UPDATE stages SET status = 'active' WHERE run_id = ? AND position = ?",
    state.run.id,
    position,
  );
  database.run("UPDATE runs SET current_stage = ? WHERE id = ?", position, state.run.id);
  entry.status = "active";
  state.run.current_stage = position;
  const targets: Array<ArtifactRow | undefined> =
    stage.kind === "review"
      ? database.all<ArtifactRow>(
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
    database.run(
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
    offerItem(database, state, item);
  }
}

/** After a completion: when the stage has nothing left to do, the next one starts. */
export function advanceStage(database: SqlDatabase, state: RunState, position: number): void {
  // Whether one item is still open, by index (run, status): counting them read every item of
  // the run on every completion.
  const open = database.all(
    `SELECT 1 FROM work_items WHERE run_id = ? AND status IN ('offered', 'leased', 'dead_lettered')
       AND stage_position = ? LIMIT 1`,
    state.run.id,
    position,
  );
  if (open.length > 0) return;
  const entry = state.stages[position];
  if (entry === undefined || entry.status === "completed") return;
  database.run(
    "UPDATE stages SET status = 'completed' WHERE run_id = ? AND position = ?",
    state.run.id,
    position,
  );
  entry.status = "completed";
  emitEvent(database, state, "stage.completed", { stage_id: entry.id });
  if (position + 1 < state.stages.length) {
    startStage(database, state, position + 1);
    return;
  }
  setRunStatus(database, state, "completed");
  emitEvent(database, state, "run.completed", {});
}
