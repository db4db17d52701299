import { DurableObject } from "cloudflare:workers";
import type { RunListEntry, RunListQuery } from "../delivery/delivery-store.ts";
import { readRunList } from "../sql/run-list.ts";
import type { SqlDatabase } from "../sql/sql-database.ts";
import { runSteps } from "../sql/sql-steps.ts";
import { durableObjectSql } from "./durable-object-sql.ts";
import type { WorkerEnv } from "./worker-env.ts";

/** The name of the one directory object: `RUN_DIRECTORY.idFromName(RUN_DIRECTORY_NAME)`. */
export const RUN_DIRECTORY_NAME = "runs";

/** A run as its object tells the directory: the listed fields and the run's version. */
export interface DirectoryEntry extends RunListEntry {
  /** The run's version (it moves on with every change): an older report never wins. */
  version: number;
}

/**
 * The runs directory of a Worker: one Durable Object (SQLite storage) that holds the id,
 * `created_at`, status, goal summary and current stage of every run, so that `GET /v1/runs` can
 * list runs that each live in their own object. Each run's object reports its run when it is
 * created and whenever its status or stage changes (`record`), and again from its alarm until a
 * report got through (see run-listing.ts).
 */
export class RunDirectory extends DurableObject<WorkerEnv> {
  readonly #database: SqlDatabase;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.#database = durableObjectSql(ctx.storage);
    this.#database.exec(
      `CREATE TABLE IF NOT EXISTS listed_runs (
        run_id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        status TEXT NOT NULL,
        goal TEXT NOT NULL,
        current_stage TEXT,
        version INTEGER NOT NULL
      )`,
    );
    this.#database.exec(
      "CREATE INDEX IF NOT EXISTS listed_runs_newest_first ON listed_runs (created_at, run_id)",
    );
  }

  /** Records a run's entry, unless the directory holds a newer version of it. */
  async record(entry: DirectoryEntry): Promise<void> {
    this.#database.run(
      `INSERT INTO listed_runs (run_id, created_at, status, goal, current_stage, version)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (run_id) DO UPDATE SET status = excluded.status,
         current_stage = excluded.current_stage, version = excluded.version
       WHERE excluded.version > listed_runs.version`,
      entry.run_id,
      entry.created_at,
      entry.status,
      entry.goal,
      entry.current_stage,
      entry.version,
    );
  }

  /** The runs of `query`, newest first; undefined when `query.after` names no run listed here. */
  async list(query: RunListQuery): Promise<RunListEntry[] | undefined> {
    return runSteps(
      this.#database,
      readRunList(query, "SELECT run_id, status, created_at, goal, current_stage FROM listed_runs"),
    );
  }
}
