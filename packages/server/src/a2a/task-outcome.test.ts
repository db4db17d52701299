import { type Message, type Part, Role, type Task, TaskState } from "@a2a-js/sdk";
import { completeBody } from "@task-context/contract";
import type { WorkItem } from "@task-context/protocols";
import { describe, expect, it } from "vitest";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { checkBody, checkPart } from "../execution/check-input.ts";
import {
  messageOutcome,
  quotingReason,
  refusedResult,
  stateName,
  taskOutcome,
} from "./task-outcome.ts";

const sha = "a".repeat(64);
const base = {
  run_id: "run_1",
  stage_id: "draft",
  goal: "Launch Lumen",
  constraints: [],
  stage_context: { stage_description: "Write", expected_output: "Markdown", available_skills: [] },
  previous_artifacts: [],
  available_skills: [],
  attempt: 2,
  context_sha256: sha,
};
const taskItem = { ...base, id: "wi_1", kind: "task" } as unknown as WorkItem;
const reviewItem = {
  ...base,
  id: "wi_2",
  kind: "review",
  review_context: {
    target_artifact_id: "art_1",
    target_author_tag: "writer",
    review_criteria: ["clarity"],
  },
} as unknown as WorkItem;

const text = (value: string, mediaType = "text/markdown"): Part => ({
  content: { $case: "text", value },
  mediaType,
  filename: "",
  metadata: undefined,
});
const data = (value: unknown): Part => ({
  content: { $case: "data", value },
  mediaType: "application/json",
  filename: "",
  metadata: undefined,
});
const message = (parts: Part[]): Message => ({
  messageId: "m",
  contextId: "run_1",
  taskId: "t",
  role: Role.ROLE_AGENT,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const task = (state: TaskState, artifacts: Part[][] = [], said?: string): Task => ({
  id: "t",
  contextId: "run_1",
  status: {
    state,
    message: said === undefined ? undefined : message([text(said, "text/plain")]),
    timestamp: undefined,
  },
  artifacts: artifacts.map((parts, index) => ({
    artifactId: `a${index}`,
    name: index === 0 ? "The post" : "",
    description: "",
    parts,
    metadata: undefined,
    extensions: [],
  })),
  history: [],
  metadata: undefined,
});

describe("taskOutcome: what an A2A task's state means for its attempt", () => {
  it("submitted waits, working is a heartbeat", () => {
    expect(taskOutcome(task(TaskState.TASK_STATE_SUBMITTED), taskItem, 2)).toEqual({
      kind: "pending",
      working: false,
    });
    expect(taskOutcome(task(TaskState.TASK_STATE_WORKING), taskItem, 2)).toEqual({
      kind: "pending",
      working: true,
    });
  });

  it("completed with text parts: an artifact of their media type, titled with the artifact's name, quoting the receipt", () => {
    const done = task(TaskState.TASK_STATE_COMPLETED, [[text("# Lumen"), text("Bright.")]]);
    expect(taskOutcome(done, taskItem, 2)).toEqual({
      kind: "complete",
      body: {
        attempt: 2,
        context_sha256: sha,
        artifact: { media_type: "text/markdown", content: "# Lumen\nBright.", title: "The post" },
      },
    });
  });

  it("completed with a data part: the artifact it holds; for a review item, the review (from JSON text too)", () => {
    const artifact = { media_type: "text/plain", content: "Lumen" };
    expect(
      taskOutcome(task(TaskState.TASK_STATE_COMPLETED, [[data(artifact)]]), taskItem, 1),
    ).toEqual({
      kind: "complete",
      body: { attempt: 1, context_sha256: sha, artifact },
    });
    const review = {
      verdict: "approve",
      summary: "Clear",
      criteria: [{ criterion: "clarity", comment: "Clear" }],
    };
    const asText = task(TaskState.TASK_STATE_COMPLETED, [[text(JSON.stringify(review))]]);
    expect(taskOutcome(asText, reviewItem, 2)).toEqual({
      kind: "complete",
      body: { attempt: 2, context_sha256: sha, review },
    });
  });

  it("completed with nothing usable, or a result that is no completion: a failure that says why", () => {
    expect(taskOutcome(task(TaskState.TASK_STATE_COMPLETED), taskItem, 2)).toEqual({
      kind: "fail",
      reason: "The A2A task completed without an artifact.",
    });
    const review = task(TaskState.TASK_STATE_COMPLETED, [[data({ verdict: "great" })]]);
    // Not a completion: the operation refuses it (below), as it refuses one sent over HTTP.
    expect(taskOutcome(review, reviewItem, 2)).toEqual({
      kind: "complete",
      body: { attempt: 2, context_sha256: sha, review: { verdict: "great" } },
    });
  });

  it("input-required, auth-required, failed, rejected and canceled: failures with what the agent said", () => {
    expect(
      taskOutcome(task(TaskState.TASK_STATE_INPUT_REQUIRED, [], "Which lamp?"), taskItem, 2),
    ).toEqual({
      kind: "fail",
      reason:
        "The A2A agent stopped at input-required: Which lamp? (the service cannot answer it; the item goes back on offer).",
    });
    expect(taskOutcome(task(TaskState.TASK_STATE_AUTH_REQUIRED), taskItem, 2)).toEqual({
      kind: "fail",
      reason:
        "The A2A agent stopped at auth-required (the service cannot answer it; the item goes back on offer).",
    });
    for (const [state, name] of [
      [TaskState.TASK_STATE_FAILED, "failed"],
      [TaskState.TASK_STATE_REJECTED, "rejected"],
      [TaskState.TASK_STATE_CANCELED, "canceled"],
    ] as const) {
      expect(stateName(state)).toBe(name);
      expect(taskOutcome(task(state, [], "No."), taskItem, 2)).toEqual({
        kind: "fail",
        reason: `The A2A task ended ${name}: No.`,
      });
    }
  });

  it("a direct message is the result; an empty one is a failure", () => {
    expect(messageOutcome(message([text("Lumen", "text/plain")]), taskItem, 3)).toEqual({
      kind: "complete",
      body: {
        attempt: 3,
        context_sha256: sha,
        artifact: { media_type: "text/plain", content: "Lumen" },
      },
    });
    expect(messageOutcome(message([]), taskItem, 3)).toEqual({
      kind: "fail",
      reason: "The A2A agent answered with an empty message.",
    });
  });
});

/** The refusal `check` throws: what the completion operation answers the result with. */
function refusal(check: () => unknown): DeliveryError {
  try {
    check();
  } catch (error) {
    if (DeliveryError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("The check let the result through.");
}

describe("refusedResult: a result the completion operation's checks refuse, as the attempt's reason", () => {
  it("over the service's body limit: its size as a completion and the limit (PAYLOAD_TOO_LARGE)", () => {
    const body = {
      attempt: 2,
      context_sha256: sha,
      artifact: { media_type: "text/markdown", content: "x".repeat(100), title: "The post" },
    };
    const bytes = new TextEncoder().encode(JSON.stringify(body)).byteLength;
    expect(() => checkBody(body, undefined, bytes)).not.toThrow();
    const refused = refusal(() => checkBody(body, undefined, bytes - 1));
    expect(refused.code).toBe("PAYLOAD_TOO_LARGE");
    expect(refusedResult(refused, "task")).toBe(
      `The A2A task's result is ${bytes} bytes as a completion, over the service's limit of ${bytes - 1} bytes for one (PAYLOAD_TOO_LARGE, as for a completion sent over HTTP). Have the agent send less: store large content elsewhere and reference it.`,
    );
  });

  it("text that is not well-formed Unicode, each string at its pointer (INVALID_REQUEST)", () => {
    const body = { attempt: 2, artifact: { media_type: "text/plain", content: "\uDC00" } };
    expect(
      refusedResult(
        refusal(() => checkBody(body, undefined, 1024)),
        "task",
      ),
    ).toBe(
      "The A2A task's result holds text that is not well-formed Unicode (INVALID_REQUEST, as for a completion sent over HTTP). /artifact/content: The string contains a lone surrogate (U+DC00) at index 0: send well-formed Unicode text (a surrogate only as half of a pair).",
    );
  });

  it("a result that is no completion of its kind: what the schema says of each field", () => {
    const body = { attempt: 2, context_sha256: sha, review: { verdict: "great" } };
    expect(
      refusedResult(
        refusal(() => checkPart(completeBody, body, "request body")),
        "review",
      ),
    ).toBe(
      'The A2A task\'s result is not a valid review completion. review.verdict must be one of "approve", "request_changes" or "comment", not the string "great". review.summary is required: a string. review.criteria is required: an array, one entry per review criterion of the review context.',
    );
  });

  it("leaves any other refusal to the caller", () => {
    const lost = new DeliveryError({
      code: "LEASE_LOST",
      message: "Attempt 1 is no longer current.",
    });
    expect(refusedResult(lost, "task")).toBeUndefined();
  });
});

describe("quotingReason: a reason with the agent's words, or why they are left out", () => {
  it("quotes the words when the reason stays within 10 000 characters of well-formed text", () => {
    expect(quotingReason("It ended", "")).toBe("It ended");
    expect(quotingReason("It ended", "No.", " (retry)")).toBe("It ended: No. (retry)");
    expect(quotingReason("It ended", "x".repeat(9990))).toHaveLength(10_000);
  });

  it("leaves out words a failure's reason over HTTP could not carry, saying why", () => {
    expect(quotingReason("It ended", "x".repeat(9991))).toBe(
      "It ended; what it said (9991 characters) is not recorded: a failure's reason holds at most 10000 characters (INVALID_REQUEST, as for one sent over HTTP)",
    );
    expect(quotingReason("It ended", "a\uD800", ".")).toBe(
      "It ended; what it said is not recorded: it contains a lone surrogate (U+D800) at index 1 (INVALID_REQUEST, as for a failure's reason sent over HTTP).",
    );
  });
});
