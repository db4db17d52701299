// One lease attempt of one work item, carried out by an A2A agent as its own A2A task: the
// message sent, the task followed (its stream, or tasks/get), and its outcome applied to the
// store as the agent's heartbeat, completion or failure — the operations a polling agent calls.
import type { Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { Client, RequestOptions } from "@a2a-js/sdk/client";
import type { Artifact, WorkItem } from "@task-context/protocols";
import type { ClaimView } from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { AgentIdentity, DeliveryStore } from "../delivery/delivery-store.ts";
import { idempotencyKeyOf } from "../http/idempotency.ts";
import { type AttemptOutcome, messageOutcome, taskOutcome } from "./task-outcome.ts";
import { sendRequest, workItemMessage } from "./work-item-message.ts";

/** How an attempt ended, as the dispatcher counts it. */
export type AttemptResult =
  /** Completed: the item's artifact or review is stored. */
  | "completed"
  /** Failed with a reason: the item is on offer again, or a dead letter. */
  | "failed"
  /** The store refused it as stale: another attempt holds the item, or it is done. */
  | "stale"
  /** Nothing came before the lease (and its grace) ended: the lease expires in the store. */
  | "abandoned";

/** What one attempt needs. */
export interface AttemptInput {
  store: DeliveryStore;
  runId: string;
  agent: AgentIdentity;
  client: Client;
  claim: ClaimView;
  /** The run's lease length: heartbeats renew it; silence past it (and as long again) ends. */
  leaseMs: number;
  /** Follow the task's stream (the card offers streaming), or poll tasks/get. */
  streaming: boolean;
  pollIntervalMs: number;
  /** The service's own origin, for earlier artifacts' URIs. */
  serviceUrl: string | undefined;
  /** Aborts when the dispatcher stops. */
  signal: AbortSignal;
  /** Counts each heartbeat sent. */
  onHeartbeat?: () => void;
  /** The store's clock (ms since the epoch): lease expiries are read with it. */
  clock: () => number;
}

/** The A2A task of one attempt as the service knows it: what the agent said so far. */
class TaskSnapshot {
  task: Task | undefined;

  /** Applies one stream event; false when it is about another task (ignored). */
  apply(event: Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent): boolean {
    if ("id" in event) {
      this.task = event;
      return true;
    }
    if (this.task === undefined || event.taskId !== this.task.id) return false;
    if ("status" in event) this.task.status = event.status;
    else if (event.artifact !== undefined) this.#artifact(event);
    return true;
  }

  #artifact({ artifact, append }: TaskArtifactUpdateEvent): void {
    const task = this.task as Task;
    if (artifact === undefined) return;
    const index = task.artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
    const known = task.artifacts[index];
    if (known === undefined) task.artifacts.push(artifact);
    else
      task.artifacts[index] = append
        ? { ...known, parts: [...known.parts, ...artifact.parts] }
        : artifact;
  }
}

