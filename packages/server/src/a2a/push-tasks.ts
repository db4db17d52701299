// The A2A tasks the service asked to be told about by push notification: one row per lease
// attempt (the attempt ↔ task mapping and the hash of its push token), kept in the service's
// database so that a notification that comes after a restart is still recognised and applied.
import type { SqlValue } from "../sql/sql-database.ts";
import { all, run, type SqlSteps } from "../sql/sql-steps.ts";

/** One attempt whose A2A task pushes its updates to the service. */
export interface PushTask {
  run_id: string;
  work_item_id: string;
  attempt: number;
  /** The A2A agent the attempt is carried out by. */
  agent_id: string;
  /** The item's kind and context hash: what its outcome needs after a restart. */
  kind: "task" | "review";
  context_sha256: string | null;
  /** SHA-256 (hex) of the attempt's push token. */
  token_hash: string;
  /** The A2A task's id, once the agent answered the message (null before). */
  task_id: string | null;
  created_at: number;
  /** When the agent last said something (the message, a notification, a safety poll). */
  last_news_at: number;
  /** When the attempt ended (completed, failed, given up); null while it runs. */
  ended_at: number | null;
  /** How many notifications came after it ended (ignored). */
  late: number;
}

/** Where push tasks are kept: the store's database (SQLite, a Durable Object's, PostgreSQL). */
export interface PushTasks {
  /** Records an attempt that asked for push notifications. */
  open(
    task: Omit<PushTask, "task_id" | "ended_at" | "late" | "context_sha256" | "last_news_at"> & {
      context_sha256: string | undefined;
    },
  ): Promise<void>;
  /** Notes the A2A task's id once the agent answered. */
  setTask(runId: string, workItemId: string, attempt: number, taskId: string): Promise<void>;
  /** The attempt's row, or undefined. */
  find(runId: string, workItemId: string, attempt: number): Promise<PushTask | undefined>;
  /** Ends the attempt; false when it had ended already (so that it ends once). */
  end(runId: string, workItemId: string, attempt: number, at: number): Promise<boolean>;
  /** Notes that the agent said something about the attempt's task at `at`. */
  noteNews(runId: string, workItemId: string, attempt: number, at: number): Promise<void>;
  /** The run's attempts that have not ended, oldest news first. */
  openTasks(runId: string): Promise<PushTask[]>;
  /**
   * Every run's attempts that have not ended and have had no news for half a lease of their run
   * at `now` (the safety poll's interval): due their safety poll, if no attempt follows them.
   */
  orphans(now: number): Promise<PushTask[]>;
  /** Counts a notification that came after the attempt ended. */
  noteLate(runId: string, workItemId: string, attempt: number): Promise<void>;
}

const KEY = "run_id = ? AND work_item_id = ? AND attempt = ?";

/** A row as the database returns it, its numbers as numbers (engines differ). */
function pushTask(row: PushTask): PushTask {
  return {
    ...row,
    attempt: Number(row.attempt),
    created_at: Number(row.created_at),
    last_news_at: Number(row.last_news_at),
    ended_at: row.ended_at === null ? null : Number(row.ended_at),
    late: Number(row.late),
  };
}

/** Sets `set` on the attempt's row. */
function update(set: string, value: SqlValue, key: [string, string, number]): SqlSteps<void> {
  return run(`UPDATE a2a_push_tasks SET ${set} WHERE ${KEY}`, value, ...key);
}

/**
 * Push tasks in the `a2a_push_tasks` table (migration 7 of ../sql/schema.ts), each method's
 * steps run by `read` (the store's: `StepStore.pushTasks()`).
 */
export function pushTasksOver(read: <T>(steps: SqlSteps<T>) => Promise<T>): PushTasks {
  const rowsOf = async (sql: string, ...params: SqlValue[]) =>
    (await read(all<PushTask>(sql, ...params))).map(pushTask);
  return {
    open: (task) =>
      read(
        run(
          "INSERT INTO a2a_push_tasks (run_id, work_item_id, attempt, agent_id, kind, context_sha256, token_hash, created_at, last_news_at, late) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
          task.run_id,
          task.work_item_id,
          task.attempt,
          task.agent_id,
          task.kind,
          task.context_sha256 ?? null,
          task.token_hash,
          task.created_at,
          task.created_at,
        ),
      ),
    setTask: (runId, workItemId, attempt, taskId) =>
      read(update("task_id = ?", taskId, [runId, workItemId, attempt])),
    async find(runId, workItemId, attempt) {
      const [row] = await read(
        all<PushTask>(`SELECT * FROM a2a_push_tasks WHERE ${KEY}`, runId, workItemId, attempt),
      );
      return row === undefined ? undefined : pushTask(row);
    },
    noteNews: (runId, workItemId, attempt, at) =>
      read(update("last_news_at = ?", at, [runId, workItemId, attempt])),
    openTasks: (runId) =>
      rowsOf(
        "SELECT * FROM a2a_push_tasks WHERE run_id = ? AND ended_at IS NULL ORDER BY last_news_at",
        runId,
      ),
    async end(runId, workItemId, attempt, at) {
      // Once: the row that ends is returned, none when it had ended.
      const ended = await read(
        all(
          `UPDATE a2a_push_tasks SET ended_at = ? WHERE ${KEY} AND ended_at IS NULL RETURNING attempt`,
          at,
          runId,
          workItemId,
          attempt,
        ),
      );
      return ended.length > 0;
    },
    orphans: (now) =>
      rowsOf(
        "SELECT p.* FROM a2a_push_tasks p JOIN runs r ON r.id = p.run_id WHERE p.ended_at IS NULL AND p.last_news_at <= ? - r.lease_ms / 2 ORDER BY p.last_news_at LIMIT 100",
        now,
      ),
    noteLate: (runId, workItemId, attempt) =>
      read(update("late = late + ?", 1, [runId, workItemId, attempt])),
  };
}
