import { ArgumentError } from "@task-context/core";
import type * as Contract from "../contract/schemas.ts";
import { emitEvent } from "./run-events.ts";
import { loadRunState } from "./run-state.ts";
import { runView } from "./run-view.ts";
import type { SqlDatabase } from "./sql-database.ts";
import { startStage } from "./stage-progression.ts";

/**
 * Writes a new run and its stages, announces it and offers the items of its first stage; an
 * `INVALID_ARGUMENT` error for an id that exists. The stage graph is checked by the caller.
 */
export function insertRun(
  database: SqlDatabase,
  runId: string,
  input: Contract.CreateRunInput,
  clock: () => number,
): Contract.RunView {
  if (database.all("SELECT 1 FROM runs WHERE id = ?", runId).length > 0) {
    throw new ArgumentError({
      argument: "runId",
      message: `expected the id of a new run, got ${runId}, which exists. Make one with newId("run").`,
    });
  }
  const now = clock();
  database.run(
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
    database.run(
      "INSERT INTO stages (run_id, position, id, definition, status) VALUES (?, ?, ?, ?, 'pending')",
      runId,
      position,
      stage.id,
      JSON.stringify(definition),
    );
  });
  const state = loadRunState(database, runId, now);
  emitEvent(database, state, "run.created", {
    goal: input.goal,
    stage_ids: input.stages.map((stage) => stage.id),
  });
  startStage(database, state, 0);
  return runView(database, loadRunState(database, runId, now));
}
