import { DurableObject } from "cloudflare:workers";
import type * as Contract from "@task-context/contract";
import { ArgumentError } from "@task-context/core";
import type { A2aDispatcher } from "../a2a/a2a-dispatcher.ts";
import { runNotFound } from "../delivery/delivery-error.ts";
import type { CreateRunOptions, DeliveryStore, StoredAgent } from "../delivery/delivery-store.ts";
import { checkStageGraph } from "../delivery/stage-graph.ts";
import { callMethod, defineRunMethods, type RunMethod } from "../delivery/store-methods.ts";
import { createRateLimiter, type RateLimit } from "../http/rate-limit.ts";
import type { SqlDatabase } from "../sql/sql-database.ts";
import { SqlStore } from "../sql/sql-store.ts";
import { durableObjectSql } from "./durable-object-sql.ts";
import { type Outcome, outcome } from "./outcome.ts";
import type { WorkerEnv } from "./worker-env.ts";

/** The longest a wait in the object lasts, whatever the caller asks: the longest long poll. */
const MAX_WAIT_MS = 30_000;

/**
 * One run, in its own Durable Object with SQLite storage: an {@link SqlStore} over
 * `ctx.storage.sql`, reached with `RUNS.idFromName(runId)`. Its methods are the `DeliveryStore`'s,
 * called over Workers RPC, and answer an {@link Outcome}: those the store list (`storeMethods`)
 * forwards as `"run"` are generated from it, the others are written out here. Each change runs
 * synchronously inside (one transaction, no `await` until it is committed), so no other call
 * interleaves with it; only waits (`changed`) let other calls in.
 *
 * Nothing is written for an id that is not a run: the tables are created by `createRun` only, and
 * every other method answers `RUN_NOT_FOUND` while there are none. An alarm is kept at the
 * earliest lease expiry and sweeps expired leases (alarms are at-least-once; every query checks
 * expiry too, so a late or repeated alarm changes nothing).
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface below declares the methods its static block defines.
export class RunObject extends DurableObject<WorkerEnv> {
  static {
    // Every "run" method of the store list: the same call on the run's store, once it exists.
    // In the class's body, to reach #call (kept off RPC, as every # member is).
    // biome-ignore lint/complexity/noThisInStatic: the class's name here would name the class expression in bundles.
    defineRunMethods(this, (object, method, runId, args) =>
      object.#call(runId, (store) => callMethod(store, method, args) as Promise<unknown>),
    );
  }

  readonly #database: SqlDatabase;
  #store: SqlStore | undefined;
  /** The lease expiry the alarm is set for (undefined: none), or null when not known. */
  #alarmFor: number | undefined | null = null;
  /** Delivers to the run's A2A agents, from the alarm; loaded with the first round. */
  #dispatcher: A2aDispatcher | undefined;
  /** True while the alarm carries out a round of A2A attempts. */
  #dispatching = false;
  readonly #limiters = new Map<string, (keys: readonly string[]) => number | undefined>();

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.#database = durableObjectSql(ctx.storage);
  }

  /** Milliseconds since the epoch: leases, events and rate-limit windows are measured with it. */
  protected now(): number {
    return Date.now();
  }

  async createRun(
    runId: string,
    input: Contract.CreateRunInput,
    options: CreateRunOptions = {},
  ): Promise<Outcome<Contract.RunView>> {
    return outcome(async () => {
      // Checked before the first write: a refused run leaves no tables behind.
      checkStageGraph(input.stages);
      this.#store ??= new SqlStore(this.#database, { clock: () => this.now() });
      if (this.#database.all("SELECT 1 FROM runs").length > 0) {
        throw new ArgumentError({
          argument: "runId",
          message: `expected the id of a new run, got ${runId}: its object already holds a run.`,
        });
      }
      return this.#store.createRun(runId, input, options);
    });
  }

  async findAgent(runId: string, agentId: string): Promise<Outcome<StoredAgent | undefined>> {
    return outcome(async () => this.#open()?.findAgent(runId, agentId));
  }

  /**
   * True as soon as the run has an event after `after`; false after `timeoutMs` (at most 30 s).
   * The wait is bounded here because the caller cannot cancel it: an AbortSignal does not cross
   * RPC, and a router whose client went away may never call again.
   */
  async changed(runId: string, after: number, timeoutMs: number): Promise<Outcome<boolean>> {
    const bounded = Math.min(Math.max(0, timeoutMs), MAX_WAIT_MS);
    return this.#call(runId, (store) => store.changed(runId, after, { timeoutMs: bounded }));
  }

  /**
   * Counts a request of `key` (an agent token of this run) in a fixed window: the seconds to wait
   * when it is over `limit`. Exact, because every request of a token comes to its run's object;
   * kept in memory only (an evicted object starts a new window).
   */
  async hit(key: string, limit: RateLimit): Promise<number | undefined> {
    const window = `${limit.requests}/${limit.windowMs}`;
    let limited = this.#limiters.get(window);
    if (limited === undefined) {
      limited = createRateLimiter(limit, () => this.now());
      this.#limiters.set(window, limited);
    }
    return limited([key]);
  }

  /**
   * At the earliest lease expiry, or at once when items are on offer to the run's A2A agents:
   * expires the overdue leases, carries out a round of A2A attempts, and sets the next alarm.
   */
  override async alarm(): Promise<void> {
    const store = this.#open();
    if (store === undefined) return;
    const [run] = this.#database.all<{ id: string }>("SELECT id FROM runs LIMIT 1");
    if (run === undefined) return;
    this.#alarmFor = null; // the alarm that runs now is no longer set
    await store.expireLeases(run.id);
    if (await this.#a2aDue(store, run.id)) await this.#dispatchRound(store, run.id);
    await this.#schedule(store, run.id);
  }

  /**
   * True when an A2A agent of the run has an item on offer in its stages and no round is being
   * carried out: the alarm should run one now.
   */
  async #a2aDue(store: SqlStore, runId: string): Promise<boolean> {
    if (this.#dispatching) return false;
    const agents = await store.a2aAgents(runId);
    for (const agent of agents) {
      const offers = await store.offers(runId, agent, 50);
      if (offers.some((offer) => agent.a2a.stages.includes(offer.stage_id))) return true;
    }
    return false;
  }

  /**
   * One round of A2A attempts, inside the alarm (which may last 15 minutes, and holds the object
   * in memory meanwhile): each A2A agent's slots claim an item and follow its task by polling
   * tasks/get, so no connection stays open between polls. The dispatcher is loaded here only.
   */
  async #dispatchRound(store: SqlStore, runId: string): Promise<void> {
    this.#dispatching = true;
    const onError = (error: unknown) => console.error("A2A dispatch:", error);
    try {
      const { A2aDispatcher } = await import("../a2a/a2a-dispatcher.ts");
      this.#dispatcher ??= new A2aDispatcher({
        store,
        streaming: false,
        clock: () => this.now(),
        onError,
      });
      await this.#dispatcher.dispatchRound(runId);
    } catch (error) {
      // An attempt records its own store errors as its failure; what is left (the round could
      // not read the run) is told, and the alarm is set again as after any round.
      onError(error);
    } finally {
      this.#dispatching = false;
    }
  }

  /** The run's store, once its tables exist; never creates them. */
  #open(): SqlStore | undefined {
    if (this.#store === undefined) {
      const tables = this.#database.all(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'",
      );
      if (tables.length > 0)
        this.#store = new SqlStore(this.#database, { clock: () => this.now() });
    }
    return this.#store;
  }

  /** Runs a store operation on the run, then moves the alarm to the earliest lease expiry. */
  #call<T>(runId: string, operation: (store: SqlStore) => Promise<T>): Promise<Outcome<T>> {
    return outcome(async () => {
      const store = this.#open();
      if (store === undefined) throw runNotFound(runId);
      const value = await operation(store);
      await this.#schedule(store, runId);
      return value;
    });
  }

  /**
   * Sets the alarm at the earliest lease expiry (or now, when an A2A agent has work on offer), or
   * deletes it when neither. The delay is measured with the object's clock and applied to real
   * time.
   */
  async #schedule(store: SqlStore, runId: string): Promise<void> {
    const expiry = store.nextExpiry(runId);
    const due = (await this.#a2aDue(store, runId)) ? this.now() : undefined;
    const next =
      expiry === undefined || due === undefined ? (expiry ?? due) : Math.min(expiry, due);
    if (next === this.#alarmFor) return;
    this.#alarmFor = next;
    if (next === undefined) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Date.now() + Math.max(0, next - this.now()));
  }
}

/** The store's run methods as the object answers them: with an {@link Outcome}. */
type RunMethods = {
  [M in RunMethod]: (
    ...args: Parameters<DeliveryStore[M]>
  ) => Promise<Outcome<Awaited<ReturnType<DeliveryStore[M]>>>>;
};

/** The generated methods, which the class's static block defines. */
export interface RunObject extends RunMethods {}
