import type * as Contract from "@task-context/contract";
import { DeliveryError, runNotFound } from "../delivery/delivery-error.ts";
import type {
  AgentIdentity,
  ChangedOptions,
  ClaimNextOptions,
  CreateRunOptions,
  DeliveryStore,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import { isId } from "../delivery/ids.ts";
import { callMethod, defineRunMethods, type RunMethod } from "../delivery/store-methods.ts";
import type { ReadInput, ReadOutput, ReadRunId } from "../sql/define-read.ts";
import type { ReadName, Reads } from "../sql/reads.ts";
import { type Outcome, unwrap } from "./outcome.ts";
import { RUN_DIRECTORY_NAME, type RunDirectory } from "./run-directory.ts";
import type { RunObject } from "./run-object.ts";

/**
 * The {@link DeliveryStore} of the router Worker: each call goes to its run's Durable Object
 * (`idFromName(runId)`, Workers RPC), whose answer carries a refusal as data, thrown here again
 * as a `DeliveryError`. An id that is not a run's gets `RUN_NOT_FOUND` without reaching any
 * object, so garbage never creates one. The methods the store list (`storeMethods`) forwards as
 * `"run"` are generated from it; the others are written out here.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface below declares the methods defineRunMethods defines.
export class DurableObjectStore implements DeliveryStore {
  readonly #runs: DurableObjectNamespace<RunObject>;
  readonly #directory: DurableObjectNamespace<RunDirectory> | undefined;

  /** `directory`: the runs directory (`RUN_DIRECTORY`), where the reads across runs run. */
  constructor(
    runs: DurableObjectNamespace<RunObject>,
    directory?: DurableObjectNamespace<RunDirectory>,
  ) {
    this.#runs = runs;
    this.#directory = directory;
  }

  /** The object of a run; `RUN_NOT_FOUND` for an id that is not a run id. */
  object(runId: string): DurableObjectStub<RunObject> {
    if (!isId("run", runId)) throw runNotFound(runId);
    return this.#runs.get(this.#runs.idFromName(runId));
  }

  async createRun(
    runId: string,
    input: Contract.CreateRunInput,
    options: CreateRunOptions = {},
  ): Promise<Contract.RunView> {
    return unwrap(this.object(runId).createRun(runId, input, options));
  }

  /**
   * A read of one run in the run's object, which finds the same read by its name; a read across
   * runs in the runs directory (`SERVICE_UNAVAILABLE` when the Worker has no `RUN_DIRECTORY`).
   */
  async query<Name extends ReadName>(
    name: Name,
    runId: ReadRunId<Reads[Name]>,
    input: ReadInput<Reads[Name]>,
  ): Promise<ReadOutput<Reads[Name]>> {
    if (runId !== undefined) {
      const answer = this.object(runId).query(name, runId, input as never);
      return unwrap(answer as Promise<Outcome<ReadOutput<Reads[Name]>>>);
    }
    if (this.#directory === undefined) {
      throw new DeliveryError({
        code: "SERVICE_UNAVAILABLE",
        message:
          'Listing runs on Cloudflare Workers needs the runs directory: bind RUN_DIRECTORY to the RunDirectory class in wrangler.jsonc (durable_objects, and a migration with new_sqlite_classes: ["RunDirectory"]), export RunDirectory from the Worker\'s module, then deploy again. Runs created before it are listed once a request or an alarm reaches their objects.',
      });
    }
    const directory = this.#directory.get(this.#directory.idFromName(RUN_DIRECTORY_NAME));
    return directory.query(name, input as never) as Promise<ReadOutput<Reads[Name]>>;
  }

  async findAgent(runId: string, agentId: string): Promise<StoredAgent | undefined> {
    if (!isId("run", runId)) return undefined;
    return unwrap(this.object(runId).findAgent(runId, agentId));
  }

  /**
   * Claims in the run's object, and between claims waits there for the run's next event. The
   * claims are made from here, never inside the object for a caller that may be gone (a signal
   * does not cross RPC): every event of the run wakes every such wait, which claims again.
   */
  async claimNext(
    runId: string,
    agent: AgentIdentity,
    options: ClaimNextOptions,
  ): Promise<Contract.ClaimView | undefined> {
    const end = performance.now() + options.timeoutMs;
    for (;;) {
      const seq = options.timeoutMs > 0 ? await this.lastSeq(runId) : 0;
      const claim = await this.claim(runId, agent, undefined, options.limit);
      const remaining = end - performance.now();
      if (claim !== undefined || remaining <= 0 || options.signal?.aborted) return claim;
      await this.changed(runId, seq, { ...options, timeoutMs: remaining });
    }
  }

  /**
   * Waits in the run's object, which bounds the wait itself (a signal does not cross RPC); when
   * `signal` aborts first — the client went away — this answers false at once and the object's
   * wait runs out on its own.
   */
  async changed(runId: string, after: number, options: ChangedOptions): Promise<boolean> {
    const { signal } = options;
    if (signal?.aborted) return false;
    const waiting = unwrap(this.object(runId).changed(runId, after, options.timeoutMs));
    if (signal === undefined) return waiting;
    return new Promise<boolean>((resolve, reject) => {
      const onAbort = () => resolve(false);
      signal.addEventListener("abort", onAbort, { once: true });
      waiting.then(
        (changed) => {
          signal.removeEventListener("abort", onAbort);
          resolve(changed);
        },
        (error: unknown) => {
          signal.removeEventListener("abort", onAbort);
          reject(error);
        },
      );
    });
  }
}

/** The generated methods: every "run" method of the store list, the same call on the run's object. */
export interface DurableObjectStore extends Pick<DeliveryStore, RunMethod> {}
defineRunMethods(DurableObjectStore, (store, method, runId, args) =>
  unwrap(callMethod(store.object(runId), method, args) as Promise<Outcome<unknown>>),
);
