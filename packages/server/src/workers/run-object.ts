import { DurableObject } from "cloudflare:workers";
import type * as Contract from "@task-context/contract";
import { ArgumentError } from "@task-context/core";
import type { WorkItem } from "@task-context/protocols";
import type { A2aDispatcher } from "../a2a/a2a-dispatcher.ts";
import type { PushReceiver } from "../a2a/push-receiver.ts";
import { BackgroundDuties } from "../background/background-duties.ts";
import { DeliveryError, runNotFound } from "../delivery/delivery-error.ts";
import type {
  AgentIdentity,
  CreateRunOptions,
  DeliveryStore,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import { checkStageGraph } from "../delivery/stage-graph.ts";
import { callMethod, defineRunMethods, type RunMethod } from "../delivery/store-methods.ts";
import { createRateLimiter, type RateLimit } from "../http/rate-limit.ts";
import { waitForOffers } from "../http/wait.ts";
import type { ReadInput, ReadOutput, ReadRunId } from "../sql/define-read.ts";
import type { ReadName, Reads } from "../sql/reads.ts";
import type { SqlDatabase } from "../sql/sql-database.ts";
import { SqlStore } from "../sql/sql-store.ts";
import { AlarmScheduler } from "./alarm-scheduler.ts";
import { durableObjectSql } from "./durable-object-sql.ts";
import { type Outcome, outcome } from "./outcome.ts";
import { RunListing } from "./run-listing.ts";
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
 * every other method answers `RUN_NOT_FOUND` while there are none. The alarm is the run's
 * background duties' wake-up (../background/background-duties.ts): set from what each change left
 * due (the earliest lease expiry; at once when the run's A2A agents have work on offer), never
 * by reading after a change; it expires the overdue leases and carries out a round of A2A
 * attempts (alarms are at-least-once; every query checks expiry too, so a late or repeated alarm
 * changes nothing). After a change the run is reported to the runs directory (run-listing.ts),
 * whose failed reports the alarm retries too.
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
  /** The run's background duties, which the alarm wakes. */
  readonly #duties: BackgroundDuties;
  readonly #alarm: AlarmScheduler;
  /** Delivers to the run's A2A agents, from the alarm; loaded with the first round. */
  #dispatcher: A2aDispatcher | undefined;
  /** Receives the run's A2A push notifications; loaded with the first round or notification. */
  #push: PushReceiver | undefined;
  /** The last round found every slot of the agents with work held by handed-over tasks. */
  #slotsHeld = false;
  /** The duty deferred while {@link #slotsHeld}: set again when a handed-over task ends. */
  #deferred: number | undefined;
  readonly #limiters = new Map<string, (keys: readonly string[]) => number | undefined>();
  /** Reports the run to the runs directory when its status or stage changes. */
  readonly #listing: RunListing;
  /** Whether a commit changed the run since its last report (true at first: report once). */
  #changed = true;
  /** The claim-next waits under way here, by the id their router gave (see {@link abandon}). */
  readonly #waits = new Map<string, AbortController>();

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.#database = durableObjectSql(ctx.storage);
    this.#listing = new RunListing(env.RUN_DIRECTORY);
    const clock = () => this.now();
    this.#alarm = new AlarmScheduler(ctx.storage, clock, () =>
      earliest(this.#listing.retryAt(), this.#pushSafetyPollAt()),
    );
    this.#duties = new BackgroundDuties({
      scheduler: {
        // While every slot is held by a task handed over to push notifications, work on offer
        // waits for one of them to end (a notification, or the safety poll the alarm rings for),
        // instead of an alarm that rings at once, finds no free slot, and rings again.
        at: (runId, when) => {
          this.#deferred = this.#slotsHeld && when <= clock() ? when : undefined;
          if (this.#deferred === undefined) this.#alarm.at(runId, when);
          else this.#alarm.cancel();
        },
        cancel: () => {
          this.#deferred = undefined;
          this.#alarm.cancel();
        },
      },
      clock,
      runState: (runId) => this.#run().runState(runId),
      a2aRound: (runId) => this.#dispatchRound(runId),
      onError: (error) => console.error("background duties:", error),
    });
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
      this.#store ??= this.#newStore();
      if (this.#database.all("SELECT 1 FROM runs").length > 0) {
        throw new ArgumentError({
          argument: "runId",
          message: `expected the id of a new run, got ${runId}: its object already holds a run.`,
        });
      }
      const created = await this.#store.createRun(runId, input, options);
      await this.#report();
      return created;
    });
  }

  async findAgent(runId: string, agentId: string): Promise<Outcome<StoredAgent | undefined>> {
    return outcome(async () => this.#open()?.findAgent(runId, agentId));
  }

  /** A read of this run (`DeliveryStore.query`), found by its name in the registry of reads. */
  async query<Name extends ReadName>(
    name: Name,
    runId: string,
    input: ReadInput<Reads[Name]>,
  ): Promise<Outcome<ReadOutput<Reads[Name]>>> {
    return this.#call(runId, (store) => store.query(name, runId as ReadRunId<Reads[Name]>, input));
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
   * Claims the oldest offers `agent` may take (up to `limit`), waiting up to `timeoutMs` (at most
   * 30 s) in the run's claim-next line, here in the object: a change wakes one waiter per item on
   * offer, as on Node, and the others sleep. `waitId` names the wait for {@link abandon}, which the
   * router calls when its client goes away (a signal does not cross RPC): the wait ends and an
   * offer it was woken for passes on. A claim committed just before is answered to no one; its
   * lease runs out and the item is offered again, as when a client goes away on Node.
   */
  async claimNext(
    runId: string,
    agent: AgentIdentity,
    wait: { waitId: string; timeoutMs: number; limit?: number | undefined },
  ): Promise<Outcome<Contract.ClaimView | undefined>> {
    return this.#waiting(wait.waitId, (signal) =>
      this.#call(runId, (store) =>
        store.claimNext(runId, agent, {
          timeoutMs: Math.min(Math.max(0, wait.timeoutMs), MAX_WAIT_MS),
          signal,
          limit: wait.limit,
        }),
      ),
    );
  }

  /**
   * The run's offers to `agent` (at most `limit`), waiting up to `timeoutMs` (at most 30 s) for
   * one here in the object (`poll` with `wait`): the run's changes are looked at inside, and the
   * router is answered only once there are offers for its caller (or the wait ends), looking at
   * the run on its own every `recheckMs` too. `waitId` as for {@link claimNext}.
   */
  async waitForOffers(
    runId: string,
    agent: AgentIdentity,
    wait: { waitId: string; timeoutMs: number; limit: number; recheckMs: number },
  ): Promise<Outcome<WorkItem[]>> {
    return this.#waiting(wait.waitId, (signal) =>
      this.#call(runId, (store) => {
        const waitMs = Math.min(Math.max(0, wait.timeoutMs), MAX_WAIT_MS);
        // The router's safety recheck: the run is looked at on its own this often here too.
        const recheckMs = Math.min(Math.max(1, wait.recheckMs), MAX_WAIT_MS);
        const timing = { recheckMs, clock: () => this.now() };
        return waitForOffers(store, runId, agent, { limit: wait.limit, waitMs }, timing, signal);
      }),
    );
  }

  /** The client of the wait `waitId` went away: the wait ends (nothing when it has). */
  async abandon(waitId: string): Promise<void> {
    this.#waits.get(waitId)?.abort();
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
   * the run's background duties' round (expire the overdue leases, an A2A round, the next alarm).
   */
  override async alarm(): Promise<void> {
    if (this.#open() === undefined) return;
    const [run] = this.#database.all<{ id: string }>("SELECT id FROM runs LIMIT 1");
    if (run === undefined) return;
    this.#alarm.rang();
    await this.#safetyPoll(run.id);
    await this.#duties.round(run.id);
    this.#changed = true; // a report that failed is retried
    await this.#report();
  }

  /**
   * One round of A2A attempts, inside the alarm (which may last 15 minutes, and holds the object
   * in memory meanwhile): each A2A agent's slots claim an item and follow its task by polling
   * tasks/get, so no connection stays open between polls. The dispatcher is loaded here only.
   */
  async #dispatchRound(runId: string): Promise<void> {
    const { A2aDispatcher } = await import("../a2a/a2a-dispatcher.ts");
    const publicUrl = this.env.TASK_CONTEXT_PUBLIC_URL;
    const push =
      publicUrl === undefined || publicUrl === ""
        ? undefined
        : { receiver: await this.#receiver(), publicUrl, handOff: true };
    this.#dispatcher ??= new A2aDispatcher({
      store: this.#run(),
      streaming: false,
      clock: () => this.now(),
      onError: (error) => console.error("A2A dispatch:", error),
      push,
    });
    this.#slotsHeld = false;
    const attempts = await this.#dispatcher.dispatchRound(runId);
    this.#slotsHeld = attempts === 0 && this.#pushSafetyPollAt() !== undefined;
  }

  /**
   * A push notification for attempt `attempt` of the run's item `workItemId` (the router's
   * webhook forwards it here): checked and applied by the run's receiver, which refuses a forged
   * one (counted, and logged: an object's memory is not seen from outside).
   */
  async receivePush(
    runId: string,
    workItemId: string,
    attempt: number,
    token: string | undefined,
    body: unknown,
  ): Promise<Outcome<"applied" | "late">> {
    return outcome(async () => {
      if (this.#open() === undefined) {
        throw new DeliveryError({
          code: "NOT_FOUND",
          message: "No A2A attempt of this service waits for push notifications at this URL.",
        });
      }
      const open = this.#openPushTasks();
      const answer = await (await this.#receiver()).receive(
        runId,
        workItemId,
        attempt,
        token,
        body,
      );
      if (this.#openPushTasks() < open) this.#slotFreed(runId);
      await this.#report();
      this.#alarm.refresh();
      await this.#alarm.settled();
      if ("refused" in answer) {
        console.warn(
          `A2A push notification refused: ${answer.refused.code} ${answer.refused.message}`,
        );
        throw answer.refused;
      }
      return answer.outcome;
    });
  }

  /** The run's push receiver, over the object's storage and store. */
  async #receiver(): Promise<PushReceiver> {
    if (this.#push !== undefined) return this.#push;
    const [{ agentOperations }, { OAuthTokens }, { PushReceiver }, { defaultBodyBytes }] =
      await Promise.all([
        import("../a2a/agent-operations.ts"),
        import("../a2a/oauth-tokens.ts"),
        import("../a2a/push-receiver.ts"),
        import("../app.ts"),
      ]);
    const store = this.#run();
    const clock = () => this.now();
    const timing = { clock, recheckMs: 1000, keepAliveMs: 15_000 };
    const shutdown = new AbortController().signal;
    this.#push ??= new PushReceiver({
      tasks: store.pushTasks(),
      store,
      operations: agentOperations(
        { store, timing, shutdown, bodyBytes: defaultBodyBytes },
        shutdown,
      ),
      tokens: new OAuthTokens(clock),
      clock,
      answerBytes: 4 * defaultBodyBytes,
      onError: (error) => console.error("A2A push:", error),
    });
    return this.#push;
  }

  /** When the earliest task handed over to push notifications is due its safety poll. */
  #pushSafetyPollAt(): number | undefined {
    if (this.#store === undefined) return undefined;
    const [row] = this.#database.all<{ at: number | null }>(
      "SELECT min(p.last_news_at) + r.lease_ms / 2 AS at FROM a2a_push_tasks p, runs r WHERE p.ended_at IS NULL AND p.task_id IS NOT NULL",
    );
    return row?.at === null || row?.at === undefined ? undefined : Number(row.at);
  }

  /** How many tasks handed over to push notifications have not ended. */
  #openPushTasks(): number {
    const [row] = this.#database.all<{ open: number }>(
      "SELECT count(*) AS open FROM a2a_push_tasks WHERE ended_at IS NULL",
    );
    return Number(row?.open ?? 0);
  }

  /** A handed-over task ended, freeing its agent's slot: the deferred work is due again. */
  #slotFreed(runId: string): void {
    this.#slotsHeld = false;
    if (this.#deferred === undefined) return;
    this.#alarm.at(runId, this.#deferred);
    this.#deferred = undefined;
  }

  /** The safety poll of the tasks handed over to push notifications whose news is old. */
  async #safetyPoll(runId: string): Promise<void> {
    const due = this.#pushSafetyPollAt();
    if (due === undefined || due > this.now()) return;
    const [run] = this.#database.all<{ lease_ms: number }>("SELECT lease_ms FROM runs LIMIT 1");
    const { safetyPollMs } = await import("../a2a/a2a-attempt.ts");
    const open = this.#openPushTasks();
    try {
      await (await this.#receiver()).safetyPoll(runId, safetyPollMs(Number(run?.lease_ms)));
    } catch (error) {
      console.error("A2A push safety poll:", error);
    }
    if (this.#openPushTasks() < open) this.#slotFreed(runId);
  }

  /** The run's store, once its tables exist; never creates them. */
  #open(): SqlStore | undefined {
    if (this.#store === undefined) {
      const tables = this.#database.all(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'",
      );
      if (tables.length > 0) this.#store = this.#newStore();
    }
    return this.#store;
  }

  /** The run's store, which exists once the alarm or a round asks for it. */
  #run(): SqlStore {
    const store = this.#open();
    if (store === undefined) throw new Error("the run's object holds no run");
    return store;
  }

  /** A store over the object's storage, whose changes schedule the run's duties. */
  #newStore(): SqlStore {
    const store = new SqlStore(this.#database, { clock: () => this.now() });
    store.onRunChanged((runId, state) => {
      this.#changed = true;
      this.#duties.runChanged(runId, state);
    });
    return store;
  }

  /**
   * After a change: reports the run to the runs directory (which reads it), then waits for the
   * alarm the change moved (or the report's retry) to be set.
   */
  async #report(): Promise<void> {
    if (this.#changed) {
      this.#changed = false;
      await this.#listing.update(this.#database, this.now());
      this.#alarm.refresh();
    }
    await this.#alarm.settled();
  }

  /** Runs `wait` with a signal that {@link abandon} aborts by `waitId`. */
  async #waiting<T>(waitId: string, wait: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abandoned = new AbortController();
    this.#waits.set(waitId, abandoned);
    try {
      return await wait(abandoned.signal);
    } finally {
      this.#waits.delete(waitId);
    }
  }

  /** Runs a store operation on the run; answers once the alarm it moved is set. */
  #call<T>(runId: string, operation: (store: SqlStore) => Promise<T>): Promise<Outcome<T>> {
    return outcome(async () => {
      const store = this.#open();
      if (store === undefined) throw runNotFound(runId);
      const value = await operation(store);
      await this.#report();
      return value;
    });
  }
}

/** The earliest of the times given (undefined: none). */
function earliest(...times: (number | undefined)[]): number | undefined {
  const given = times.filter((time) => time !== undefined);
  return given.length === 0 ? undefined : Math.min(...given);
}

/** The store's run methods as the object answers them: with an {@link Outcome}. */
type RunMethods = {
  [M in RunMethod]: (
    ...args: Parameters<DeliveryStore[M]>
  ) => Promise<Outcome<Awaited<ReturnType<DeliveryStore[M]>>>>;
};

/** The generated methods, which the class's static block defines. */
export interface RunObject extends RunMethods {}
