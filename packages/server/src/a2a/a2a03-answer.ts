// What the service cannot read in an A2A 0.3 agent's answer once the official SDK translated it.
// The SDK's 0.3 transports translate leniently: a task without an id keeps none, and a state 0.3
// does not name (or a status that is not an object) becomes TASK_STATE_UNSPECIFIED, which a 1.0
// agent never sends for a task it runs — the attempt would wait on it until its lease ran out.
// Such an answer fails the attempt at once, saying what was wrong.
import {
  type Message,
  type Task,
  type TaskArtifactUpdateEvent,
  TaskState,
  type TaskStatusUpdateEvent,
} from "@a2a-js/sdk";

/** An answer of a 0.3 agent's, in the SDK's 1.0 types. */
export type A2a03Answer = Task | Message | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

const STATES =
  "submitted, working, input-required, completed, canceled, failed, rejected, auth-required";

function stateProblem(state: TaskState | undefined, what: string): string | undefined {
  return state === undefined || state === TaskState.TASK_STATE_UNSPECIFIED
    ? `${what} whose status.state the service cannot act on (it acts on ${STATES}; not on "unknown", a state A2A 0.3 does not name, or a status that is not an object)`
    : undefined;
}

/**
 * What is wrong with `answer` (a task, message or stream event of a 0.3 agent's, as the SDK
 * translated it), as the end of a reason's sentence; undefined when the service can read it.
 */
export function a2a03AnswerProblem(answer: A2a03Answer): string | undefined {
  if ("messageId" in answer) return undefined; // the SDK checked its id, role and parts
  if ("artifact" in answer) {
    return Array.isArray(answer.artifact?.parts)
      ? undefined
      : "an artifact-update event without an artifact's parts";
  }
  if ("taskId" in answer) return stateProblem(answer.status?.state, "a status-update event");
  if (typeof answer.id !== "string" || answer.id === "") return "a task without an id";
  return stateProblem(answer.status?.state, `a task (${JSON.stringify(answer.id)})`);
}
