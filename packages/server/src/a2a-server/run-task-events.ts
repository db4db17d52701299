import { type Artifact as A2aArtifact, type StreamResponse, TaskState } from "@a2a-js/sdk";
import type { CollaborationEvent } from "@task-context/protocols";
import { endsRun } from "../delivery/rules.ts";
import type { ServiceContext } from "../execution/service-context.ts";
import { a2aArtifactOf, agentMessage, runStatusText } from "./run-task.ts";

/** Events read at a time. */
const PAGE = 100;

/** A status update of the task `taskId`. */
function statusUpdate(
  taskId: string,
  state: TaskState,
  text: string,
  seq: number,
  at: string,
): StreamResponse {
  return {
    payload: {
      $case: "statusUpdate",
      value: {
        taskId,
        contextId: taskId,
        status: { state, message: agentMessage(taskId, `${taskId}-${seq}`, text), timestamp: at },
        metadata: { seq },
      },
    },
  };
}

/** The A2A state each event that ends a run's task sets. */
const finalStates = {
  "run.completed": TaskState.TASK_STATE_COMPLETED,
  "run.canceled": TaskState.TASK_STATE_CANCELED,
  "run.blocked": TaskState.TASK_STATE_FAILED,
} as const;

/**
 * A run's events after `after`, as updates of its A2A task `taskId`, until the run completes, is canceled or blocks (a
 * final status) or `signal` aborts: `working` when an item is leased (the first time) and when a
 * stage completes, each new artifact as an artifact update (its whole content, `lastChunk`),
 * `completed` at `run.completed`, `canceled` at `run.canceled`, `failed` at `run.blocked`. `sent` are the artifacts the task
 * already carried (not sent again). Waits for the run's changes as the event stream does, and
 * looks at it at least every `recheckMs`.
 */
export async function* runEvents(
  service: ServiceContext,
  runId: string,
  taskId: string,
  after: number,
  sent: readonly A2aArtifact[],
  signal: AbortSignal,
): AsyncGenerator<StreamResponse> {
  const { store, timing } = service;
  const artifacts = new Set(sent.map((artifact) => artifact.artifactId));
  let working = false;
  let last = after;
  while (!signal.aborted && !service.shutdown?.aborted) {
    const page = await store.events(runId, last, PAGE);
    for (const event of page.events as CollaborationEvent[]) {
      last = event.seq;
      const update = await updateOf(event);
      if (update === undefined) continue;
      yield update;
      if (endsRun(event.type) || event.type === "run.blocked") return;
    }
    if (page.events.length < PAGE) {
      await store.changed(runId, last, {
        timeoutMs: timing.recheckMs,
        ...(signal === undefined ? {} : { signal }),
      });
    }
  }

  async function updateOf(event: CollaborationEvent): Promise<StreamResponse | undefined> {
    switch (event.type) {
      case "work_item.leased":
        if (working) return undefined;
        working = true;
        return statusUpdate(
          taskId,
          TaskState.TASK_STATE_WORKING,
          `Agent "${event.agent_tag}" took work item ${event.work_item_id}.`,
          event.seq,
          event.at,
        );
      case "stage.completed":
        return statusUpdate(
          taskId,
          TaskState.TASK_STATE_WORKING,
          `Stage "${event.stage_id}" completed.`,
          event.seq,
          event.at,
        );
      case "artifact.created": {
        if (artifacts.has(event.artifact.artifact_id)) return undefined;
        artifacts.add(event.artifact.artifact_id);
        const artifact = await store.artifact(runId, event.artifact.artifact_id);
        return {
          payload: {
            $case: "artifactUpdate",
            value: {
              taskId,
              contextId: taskId,
              artifact: a2aArtifactOf(artifact),
              append: false,
              lastChunk: true,
              metadata: { seq: event.seq },
            },
          },
        };
      }
      case "run.completed":
      case "run.canceled":
      case "run.blocked": {
        const run = await store.getRun(runId);
        return statusUpdate(
          taskId,
          finalStates[event.type],
          runStatusText(run),
          event.seq,
          event.at,
        );
      }
      default:
        return undefined;
    }
  }
}
