// What an A2A task's state means for its attempt: still working (a heartbeat), completed (a
// completion with the task's artifact or review), or given up (a failure with a reason). A result
// is applied as a polling agent's completion is, through the same operation: held to the same
// limits and refused as it would be over HTTP, with a reason that says which limit it broke.
import { type Artifact, type Message, type Part, type Task, TaskState } from "@a2a-js/sdk";
import { maxReasonLength } from "@task-context/contract";
import type { WorkItem } from "@task-context/protocols";
import type { DeliveryError } from "../delivery/delivery-error.ts";
import { loneSurrogateProblem } from "../http/lone-surrogates.ts";

/**
 * The limits an A2A task's result was held to here.
 *
 * @deprecated A result is held to the service's limits by the completion operation itself, as
 * every entry's request is (`taskOutcome` and `messageOutcome` no longer take limits); this type
 * goes in the next minor version.
 */
export interface OutcomeLimits {
  /** The largest completion, in bytes of its JSON. */
  bodyBytes: number;
}

/**
 * What an outcome needs of the work item: its kind (an artifact or a review) and the hash its
 * completion quotes back. A push notification after a restart has these from its stored row.
 */
export type OutcomeItem = Pick<WorkItem, "kind" | "context_sha256">;

/** What the service does with an attempt after an answer of its A2A task. */
export type AttemptOutcome =
  | { kind: "pending"; working: boolean }
  /** The completion the result makes, as an agent would send it (the operation checks it). */
  | { kind: "complete"; body: unknown }
  | { kind: "fail"; reason: string };

/** An outcome that ends the attempt: a completion or a failure. */
export type FinalOutcome = Exclude<AttemptOutcome, { kind: "pending" }>;

/** The A2A state as the protocol's JSON names it, for reasons: `input-required`, … */
export function stateName(state: TaskState): string {
  const name = TaskState[state] ?? "TASK_STATE_UNSPECIFIED";
  return name.replace("TASK_STATE_", "").toLowerCase().replaceAll("_", "-");
}

function partsText(parts: readonly Part[]): string {
  return parts
    .flatMap((part) => (part.content?.$case === "text" ? [part.content.value] : []))
    .join("\n");
}

function failed(reason: string): FinalOutcome {
  return { kind: "fail", reason };
}

/**
 * A reason that quotes the agent's words: `sentence: words end`. Words a failure's reason sent
 * over HTTP could not carry (not well-formed Unicode, or the reason over its 10 000 characters)
 * are refused as they would be there, and the reason says so instead of quoting them.
 */
export function quotingReason(sentence: string, words: string, end = ""): string {
  if (words === "") return `${sentence}${end}`;
  const problem = loneSurrogateProblem(words);
  if (problem !== undefined) {
    return `${sentence}; what it said is not recorded: it ${problem} (INVALID_REQUEST, as for a failure's reason sent over HTTP)${end}`;
  }
  const reason = `${sentence}: ${words}${end}`;
  if (reason.length <= maxReasonLength) return reason;
  return `${sentence}; what it said (${words.length} characters) is not recorded: a failure's reason holds at most ${maxReasonLength} characters (INVALID_REQUEST, as for one sent over HTTP)${end}`;
}

