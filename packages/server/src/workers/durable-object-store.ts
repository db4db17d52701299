import type { Artifact, WorkItem } from "@task-context/protocols";
import type * as Contract from "../contract/schemas.ts";
import { runNotFound } from "../delivery/delivery-error.ts";
import type {
  ChangedOptions,
  DeliveryStore,
  RunOverview,
  StoredAgent,
} from "../delivery/delivery-store.ts";
import { isId } from "../delivery/ids.ts";
import { unwrap } from "./outcome.ts";
import type { RunObject } from "./run-object.ts";

/**
 * The {@link DeliveryStore} of the router Worker: each call goes to its run's Durable Object
 * (`idFromName(runId)`, Workers RPC), whose answer carries a refusal as data, thrown here again
 * as a `DeliveryError`. An id that is not a run's gets `RUN_NOT_FOUND` without reaching any
 * object, so garbage never creates one.
 */
export class DurableObjectStore implements DeliveryStore {
  readonly #runs: DurableObjectNamespace<RunObject>;

  constructor(runs: DurableObjectNamespace<RunObject>) {
    this.#runs = runs;
  }

  /** The object of a run; `RUN_NOT_FOUND` for an id that is not a run id. */
  object(runId: string): DurableObjectStub<RunObject> {
    if (!isId("run", runId)) throw runNotFound(runId);
    return this.#runs.get(this.#runs.idFromName(runId));
  }

  async createRun(runId: string, input: Contract.CreateRunInput): Promise<Contract.RunView> {
    return unwrap(this.object(runId).createRun(runId, input));
  }

  async getRun(runId: string): Promise<Contract.RunView> {
    return unwrap(this.object(runId).getRun(runId));
  }

  async addAgent(runId: string, agent: StoredAgent): Promise<void> {
    return unwrap(this.object(runId).addAgent(runId, agent));
  }

  async findAgent(runId: string, agentId: string): Promise<StoredAgent | undefined> {
    if (!isId("run", runId)) return undefined;
    return unwrap(this.object(runId).findAgent(runId, agentId));
  }

  async offers(...args: Parameters<DeliveryStore["offers"]>): Promise<WorkItem[]> {
    return unwrap(this.object(args[0]).offers(...args));
  }

  async claim(
    ...args: Parameters<DeliveryStore["claim"]>
  ): Promise<Contract.ClaimView | undefined> {
    return unwrap(this.object(args[0]).claim(...args));
  }

  async heartbeat(
    ...args: Parameters<DeliveryStore["heartbeat"]>
  ): Promise<Contract.HeartbeatView> {
    return unwrap(this.object(args[0]).heartbeat(...args));
  }

  async complete(...args: Parameters<DeliveryStore["complete"]>): Promise<Contract.CompletionView> {
    return unwrap(this.object(args[0]).complete(...args));
  }

  async fail(...args: Parameters<DeliveryStore["fail"]>): Promise<Contract.FailureView> {
    return unwrap(this.object(args[0]).fail(...args));
  }

  async deadLetters(runId: string): Promise<Contract.DeadLetter[]> {
    return unwrap(this.object(runId).deadLetters(runId));
  }

  async requeue(runId: string, workItemId: string): Promise<WorkItem> {
    return unwrap(this.object(runId).requeue(runId, workItemId));
  }

  async artifact(runId: string, artifactId: string): Promise<Artifact> {
    return unwrap(this.object(runId).artifact(runId, artifactId));
  }

  async overview(runId: string): Promise<RunOverview> {
    return unwrap(this.object(runId).overview(runId));
  }

  async events(runId: string, after: number, limit: number): Promise<Contract.EventPage> {
    return unwrap(this.object(runId).events(runId, after, limit));
  }

  async lastSeq(runId: string): Promise<number> {
    return unwrap(this.object(runId).lastSeq(runId));
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

  async expireLeases(runId: string): Promise<void> {
    return unwrap(this.object(runId).expireLeases(runId));
  }
}
