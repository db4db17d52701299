// The store's tables: their rows as TypeScript sees them, and the migrations that create them.
import type * as Contract from "@task-context/contract";
import type { ItemRecord } from "../delivery/machine/run-state.ts";
import type { SqlDatabase } from "./sql-database.ts";

export { iso } from "../delivery/machine/draft.ts";

/** A run's status as its row stores it. */
export type RunStatus = Contract.RunView["status"];

/** A row of `runs`. */
export interface RunRow {
  id: string;
  goal: string;
  constraints: string;
  lease_ms: number;
  max_attempts: number;
  status: RunStatus;
  current_stage: number;
  last_seq: number;
  created_at: number;
  /**
   * The W3C trace context the run was created in (`{ traceparent, tracestate? }` as JSON), which
   * every work item of the run carries; null when it came without one (or the service does not
   * trace). Added by migration 2.
   */
  trace_context: string | null;
  /** Moves on with every change to the run (see RunRecord.version). Added by migration 4. */
  version: number;
  /** When the run was canceled (milliseconds); null while it is not. Added by migration 8. */
  canceled_at?: number | null;
  /** Why it was canceled; null when no reason was given. Added by migration 8. */
  cancel_reason?: string | null;
}

/** A row of `work_items`: what the delivery rules look at, and where the item stands. */
export type ItemRow = Omit<ItemRecord, "outcome">;

/** A row of `attempts`. */
export interface AttemptRow {
  attempt: number;
  agent_tag: string;
  leased_at: number;
  ended_at: number | null;
  outcome: Contract.AttemptRecord["outcome"];
  reason: string | null;
}

/** A row of `artifacts`. */
export interface ArtifactRow {
  id: string;
  stage_id: string;
  stage_position: number;
  work_item_id: string;
  author_id: string;
  author_tag: string;
  title: string | null;
  media_type: string;
  content: string;
  created_at: number;
}

/**
 * The schema, one migration per entry, each a list of single statements (a Durable Object runs
 * one statement per call). Append; never edit a migration that has shipped.
 */
