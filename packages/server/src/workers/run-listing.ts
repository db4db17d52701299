import type { SqlDatabase } from "../sql/sql-database.ts";
import { storedRuns } from "../sql/stored-runs.ts";
import { type DirectoryEntry, RUN_DIRECTORY_NAME, type RunDirectory } from "./run-directory.ts";

/** The first retry of a report that failed comes after this long; each next one waits twice as long. */
const FIRST_RETRY_MS = 1000;

/** The longest wait between two retries. */
const LAST_RETRY_MS = 5 * 60_000;

/**
 * A run object's side of the runs directory: reports the run's entry to the directory when it
 * differs from the last one reported (a new run, another status or stage). A report that fails
 * is retried from the object's alarm ({@link retryAt}), ever less often, until one gets through;
 * an object that restarts reports again at its first call or alarm. Without the `RUN_DIRECTORY`
 * binding it does nothing.
 */
export class RunListing {
  readonly #directory: DurableObjectNamespace<RunDirectory> | undefined;
  /** What was last reported (status and stage), or undefined: nothing yet in this instance. */
  #reported: string | undefined;
  #retryAt: number | undefined;
  #failures = 0;

  constructor(directory: DurableObjectNamespace<RunDirectory> | undefined) {
    this.#directory = directory;
  }

  /** When the alarm should report again (the object's clock), or undefined. */
  retryAt(): number | undefined {
    return this.#retryAt;
  }

  /** Reports the run that `database` holds when it changed since the last report. */
  async update(database: SqlDatabase, now: number): Promise<void> {
    if (this.#directory === undefined) return;
    const [entry] = database.all<DirectoryEntry>(
      `SELECT listed.*, runs.version AS version FROM (${storedRuns}) AS listed
       JOIN runs ON runs.id = listed.run_id`,
    );
    if (entry === undefined) return;
    const reported = `${entry.status} ${entry.current_stage}`;
    if (reported === this.#reported && this.#retryAt === undefined) return;
    try {
      const directory = this.#directory.get(this.#directory.idFromName(RUN_DIRECTORY_NAME));
      await directory.record({ ...entry, created_at: Number(entry.created_at) });
      this.#reported = reported;
      this.#retryAt = undefined;
      this.#failures = 0;
    } catch (error) {
      console.error("runs directory: the run's report failed; the alarm retries it:", error);
      this.#retryAt = now + Math.min(FIRST_RETRY_MS * 2 ** this.#failures, LAST_RETRY_MS);
      this.#failures += 1;
    }
  }
}