/** The run's trace context as the headers of each A2A request. */
function traceHeaders(trace: WorkItem["trace_context"]): Record<string, string> {
  if (trace === undefined) return {};
  const { traceparent, tracestate } = trace;
  return tracestate === undefined ? { traceparent } : { traceparent, tracestate };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * Carries out one attempt: sends its message (the reviewed artifact fenced into it for a review),
 * follows the task until it completes, fails or needs input, heartbeating on `working`, and
 * applies the outcome with the message id as the idempotency key. Anything said after the lease
 * passed to another attempt is refused by the store (`stale`): the fencing A2A lacks.
 */
export async function runAttempt(input: AttemptInput): Promise<AttemptResult> {
  const { store, runId, agent, claim, client } = input;
  const item = claim.work_item;
  const { attempt } = claim.lease;
  const reviewed =
    item.kind === "review"
      ? await store.artifact(runId, item.review_context.target_artifact_id).catch(() => undefined)
      : undefined;
  const message = workItemMessage(claim, {
    serviceUrl: input.serviceUrl,
    reviewed: reviewed as Artifact | undefined,
  });

  // The attempt's deadline: the lease's end, renewed by heartbeats, plus one lease of grace
  // for a late answer (the store refuses it if another attempt holds the item by then).
  let leaseEnds = Date.parse(claim.lease.expires_at);
  const { clock } = input;
  let lastBeat = clock();
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  input.signal.addEventListener("abort", onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => stop.abort(), Math.max(0, leaseEnds + input.leaseMs - clock()));
  };
  arm();
  const options: RequestOptions = {
    signal: stop.signal,
    serviceParameters: traceHeaders(item.trace_context),
  };

  const settle = async (outcome: Exclude<AttemptOutcome, { kind: "pending" }>) => {
    try {
      if (outcome.kind === "complete") {
        const key = await idempotencyKeyOf(message.messageId, "complete", item.id, outcome.body);
        try {
          await store.complete(runId, agent, item.id, outcome.body, key);
          return "completed";
        } catch (error) {
          // Refused by the rules (a review of the wrong artifact, …): the attempt fails with why.
          if (!DeliveryError.isInstance(error) || error.status !== 422) throw error;
          outcome = {
            kind: "fail",
            reason: `The service refused the A2A task's result: ${error.message}`,
          };
        }
      }
      const body = { attempt, reason: outcome.reason };
      await store.fail(
        runId,
        agent,
        item.id,
        body,
        await idempotencyKeyOf(message.messageId, "fail", item.id, body),
      );
      return "failed";
    } catch (error) {
      if (DeliveryError.isInstance(error) && error.status === 409) return "stale";
      throw error;
    }
  };
  const beat = async (working: boolean) => {
    if (!working || clock() - lastBeat < input.leaseMs / 4) return;
    lastBeat = clock();
    const extended = await store.heartbeat(runId, agent, item.id, attempt).catch((error) => {
      if (DeliveryError.isInstance(error) && error.status === 409) return undefined;
      throw error;
    });
    if (extended === undefined) return;
    input.onHeartbeat?.();
    leaseEnds = Date.parse(extended.expires_at);
    arm();
  };

  const snapshot = new TaskSnapshot();
  /** What the task said when last polled: a heartbeat needs news, not the same `working` again. */
  let lastSaid: string | undefined;
  const decide = async (polled: boolean): Promise<AttemptResult | undefined> => {
    const { task } = snapshot;
    if (task === undefined) return undefined;
    const outcome = taskOutcome(task, item, attempt);
    if (outcome.kind === "pending") {
      // A streamed update is news; a polled task is only when its status (by its timestamp) or
      // its artifacts changed: an agent stuck in `working` does not hold the item for ever.
      const said = `${task.status?.state}|${task.status?.timestamp}|${task.artifacts.length}`;
      const news = !polled || (said !== lastSaid && task.status?.timestamp !== undefined);
      lastSaid = said;
      await beat(outcome.working && news);
      return undefined;
    }
    return settle(outcome);
  };

  try {
    if (input.streaming) {
      try {
        for await (const event of client.sendMessageStream(sendRequest(message, false), options)) {
          const payload = event.payload;
          if (payload === undefined) continue;
          if (payload.$case === "message") {
            const outcome = messageOutcome(payload.value as Message, item, attempt);
            if (outcome.kind !== "pending") return await settle(outcome);
            continue;
          }
          if (!snapshot.apply(payload.value)) continue;
          const result = await decide(false);
          if (result !== undefined) return result;
        }
      } catch (error) {
        if (stop.signal.aborted) return "abandoned";
        if (DeliveryError.isInstance(error)) throw error;
        // The stream broke (the agent went away mid-stream): poll the task if it was created.
        if (snapshot.task === undefined) {
          return await settle({
            kind: "fail",
            reason: `The A2A agent could not be reached: ${(error as Error).message}`,
          });
        }
      }
      if (snapshot.task === undefined) {
        return await settle({
          kind: "fail",
          reason: "The A2A agent's stream ended before it created a task.",
        });
      }
    } else {
      let answer: Task | Message;
      try {
        answer = (await client.sendMessage(sendRequest(message, true), options)) as Task | Message;
      } catch (error) {
        if (stop.signal.aborted) return "abandoned";
        return await settle({
          kind: "fail",
          reason: `The A2A agent could not be reached: ${(error as Error).message}`,
        });
      }
      if (!("id" in answer)) {
        const outcome = messageOutcome(answer, item, attempt);
        return outcome.kind === "pending" ? "abandoned" : await settle(outcome);
      }
      snapshot.apply(answer);
      const result = await decide(true);
      if (result !== undefined) return result;
    }
    // Poll the task until it settles or the deadline passes.
    const id = (snapshot.task as Task).id;
    while (!stop.signal.aborted) {
      await sleep(input.pollIntervalMs, stop.signal);
      if (stop.signal.aborted) break;
      const task = await client.getTask({ tenant: "", id }, options).catch(() => undefined);
      if (task === undefined) continue;
      snapshot.apply(task);
      const result = await decide(true);
      if (result !== undefined) return result;
    }
    return "abandoned";
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    input.signal.removeEventListener("abort", onAbort);
    if (stop.signal.aborted && snapshot.task !== undefined && !input.signal.aborted) {
      // Past the deadline: ask the agent to stop (best effort; most agents ignore it). Not
      // awaited: an agent may hold the request until the task ends, and the slot moves on; it
      // is given up after 5 s, or at once when the dispatcher stops.
      const signal = AbortSignal.any([input.signal, AbortSignal.timeout(5000)]);
      client
        .cancelTask({ tenant: "", id: snapshot.task.id, metadata: undefined }, { signal })
        .catch(() => undefined);
    }
  }
}
