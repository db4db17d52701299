// The runs' states a store keeps between transactions, the most recently used first out of the
// way: each is checked against the run's version before it is used (another instance, or another
// store on the same database, may have changed the run), so a copy kept here is never trusted
// blindly, only spared a reload.
import type { RunState } from "../delivery/machine/run-state.ts";
import { loadRunState } from "./run-state-rows.ts";
import type { SqlSteps } from "./sql-steps.ts";

/** Options of {@link RunStateCache}. */
export interface RunStateCacheOptions {
  /** The most runs kept (default 1 000). */
  maxRuns?: number;
  /** The most work items kept over all runs (default 200 000: about 60 MB). */
  maxItems?: number;
  /**
   * The rows carry the run version that last wrote them (PostgreSQL's schema): a kept state found
   * stale is brought up to date with the rows written since, not read again whole.
   */
  versionedRows?: boolean;
}

/** The runs' states kept in memory, least recently used out first. */
export class RunStateCache {
  readonly #states = new Map<string, RunState>();
  readonly #maxRuns: number;
  readonly #maxItems: number;
  /** Whether the rows carry versions (see {@link RunStateCacheOptions.versionedRows}). */
  versionedRows: boolean;
  /**
   * The runs whose kept state the last load found stale: another instance writes them too, so
   * the next load asks for what changed with the lock, in its round trip.
   */
  readonly #shared = new Set<string>();

  constructor({
    maxRuns = 1000,
    maxItems = 200_000,
    versionedRows = false,
  }: RunStateCacheOptions = {}) {
    this.#maxRuns = maxRuns;
    this.#maxItems = maxItems;
    this.versionedRows = versionedRows;
  }

  /**
   * The run's state in a transaction, its row locked (see loadRunState): the state kept, when
   * the run's version says it is valid, else brought up to date; undefined for no such run.
   * `live` tells whether the transaction still runs once the answers are in: one given up
   * meanwhile gets nothing, and the state kept is left as it is.
   */
  *load(runId: string, live?: () => boolean): SqlSteps<RunState | undefined> {
    const kept = this.get(runId);
    const version = kept?.run.version;
    const state = yield* loadRunState(runId, kept, {
      versionedRows: this.versionedRows,
      likelyStale: this.#shared.has(runId),
      ...(live === undefined ? {} : { live }),
    });
    if (kept === undefined) return state;
    if (state !== undefined && state.run.version !== version) this.#shared.add(runId);
    else this.#shared.delete(runId);
    return state;
  }

  /** The state kept for the run, or undefined. */
  get(runId: string): RunState | undefined {
    const state = this.#states.get(runId);
    if (state !== undefined) {
      this.#states.delete(runId);
      this.#states.set(runId, state);
    }
    return state;
  }

  /** Keeps a run's state (as its transaction committed it). */
  set(runId: string, state: RunState): void {
    this.#states.delete(runId);
    this.#states.set(runId, state);
    let items = 0;
    for (const kept of this.#states.values()) items += kept.items.size;
    for (const [oldest, kept] of this.#states) {
      if (this.#states.size <= 1) break;
      if (this.#states.size <= this.#maxRuns && items <= this.#maxItems) break;
      this.#states.delete(oldest);
      this.#shared.delete(oldest);
      items -= kept.items.size;
    }
  }

  /** Forgets a run's state (its transaction failed: the database has what it had). */
  delete(runId: string): void {
    this.#states.delete(runId);
    this.#shared.delete(runId);
  }

  /** Forgets every state. */
  clear(): void {
    this.#states.clear();
    this.#shared.clear();
  }
}
