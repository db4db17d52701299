import { type Message, type Part, Role, TaskState } from "@a2a-js/sdk";
import {
  AgentEvent,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from "@a2a-js/sdk/server";
import { withTraceContext } from "@task-context/core/tracing";
import type { WorkItem } from "@task-context/protocols";
import { textPart } from "./a2a-parts.ts";
import { readWorkItemMessage } from "./read-work-item-message.ts";
import type { AttemptMetadata } from "./work-item-message.ts";

/**
 * What an agent answers a work item with: a Markdown text, or the artifact's parts — a text part
 * (its media type is the artifact's), or for a review a data part `{ verdict, summary, criteria }`
 * (`textPart`, `dataPart`).
 */
export type WorkItemResult = string | readonly Part[];

/** One A2A task of a work-item agent: one attempt of one work item, and the ways to answer it. */
export interface WorkItemTask {
  /** The work item (work-item.v1, as a polling agent receives it), checked against its schema. */
  readonly item: WorkItem;
  /** The attempt (1, 2, …): each attempt of an item is a new task; a retry has the next one. */
  readonly attempt: number;
  /** The message's `task_context` metadata: the run, the item, the attempt, its receipt and trace. */
  readonly metadata: AttemptMetadata;
  /** The text part: the item's context rendered for a model, `[Task Context]` then `[Request]`. */
  readonly text: string;
  /** The earlier artifacts' URLs (the url parts), under the service's origin. */
  readonly artifactUrls: readonly string[];
  /** The message the service sent. */
  readonly message: Message;
  /** The A2A task's id. */
  readonly taskId: string;
  /** The A2A context's id: the run's id. */
  readonly contextId: string;
  /**
   * Aborted when the service cancels the task (it gave the attempt up: its lease ran out) or the
   * agent closes. Pass it to the calls the work makes (`fetch`, the AI SDK's `abortSignal`).
   */
  readonly signal: AbortSignal;
  /** The official SDK's event bus of the task, for events the methods below do not publish. */
  readonly bus: ExecutionEventBus;
  /**
   * Publishes the `working` state. The service renews the item's lease at each one: call it while
   * a long work goes on, at least every half `lease_ms` (it gives a silent attempt up a quarter of
   * `lease_ms` before its lease ends).
   */
  working(): void;
  /**
   * Publishes `result` as the task's artifact, titled `title` (default `{stage_id} by {agent
   * name}`), then the `completed` state: the service completes the work item with it. Returning
   * the result from `execute` does the same.
   */
  complete(result: WorkItemResult, options?: { title?: string }): void;
  /**
   * Ends the task in `state` (`TaskState.TASK_STATE_FAILED`, `…_REJECTED`, …) with what the agent
   * says, if anything: the service fails the attempt with it as the reason, and the item goes back
   * on offer (a dead letter after its `max_attempts`).
   */
  finish(state: TaskState, said?: string): void;
}

/** What {@link WorkItemExecutor} does with each work item. */
export interface WorkItemExecutorOptions {
  /** The agent's name, as on its card: its artifacts' default title is `{stage_id} by {name}`. */
  name: string;
  /**
   * Does the work of one task. What it returns (a {@link WorkItemResult}) completes the task
   * unless it was already answered (`complete`, `finish`) or canceled; `undefined` leaves it as
   * it is. A throw fails the task with the error's message (the official SDK's handling).
   */
  execute(task: WorkItemTask): WorkItemResult | undefined | Promise<WorkItemResult | undefined>;
}

/** A status update of the task, with an agent message when `said` is given. */
function statusUpdate(taskId: string, contextId: string, state: TaskState, said?: string) {
  const message: Message | undefined =
    said === undefined
      ? undefined
      : {
          messageId: crypto.randomUUID(),
          contextId,
          taskId,
          role: Role.ROLE_AGENT,
          parts: [textPart(said, "text/plain")],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        };
  return AgentEvent.statusUpdate({
    taskId,
    contextId,
    status: { state, timestamp: new Date().toISOString(), message },
    metadata: undefined,
  });
}

/**
 * An `AgentExecutor` of the official A2A SDK (`@a2a-js/sdk/server`) that works task-context work
 * items: for each message it creates the task, reads the work item (a message that carries none
 * is `rejected`, saying what is missing), and runs `execute` with a {@link WorkItemTask}, in the
 * trace of the item's run. A cancel aborts the task's `signal` and ends it `canceled`. Give it to
 * a `DefaultRequestHandler` with the card of {@link workItemAgentCard}, or let
 * {@link startWorkItemAgent} do it all.
 */
export class WorkItemExecutor implements AgentExecutor {
  readonly #options: WorkItemExecutorOptions;
  /** The open tasks, by id: what cancels them. */
  readonly #open = new Map<string, { abort: AbortController; cancel(): void }>();
  #closed = false;

  constructor(options: WorkItemExecutorOptions) {
    this.#options = options;
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { userMessage: message, taskId, contextId } = context;
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_SUBMITTED,
          timestamp: new Date().toISOString(),
          message: undefined,
        },
        artifacts: [],
        history: [message],
        metadata: message.metadata,
      }),
    );
    const received = readWorkItemMessage(message);
    if ("refusal" in received) {
      bus.publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_REJECTED, received.refusal));
      bus.finished();
      return;
    }
    const { item, metadata } = received;
    const abort = new AbortController();
    // Answered: complete or finish published, or canceled; canceled: nothing more is published.
    let answered = false;
    let canceled = false;
    const publish = (event: Parameters<ExecutionEventBus["publish"]>[0]) => {
      if (!canceled) bus.publish(event);
    };
    const task: WorkItemTask = {
      ...received,
      attempt: metadata.attempt,
      message,
      taskId,
      contextId,
      signal: abort.signal,
      bus,
      working: () => publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_WORKING)),
      complete: (result, options) => {
        answered = true;
        publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: {
              artifactId: crypto.randomUUID(),
              name: options?.title ?? `${item.stage_id} by ${this.#options.name}`,
              description: "",
              parts: typeof result === "string" ? [textPart(result)] : [...result],
              metadata: undefined,
              extensions: [],
            },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
        publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_COMPLETED));
      },
      finish: (state, said) => {
        answered = true;
        publish(statusUpdate(taskId, contextId, state, said));
      },
    };
    this.#open.set(taskId, {
      abort,
      cancel: () => {
        if (canceled) return;
        bus.publish(statusUpdate(taskId, contextId, TaskState.TASK_STATE_CANCELED));
        answered = canceled = true;
        abort.abort(new Error(`The service canceled A2A task ${taskId}.`));
      },
    });
    if (this.#closed) abort.abort(new Error("The agent closed."));
    try {
      const { traceparent, tracestate } = metadata; // the run's trace, when it has one
      const result = await withTraceContext({ traceparent, tracestate }, () =>
        this.#options.execute(task),
      );
      if (result !== undefined && !answered) task.complete(result);
    } finally {
      this.#open.delete(taskId);
    }
    bus.finished();
  }

  /** Cancels an open task: its `signal` is aborted, and it ends `canceled`. */
  async cancelTask(taskId: string): Promise<void> {
    this.#open.get(taskId)?.cancel();
  }

  /**
   * Aborts the `signal` of every open task, and of every task that starts later: the agent is
   * going away. The tasks are not ended; the service gives their attempts up as for an agent that
   * stopped answering.
   */
  close(): void {
    this.#closed = true;
    for (const { abort } of this.#open.values()) abort.abort(new Error("The agent closed."));
  }
}
