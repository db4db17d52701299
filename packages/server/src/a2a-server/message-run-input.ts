import type { Message } from "@a2a-js/sdk";
import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { type CreateRunInput, createRunBody } from "@task-context/contract";
import type { ValidationIssue } from "@task-context/protocols";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { checkPart } from "../execution/check-input.ts";

/** The metadata that marks a text part as a constraint of the run, not a line of its goal. */
export const CONSTRAINT_MARK = { task_context: "constraint" } as const;

/**
 * An A2A error (`-32602`, invalid params) whose message names each issue and whose metadata
 * carries the service's error code and the issues as JSON: nothing was created.
 */
export function invalidRunError(code: string, message: string, issues: readonly ValidationIssue[]) {
  // Each issue's message names its field (`stages[0].id is required: …`).
  const listed = issues.map((issue) => issue.message).join(" ");
  return new RequestMalformedError({
    message: issues.length === 0 ? message : `${message} ${listed}`,
    metadata: { code, issues: JSON.stringify(issues) },
  });
}

/** Whether a part's metadata marks it as a constraint. */
function isConstraint(metadata: Message["parts"][number]["metadata"]): boolean {
  return metadata?.task_context === CONSTRAINT_MARK.task_context;
}

/**
 * The run a message asks for: its text parts are the goal (joined by a blank line; a part marked
 * {@link CONSTRAINT_MARK} is a constraint), its one data part holds the stages (and optionally
 * `constraints`, `lease_ms`, `max_attempts`, and a `goal` when no text part gives one). The whole
 * is checked against the run schema (`createRunBody`); a message it does not satisfy is refused
 * with an A2A invalid-params error naming each issue.
 */
export function runInputOfMessage(message: Message): CreateRunInput {
  const goal: string[] = [];
  const constraints: string[] = [];
  const data: unknown[] = [];
  for (const [index, part] of message.parts.entries()) {
    const content = part.content;
    if (content?.$case === "text") {
      (isConstraint(part.metadata) ? constraints : goal).push(content.value);
    } else if (content?.$case === "data") {
      data.push(content.value);
    } else {
      throw invalidRunError(
        "INVALID_REQUEST",
        `Part ${index} is a ${content?.$case ?? "empty"} part: the service reads text parts (the goal, or a constraint) and one data part (the stages).`,
        [],
      );
    }
  }
  if (data.length > 1) {
    throw invalidRunError(
      "INVALID_REQUEST",
      `The message has ${data.length} data parts: send the stages in one.`,
      [],
    );
  }
  const fields = data[0] ?? {};
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    throw invalidRunError(
      "INVALID_REQUEST",
      "The data part must be a JSON object with the run's stages (see the run schema, create-run).",
      [],
    );
  }
  const given = fields as Record<string, unknown>;
  const body: Record<string, unknown> = { ...given };
  if (goal.length > 0) body.goal = goal.join("\n\n");
  if (constraints.length > 0 || given.constraints === undefined) {
    body.constraints = [
      ...(Array.isArray(given.constraints) ? given.constraints : []),
      ...constraints,
    ];
  }
  try {
    return checkPart(createRunBody, body, "run") as CreateRunInput;
  } catch (error) {
    if (DeliveryError.isInstance(error)) {
      throw invalidRunError(
        "INVALID_REQUEST",
        "The message does not describe a run the service can create (text parts: the goal; a data part: the stages). Fix the issues listed:",
        error.issues ?? [],
      );
    }
    throw error;
  }
}
