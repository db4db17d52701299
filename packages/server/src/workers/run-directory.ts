import { DurableObject } from "cloudflare:workers";
import { ArgumentError } from "@task-context/core";
import type { RunListEntry } from "../delivery/delivery-store.ts";
import { type ReadName, reads } from "../sql/reads.ts";
import type { SqlDatabase } from "../sql/sql-database.ts";
import { runSteps } from "../sql/sql-steps.ts";
import { durableObjectSql } from "./durable-object-sql.ts";
import type { WorkerEnv } from "./worker-env.ts";

/** The name of the one directory object: `RUN_DIRECTORY.idFromName(RUN_DIRECTORY_NAME)`. */
export const RUN_DIRECTORY_NAME = "runs";

/** The runs listed here, as the reads across runs read them (define-read.ts's `sources.runs`). */
const LISTED_RUNS = "SELECT run_id, status, created_at, goal, current_stage FROM listed_runs";

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

  /**
   * The read across runs `name` of the registry of reads, on the runs listed here; an
   * `ArgumentError` for a read of one run (its run's object answers it).
   */
  async query(name: ReadName, input: unknown): Promise<unknown> {
    const read = reads[name];
    if (read.scope !== "service") {
      throw new ArgumentError({
        argument: "name",
        message: `expected a read across runs, got ${name}, a read of one run: its run's object answers it.`,
      });
    }
    return runSteps(this.#database, read.steps(input as never, { runs: LISTED_RUNS }));
  }
}