/** The first part of `parts` that is data, or text holding a JSON object, as a value. */
function dataOf(parts: readonly Part[]): unknown {
  for (const part of parts) {
    if (part.content?.$case === "data") return part.content.value;
  }
  const text = partsText(parts).trim();
  if (!text.startsWith("{")) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The completion body a task's result makes for `item`, or why it makes none. */
function completion(
  item: OutcomeItem,
  attempt: number,
  parts: readonly Part[],
  title: string,
): FinalOutcome {
  const receipt = { attempt, context_sha256: item.context_sha256 };
  if (item.kind === "review")
    return { kind: "complete", body: { ...receipt, review: dataOf(parts) } };
  const data = parts.find((part) => part.content?.$case === "data")?.content?.value;
  if (data !== undefined) return { kind: "complete", body: { ...receipt, artifact: data } };
  const text = parts.filter((part) => part.content?.$case === "text");
  if (text.length === 0) {
    return failed(
      "The A2A task completed with an artifact that has no text or data part (file parts are not accepted as an artifact's content).",
    );
  }
  const artifact = {
    media_type: text[0]?.mediaType || "text/plain",
    content: partsText(text),
    ...(title === "" ? {} : { title }),
  };
  return { kind: "complete", body: { ...receipt, artifact } };
}

/**
 * Why the service refused a result's completion, when a check of the request's input did (the
 * checks of any entry, in their order: its size, its text, its schema): the reason its attempt
 * fails with, naming the limit and the code a completion sent over HTTP gets. Undefined for
 * another refusal.
 */
export function refusedResult(error: DeliveryError, kind: WorkItem["kind"]): string | undefined {
  const { refused } = error;
  const issues = error.issues ?? [];
  switch (refused?.check) {
    case "body-size":
      return `The A2A task's result is ${refused.bytes} bytes as a completion, over the service's limit of ${refused.limit} bytes for one (PAYLOAD_TOO_LARGE, as for a completion sent over HTTP). Have the agent send less: store large content elsewhere and reference it.`;
    case "well-formed":
      return `The A2A task's result holds text that is not well-formed Unicode (INVALID_REQUEST, as for a completion sent over HTTP). ${issues.map((issue) => `${issue.path}: ${issue.message}`).join(" ")}`;
    case "schema":
      return `The A2A task's result is not a valid ${kind} completion. ${issues.map((issue) => issue.message).join(" ")}`;
    default:
      return undefined;
  }
}

/** A completed task's result: its last artifact with content, else its status message. */
function resultParts(task: Task): { parts: Part[]; title: string } | undefined {
  const artifact = [...task.artifacts].reverse().find((a: Artifact) => a.parts.length > 0);
  if (artifact !== undefined) return { parts: artifact.parts, title: artifact.name };
  const message = task.status?.message;
  if (message !== undefined && message.parts.length > 0) return { parts: message.parts, title: "" };
  return undefined;
}

/**
 * What `task` means for the attempt of `item`: submitted or working, pending (working is a
 * heartbeat); completed, a completion (one artifact for a task item, a review for a review
 * item), which the operation checks as a polling agent's; input-required or auth-required,
 * failed, rejected or canceled, a failure with the reason (the item goes back on offer, or to the
 * dead letters).
 */
export function taskOutcome(task: Task, item: OutcomeItem, attempt: number): AttemptOutcome {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  const said = task.status?.message === undefined ? "" : partsText(task.status.message.parts);
  switch (state) {
    case TaskState.TASK_STATE_SUBMITTED:
    case TaskState.TASK_STATE_UNSPECIFIED:
      return { kind: "pending", working: false };
    case TaskState.TASK_STATE_WORKING:
      return { kind: "pending", working: true };
    case TaskState.TASK_STATE_COMPLETED: {
      const result = resultParts(task);
      if (result === undefined) return failed("The A2A task completed without an artifact.");
      return completion(item, attempt, result.parts, result.title);
    }
    case TaskState.TASK_STATE_INPUT_REQUIRED:
    case TaskState.TASK_STATE_AUTH_REQUIRED:
      return failed(
        quotingReason(
          `The A2A agent stopped at ${stateName(state)}`,
          said,
          " (the service cannot answer it; the item goes back on offer).",
        ),
      );
    default:
      return failed(quotingReason(`The A2A task ended ${stateName(state)}`, said));
  }
}

/** An agent's direct answer without a task: its parts are the result, as a completed task's. */
export function messageOutcome(message: Message, item: OutcomeItem, attempt: number): FinalOutcome {
  if (message.parts.length === 0) return failed("The A2A agent answered with an empty message.");
  return completion(item, attempt, message.parts, "");
}
