import { requireObject, sha256Hex } from "@task-context/core/internal";
import type { StageContext } from "./schemas/stage-context.ts";
import type { WorkItem } from "./schemas/work-item.ts";

/**
 * The run context a work item is built from: the run's goal and constraints and the item's stage
 * context. A whole {@link WorkItem} is one; its other fields are not part of the run context.
 */
export type RunContext = Pick<WorkItem, "goal" | "constraints"> & {
  stage_context: Pick<
    StageContext,
    "stage_description" | "expected_output" | "available_skills" | "background"
  >;
};

/**
 * The canonical JSON text of a run context, the bytes {@link runContextSha256} hashes: exactly
 * `goal`, `constraints` and `stage_context` (its `stage_description`, `expected_output`,
 * `available_skills` and, when present, `background`) — nothing else of the item — with every
 * object's keys in sorted order, arrays in their order, no whitespace, strings escaped as
 * `JSON.stringify` escapes them. For these string-only values that is the JSON Canonicalization
 * Scheme (RFC 8785), so any language can recompute it.
 *
 * @example
 * ```ts source="../examples/run-context.ts#renderRunContext"
 * renderRunContext({
 *   goal: "Launch Lumen",
 *   constraints: ["Plain words"],
 *   stage_context: {
 *     stage_description: "Write the copy",
 *     expected_output: "Markdown",
 *     available_skills: [],
 *   },
 * });
 * // '{"constraints":["Plain words"],"goal":"Launch Lumen","stage_context":{"available_skills":[],"expected_output":"Markdown","stage_description":"Write the copy"}}'
 * ```
 */
export function renderRunContext(context: RunContext): string {
  const { goal, constraints, stage_context: stage } = requireObject("context", context);
  const { stage_description, expected_output, available_skills, background } = requireObject(
    "context.stage_context",
    stage,
  );
  // Keys written in sorted order; JSON.stringify keeps insertion order and drops undefined.
  return JSON.stringify({
    constraints,
    goal,
    stage_context: { available_skills, background, expected_output, stage_description },
  });
}

/**
 * The receipt of a run context: the hex SHA-256 of the UTF-8 bytes of
 * {@link renderRunContext}'s text. The delivery service puts it on every work item as
 * `context_sha256` and compares a completion's quote with it; the same function on Node, Bun,
 * Deno and Workers.
 *
 * @example
 * ```ts source="../examples/run-context.ts#runContextSha256"
 * const item = await claimWorkItem(); // a work item from the delivery service
 * (await runContextSha256(item)) === item.context_sha256; // true
 * ```
 */
export async function runContextSha256(context: RunContext): Promise<string> {
  return sha256Hex(renderRunContext(context));
}
