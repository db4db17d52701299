// The machine's writes as SQL: one statement each, none of which reads, so that an asynchronous
// engine sends them all without waiting (or folds the writes of many commands into one statement
// per table: ../postgres/coalesced-writes.ts).
import type { Write } from "../delivery/machine/writes.ts";
import type { SqlValue } from "./sql-database.ts";
import type { SqlSteps, Statement } from "./sql-steps.ts";

/** Writes each of `writes` of the run `runId`: one step, whose statements the engine runs. */
export function* persistWrites(runId: string, writes: readonly Write[]): SqlSteps<void> {
  yield { kind: "writes", runId, writes, statements: () => writeStatements(runId, writes) };
}

/** One statement for each of `writes` of the run `runId`, in order. */
export function writeStatements(runId: string, writes: readonly Write[]): Statement[] {
  const statements: Statement[] = [];
  const run = (sql: string, ...params: SqlValue[]) => {
    statements.push({ kind: "run", sql, params });
  };
  for (const write of writes) writeStatement(runId, write, run);
  return statements;
}

/** Calls `run` with the statement of `write`. */
function writeStatement(
  runId: string,
  write: Write,
  run: (sql: string, ...params: SqlValue[]) => void,
): void {
  switch (write.type) {
    case "insertRun": {
      const { run: row, stages } = write;
      run(
        `INSERT INTO runs (id, goal, constraints, lease_ms, max_attempts, status, current_stage, last_seq,
           created_at, trace_context, version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.id,
        row.goal,
        JSON.stringify(row.constraints),
        row.lease_ms,
        row.max_attempts,
        row.status,
        row.current_stage,
        row.last_seq,
        row.created_at,
        row.trace_context === null ? null : JSON.stringify(row.trace_context),
        row.version,
      );
      for (const stage of stages) {
        // `status` is no longer read (a stage's status follows from the run); the column stays
        // for the databases migration 1 created.
        run(
          "INSERT INTO stages (run_id, position, id, definition, status) VALUES (?, ?, ?, ?, 'pending')",
          runId,
          stage.position,
          stage.id,
          JSON.stringify(stage.stage),
        );
      }
      return;
    }
    case "updateRun":
      run(
        "UPDATE runs SET status = ?, current_stage = ?, last_seq = ?, version = ? WHERE id = ?",
        write.status,
        write.current_stage,
        write.last_seq,
        write.version,
        runId,
      );
      return;
    case "insertAgent":
      run(
        "INSERT INTO agents (run_id, id, tag, token_hash, created_at, a2a_endpoint) VALUES (?, ?, ?, ?, ?, ?)",
        runId,
        write.agent.agent_id,
        write.agent.tag,
        write.agent.token_hash,
        write.created_at,
        write.agent.a2a === undefined ? null : JSON.stringify(write.agent.a2a),
      );
      return;
    case "insertItem": {
      const { item } = write;
      run(
        `INSERT INTO work_items (run_id, id, stage_position, kind, status, attempt, failures, offered_seq,
           holder_id, holder_tag, lease_expires_at, target_artifact_id, target_author_id,
           target_author_tag, dead_lettered_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        runId,
        item.id,
        item.stage_position,
        item.kind,
        item.status,
        item.attempt,
        item.failures,
        item.offered_seq,
        item.holder_id,
        item.holder_tag,
        item.lease_expires_at,
        item.target_artifact_id,
        item.target_author_id,
        item.target_author_tag,
        item.dead_lettered_at,
      );
      return;
    }
    case "updateItem": {
      const { item } = write;
      run(
        `UPDATE work_items SET status = ?, attempt = ?, failures = ?, offered_seq = ?, holder_id = ?,
           holder_tag = ?, lease_expires_at = ?, dead_lettered_at = ?
         WHERE run_id = ? AND id = ?`,
        item.status,
        item.attempt,
        item.failures,
        item.offered_seq,
        item.holder_id,
        item.holder_tag,
        item.lease_expires_at,
        item.dead_lettered_at,
        runId,
        item.id,
      );
      return;
    }
    case "insertAttempt":
      run(
        `INSERT INTO attempts (run_id, work_item_id, attempt, agent_id, agent_tag, leased_at, outcome)
         VALUES (?, ?, ?, ?, ?, ?, 'leased')`,
        runId,
        write.work_item_id,
        write.attempt,
        write.agent_id,
        write.agent_tag,
        write.leased_at,
      );
      return;
    case "endAttempt":
      // An expired lease completed late keeps its expiry as its end.
      run(
        `UPDATE attempts SET outcome = ?, reason = ?, ended_at = coalesce(ended_at, ?)
         WHERE run_id = ? AND work_item_id = ? AND attempt = ?`,
        write.outcome,
        write.reason,
        write.ended_at,
        runId,
        write.work_item_id,
        write.attempt,
      );
      return;
    case "insertArtifact": {
      const { artifact } = write;
      run(
        `INSERT INTO artifacts (run_id, id, seq, stage_position, stage_id, work_item_id, author_id,
           author_tag, title, media_type, content, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        runId,
        artifact.id,
        artifact.seq,
        artifact.stage_position,
        artifact.stage_id,
        artifact.work_item_id,
        artifact.author_id,
        artifact.author_tag,
        artifact.title,
        artifact.media_type,
        write.content,
        artifact.created_at,
      );
      return;
    }
    case "insertReview":
      run(
        "INSERT INTO reviews (run_id, work_item_id, target_artifact_id, feedback, created_at) VALUES (?, ?, ?, ?, ?)",
        runId,
        write.feedback.work_item_id,
        write.feedback.target_artifact_id,
        JSON.stringify(write.feedback),
        write.created_at,
      );
      return;
    case "insertEvent":
      run(
        "INSERT INTO events (run_id, seq, body) VALUES (?, ?, ?)",
        runId,
        write.event.seq,
        JSON.stringify(write.event),
      );
      return;
    case "insertIdempotencyKey":
      run(
        "INSERT INTO idempotency_keys (run_id, agent_id, key, request_hash, response) VALUES (?, ?, ?, ?, ?)",
        runId,
        write.agent_id,
        write.key,
        write.request_hash,
        JSON.stringify(write.response),
      );
      return;
  }
}