export const migrations: readonly (readonly string[])[] = [
  [
    `CREATE TABLE runs (
      id TEXT PRIMARY KEY,
      goal TEXT NOT NULL,
      constraints TEXT NOT NULL,
      lease_ms INTEGER NOT NULL,
      max_attempts INTEGER NOT NULL,
      status TEXT NOT NULL,
      current_stage INTEGER NOT NULL,
      last_seq INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    )`,
    `CREATE TABLE stages (
      run_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      id TEXT NOT NULL,
      definition TEXT NOT NULL,
      status TEXT NOT NULL,
      PRIMARY KEY (run_id, position)
    )`,
    `CREATE TABLE agents (
      run_id TEXT NOT NULL,
      id TEXT NOT NULL,
      tag TEXT NOT NULL,
      token_hash TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (run_id, id),
      UNIQUE (run_id, tag)
    )`,
    `CREATE TABLE work_items (
      run_id TEXT NOT NULL,
      id TEXT NOT NULL,
      stage_position INTEGER NOT NULL,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      failures INTEGER NOT NULL,
      offered_seq INTEGER NOT NULL,
      holder_id TEXT,
      holder_tag TEXT,
      lease_expires_at INTEGER,
      target_artifact_id TEXT,
      target_author_id TEXT,
      target_author_tag TEXT,
      dead_lettered_at INTEGER,
      PRIMARY KEY (run_id, id)
    )`,
    "CREATE INDEX work_items_on_offer ON work_items (run_id, status, offered_seq)",
    "CREATE INDEX work_items_by_expiry ON work_items (status, lease_expires_at)",
    `CREATE TABLE attempts (
      run_id TEXT NOT NULL,
      work_item_id TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      agent_id TEXT NOT NULL,
      agent_tag TEXT NOT NULL,
      leased_at INTEGER NOT NULL,
      ended_at INTEGER,
      outcome TEXT NOT NULL,
      reason TEXT,
      PRIMARY KEY (run_id, work_item_id, attempt)
    )`,
    `CREATE TABLE artifacts (
      run_id TEXT NOT NULL,
      id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      stage_position INTEGER NOT NULL,
      stage_id TEXT NOT NULL,
      work_item_id TEXT NOT NULL,
      author_id TEXT NOT NULL,
      author_tag TEXT NOT NULL,
      title TEXT,
      media_type TEXT NOT NULL,
      content TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (run_id, id)
    )`,
    "CREATE INDEX artifacts_in_order ON artifacts (run_id, stage_position, seq)",
    `CREATE TABLE reviews (
      run_id TEXT NOT NULL,
      work_item_id TEXT NOT NULL,
      target_artifact_id TEXT NOT NULL,
      feedback TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (run_id, work_item_id)
    )`,
    `CREATE TABLE events (
      run_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      body TEXT NOT NULL,
      PRIMARY KEY (run_id, seq)
    )`,
    `CREATE TABLE idempotency_keys (
      run_id TEXT NOT NULL,
      agent_id TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      response TEXT NOT NULL,
      PRIMARY KEY (run_id, agent_id, key)
    )`,
  ],
  // 2: the trace context a run was created in, for its work items (`trace_context`).
  ["ALTER TABLE runs ADD COLUMN trace_context TEXT"],
  // 3: an A2A agent's endpoint (JSON: url, agent card, stages, concurrency); NULL for the others.
  ["ALTER TABLE agents ADD COLUMN a2a_endpoint TEXT"],
  // 4: the run's version, moved on by every change, so that a copy of a run's state kept in
  // memory is known to be valid by reading the run's row alone.
  ["ALTER TABLE runs ADD COLUMN version INTEGER NOT NULL DEFAULT 0"],
  // 5: GET /v1/runs lists runs newest first, a page after a (created_at, id) at a time.
  ["CREATE INDEX runs_newest_first ON runs (created_at, id)"],
  // 6: an A2A agent's credentials (JSON, as they are sent), apart from its endpoint: only the
  // dispatcher reads this column, so no read of the agents (list, page) can show them.
  ["ALTER TABLE agents ADD COLUMN a2a_credentials TEXT"],
  // 7: the A2A attempts whose tasks push their updates (../a2a/push-tasks.ts): the attempt ↔
  // task mapping and the hash of the attempt's push token, so that a notification that comes
  // after a restart is recognised and applied; ended_at set once, when the attempt ends.
  [
    `CREATE TABLE a2a_push_tasks (
      run_id TEXT NOT NULL,
      work_item_id TEXT NOT NULL,
      attempt INTEGER NOT NULL,
      agent_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      context_sha256 TEXT NOT NULL,
      token_hash TEXT NOT NULL,
      task_id TEXT,
      created_at INTEGER NOT NULL,
      last_news_at INTEGER NOT NULL,
      ended_at INTEGER,
      late INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (run_id, work_item_id, attempt)
    )`,
    // The attempts not ended, by their last news: the safety polls read only these.
    "CREATE INDEX a2a_push_tasks_open ON a2a_push_tasks (last_news_at) WHERE ended_at IS NULL",
  ],
  // 8: a canceled run's time and reason (POST /v1/runs/{run_id}/cancel): its refusals say when.
  [
    "ALTER TABLE runs ADD COLUMN canceled_at INTEGER",
    "ALTER TABLE runs ADD COLUMN cancel_reason TEXT",
  ],
];

/** Brings the database's schema up to date, in one transaction per migration. */
export function migrate(database: SqlDatabase): void {
  database.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const [row] = database.all<{ version: number | null }>(
    "SELECT max(version) AS version FROM schema_version",
  );
  const current = Number(row?.version ?? 0);
  migrations.forEach((statements, index) => {
    const version = index + 1;
    if (version <= current) return;
    database.transaction(() => {
      for (const statement of statements) database.exec(statement);
      database.run("INSERT INTO schema_version (version) VALUES (?)", version);
    });
  });
}
