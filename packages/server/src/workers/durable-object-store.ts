import type * as Contract from "@task-context/contract";
import type { WorkItem } from "@task-context/protocols";
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
   * Claims in the run's object, waiting there in the run's claim-next line (an offer wakes one
   * waiter per item). When `signal` aborts first — the client went away — this answers nothing at
   * once and tells the object, whose wait then ends and passes its place on.
   */
  async claimNext(
    runId: string,
    agent: AgentIdentity,
    options: ClaimNextOptions,
  ): Promise<Contract.ClaimView | undefined> {
    return this.#inObject(runId, options, undefined, (object, wait) =>
      object.claimNext(runId, agent, { ...wait, limit: options.limit }),
    );
  }

  /**
   * `poll` with `wait`, in the run's object: answered once there are offers for `agent` (the
   * run's other changes are looked at there), or the wait ends; an abort as for `claimNext`.
   */
  async waitForOffers(
    runId: string,
    agent: AgentIdentity,
    { limit, recheckMs }: { limit: number; recheckMs: number },
    options: ChangedOptions,
  ): Promise<WorkItem[]> {
    return this.#inObject(runId, options, [], (object, wait) =>
      object.waitForOffers(runId, agent, { ...wait, limit, recheckMs }),
    );
  }

  /**
   * A wait in the run's object, named by a new id: when `options.signal` aborts first — the
   * client went away — answers `aborted` at once and tells the object, whose wait then ends.
   */
  async #inObject<T>(
    runId: string,
    { signal, timeoutMs }: ChangedOptions,
    aborted: T,
    call: (
      object: DurableObjectStub<RunObject>,
      wait: { waitId: string; timeoutMs: number },
    ) => Promise<Outcome<T>>,
  ): Promise<T> {
    const object = this.object(runId);
    const waitId = crypto.randomUUID();
    const answer = unwrap(call(object, { waitId, timeoutMs: signal?.aborted ? 0 : timeoutMs }));
    if (signal === undefined || signal.aborted) return answer;
    return unlessAborted(answer, signal, aborted, () => {
      object.abandon(waitId).catch(() => {
        // The object's wait then ends at its own time, bounded there.
      });
    });
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
    return unlessAborted(waiting, signal, false);
  }
}

/**
 * `answer`, or `aborted` at once when `signal` aborts first (`onAbort` is then told); the
 * answer that comes later is dropped.
 */
function unlessAborted<T>(
  answer: Promise<T>,
  signal: AbortSignal,
  aborted: T,
  onAbort?: () => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      resolve(aborted);
      onAbort?.();
    };
    signal.addEventListener("abort", abort, { once: true });
    answer.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

/** The generated methods: every "run" method of the store list, the same call on the run's object. */
export interface DurableObjectStore extends Pick<DeliveryStore, RunMethod> {}
defineRunMethods(DurableObjectStore, (store, method, runId, args) =>
  unwrap(callMethod(store.object(runId), method, args) as Promise<Outcome<unknown>>),
);
