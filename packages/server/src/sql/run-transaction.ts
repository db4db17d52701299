// One transaction of a store: the runs it works on (each loaded, or taken from the store's cache
// once its version checks out, by the transaction's first command on it), the machine's decisions
// on them, their writes, and the run rows written once before the commit.
import type { IdPrefix } from "../delivery/ids.ts";
import {
  type Answers,
  type Command,
  type CommandType,
  decide,
} from "../delivery/machine/machine.ts";
import type { RunState } from "../delivery/machine/run-state.ts";
import { applyWrites } from "../delivery/machine/writes.ts";
import { rememberFindings } from "./artifact-findings.ts";
import { persistWrites } from "./persist-writes.ts";
import type { RunStateCache } from "./run-state-cache.ts";
import { loadRunState, TransactionEndedError } from "./run-state-rows.ts";
import type { SqlSteps } from "./sql-steps.ts";

/** A run as the transaction holds it, and its version and last seq when first read. */
interface Loaded {
  state: RunState | undefined;
  /** Undefined for a run the transaction creates. */
  version: number | undefined;
  seq: number;
}

/** What the store gives every transaction. */
export interface TransactionContext {
  /** The runs' states kept between transactions. */
  cache: RunStateCache;
  /** Milliseconds since the epoch, read once per command. */
  clock: () => number;
  /** New identifiers (ids.ts's `newId`). */
  newId: (prefix: IdPrefix) => string;
}

/**
 * The runs of one transaction. On SQLite every operation of a group commit shares one (each in
 * its own savepoint); on PostgreSQL the operations of one run's group share one, whose first
 * command on the run locks its row until the commit.
 */
export class RunTransaction {
  readonly #context: TransactionContext;
  readonly #loaded = new Map<string, Loaded>();
  /** The runs whose state must be read again (a command's writes on them were undone). */
  readonly #stale = new Set<string>();
  /**
   * Set once it failed: steps still under way (their answers come late, after a lost
   * connection) must not take or change the runs' states the store keeps.
   */
  #ended = false;

  constructor(context: TransactionContext) {
    this.#context = context;
  }

  /**
   * Decides `command` on the run, writes what it changes and answers `view` of its answer and the
   * run's state after it; a refusal (`DeliveryError`, `ArgumentError`) is thrown, having written
   * nothing. Should a write or the view fail, the run is read again by the next command.
   */
  *execute<Type extends CommandType, View>(
    runId: string,
    command: Command<Type>,
    view: (answer: Answers[Type], state: RunState) => SqlSteps<View>,
  ): SqlSteps<View> {
    if (this.#ended) throw new TransactionEndedError();
    const loaded = yield* this.#load(runId);
    const decision = decide(loaded.state, runId, command, {
      now: this.#context.clock(),
      newId: this.#context.newId,
    });
    if (!decision.ok) throw decision.error;
    const { writes, answer } = decision;
    if (writes.length === 0) {
      // Only a run that exists answers without a write (createRun always writes).
      return yield* view(answer, loaded.state as RunState);
    }
    try {
      yield* persistWrites(runId, writes);
      for (const write of writes) {
        if (write.type === "insertArtifact") {
          rememberFindings(runId, write.artifact.id, write.findings);
        }
      }
      loaded.state = applyWrites(loaded.state, writes);
      return yield* view(answer, loaded.state);
    } catch (error) {
      this.invalidate(runId);
      throw error;
    }
  }

  /** The runs that got events, whose waiters are woken once the commit is done. */
  appended(): string[] {
    const appended: string[] = [];
    for (const [runId, { state, seq }] of this.#loaded) {
      if (state !== undefined && state.run.last_seq > seq) appended.push(runId);
    }
    return appended;
  }

  /**
   * Once committed: the store keeps the runs' states for the next transactions. The runs the
   * transaction changed, with their states now.
   */
  committed(): Array<[runId: string, state: RunState]> {
    const changed: Array<[string, RunState]> = [];
    for (const [runId, { state, version }] of this.#loaded) {
      if (state === undefined) {
        this.#context.cache.delete(runId);
        continue;
      }
      // A state a command's undone writes changed, not read again since, is not kept: its
      // version may be one another transaction commits with other changes.
      if (this.#stale.has(runId)) this.#context.cache.delete(runId);
      else this.#context.cache.set(runId, state);
      if (state.run.version !== version) changed.push([runId, state]);
    }
    return changed;
  }

  /** Once the transaction failed: the states held (changed in place) are no longer the truth. */
  failed(): void {
    this.#ended = true;
    for (const runId of this.#loaded.keys()) this.#context.cache.delete(runId);
    this.#loaded.clear();
  }

  *#load(runId: string): SqlSteps<Loaded> {
    let loaded = this.#loaded.get(runId);
    if (loaded !== undefined && this.#stale.delete(runId)) {
      // Read again; what is new since the transaction began is still new.
      loaded.state = yield* loadRunState(runId, undefined);
    }
    if (loaded === undefined) {
      const state = yield* this.#context.cache.load(runId, () => !this.#ended);
      loaded = { state, version: state?.run.version, seq: state?.run.last_seq ?? 0 };
      this.#loaded.set(runId, loaded);
    }
    return loaded;
  }

  /**
   * The run is read again by the transaction's next command on it: a command's writes were undone
   * (its savepoint rolled back); those before it are in the database, run row included.
   */
  invalidate(runId: string): void {
    this.#context.cache.delete(runId);
    if (this.#loaded.has(runId)) this.#stale.add(runId);
  }
}
