import {
  type Artifact as A2aArtifact,
  type Message,
  Role,
  type Task,
  TaskState,
} from "@a2a-js/sdk";
import type { RunView } from "@task-context/contract";
import type { Artifact } from "@task-context/protocols";
import { dataPart, textPart } from "../a2a/a2a-parts.ts";
import type { RunOverview } from "../delivery/delivery-store.ts";

/**
 * The A2A state of a run: `completed` when it is; `canceled` when it was; `failed` when it is blocked (an item was
 * dead-lettered: an admin's requeue can resume it, see docs/a2a.md); `working` once any item was
 * ever leased (a requeued dead letter too); `submitted` before.
 */
export function runTaskState({ run, work_items }: RunOverview): TaskState {
  if (run.status === "completed") return TaskState.TASK_STATE_COMPLETED;
  if (run.status === "canceled") return TaskState.TASK_STATE_CANCELED;
  if (run.status === "blocked") return TaskState.TASK_STATE_FAILED;
  const started = work_items.some((item) => item.state !== "offered" || item.attempts.length > 0);
  return started ? TaskState.TASK_STATE_WORKING : TaskState.TASK_STATE_SUBMITTED;
}

/** Whether an A2A state ends the task. */
export function isFinalState(state: TaskState): boolean {
  return (
    state === TaskState.TASK_STATE_COMPLETED ||
    state === TaskState.TASK_STATE_FAILED ||
    state === TaskState.TASK_STATE_CANCELED ||
    state === TaskState.TASK_STATE_REJECTED
  );
}

/** The sentence a run's status says, e.g. `Stage 2 of 3 ("review") is running.` */
export function runStatusText(run: RunView): string {
  if (run.status === "completed") return `The run completed its ${run.stages.length} stage(s).`;
  if (run.status === "canceled") {
    const why = run.cancel_reason === undefined ? "" : ` (reason: ${run.cancel_reason})`;
    return `The run was canceled at ${run.canceled_at}${why}.`;
  }
  const index = run.stages.findIndex((stage) => stage.status === "active");
  const stage = run.stages[index];
  if (stage === undefined) return "The run is waiting for its first stage.";
  const where = `stage ${index + 1} of ${run.stages.length} ("${stage.id}")`;
  if (run.status === "blocked") {
    return `The run is blocked at ${where}: a work item was dead-lettered after ${run.max_attempts} attempt${run.max_attempts === 1 ? "" : "s"}. An admin's requeue (POST /v1/runs/${run.run_id}/work-items/{id}/requeue) resumes it.`;
  }
  return `The run is at ${where}: ${stage.counts.completed} of ${stage.counts.total} item(s) completed.`;
}

/** An agent's message with one text part, in the task's context (the task's id). */
export function agentMessage(taskId: string, messageId: string, text: string): Message {
  return {
    messageId,
    contextId: taskId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: [textPart(text, "text/plain")],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/**
 * A run's artifact as an A2A artifact: its id, its title (or `{stage_id} by {author_tag}`), one
 * part with its content in its media type (JSON content as a data part), and where it came from
 * in `metadata` (`stage_id`, `work_item_id`, `author_tag`, and `warning` when its content holds
 * passages posing as instructions).
 */
export function a2aArtifactOf(artifact: Artifact): A2aArtifact {
  let part = textPart(artifact.content, artifact.media_type);
  if (artifact.media_type === "application/json") {
    try {
      part = dataPart(JSON.parse(artifact.content));
    } catch {
      // Not JSON after all: kept as text, exactly as stored.
    }
  }
  return {
    artifactId: artifact.id,
    name: artifact.title ?? `${artifact.stage_id} by ${artifact.author_tag}`,
    description: "",
    parts: [part],
    metadata: {
      stage_id: artifact.stage_id,
      work_item_id: artifact.work_item_id,
      author_tag: artifact.author_tag,
      ...(artifact.warning === undefined ? {} : { warning: artifact.warning }),
    },
    extensions: [],
  };
}

/**
 * The A2A task `taskId` of a run: its state and status sentence (recorded `at`, the run's last
 * change), its artifacts; its context is its own id (a run is one task).
 */
export function taskOfRun(overview: RunOverview, taskId: string, at: string): Task {
  const { run } = overview;
  return {
    id: taskId,
    contextId: taskId,
    status: {
      state: runTaskState(overview),
      message: agentMessage(taskId, `${taskId}-status`, runStatusText(run)),
      timestamp: at,
    },
    artifacts: overview.artifacts.map(a2aArtifactOf),
    history: [],
    metadata: { run_id: run.run_id },
  };
}
