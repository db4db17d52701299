import { thrownMessage } from "@task-context/core/internal";
import { type ValidationIssue, validate } from "@task-context/protocols";
import type { SubagentOutput } from "@task-context/protocols/sage";

/** Longest JSON text accepted as a subagent's output (1 MiB of UTF-16 units). */
export const MAX_OUTPUT_TEXT = 1_048_576;

/** A runner's output, checked against the subagent output format. */
export type InterpretedOutput =
  | { valid: true; output: SubagentOutput }
  | { valid: false; problem: string; issues: ValidationIssue[] };

/** The TypeScript names of SubagentResult, accepted for the subagent output format's wire names. */
const WIRE_NAMES: Readonly<Record<string, string>> = {
  filesModified: "files-modified",
  recommendedAction: "recommended-action",
  contextSha256: "context-sha256",
};

/**
 * An output written with the result's camelCase names (`filesModified`, `recommendedAction`,
 * `contextSha256`) in
 * the subagent output format's wire names, so an in-process subagent may answer in either; a value
 * that uses both names for one field is left as it is and fails validation.
 */
function toWireNames(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value).map(([key, field]) => {
    const wire = WIRE_NAMES[key];
    return wire !== undefined && !Object.hasOwn(value, wire) ? [wire, field] : [key, field];
  });
  return Object.fromEntries(entries);
}

/**
 * Accepts an object in the subagent output format (wire names, or the result's camelCase names),
 * or the JSON text of one. Never throws: anything else — also an object whose getters throw — is
 * `{ valid: false }` with the issues found.
 */
export function interpretOutput(output: unknown): InterpretedOutput {
  try {
    return interpret(output);
  } catch (error) {
    return {
      valid: false,
      problem: "its output could not be read",
      issues: [{ path: "", message: thrownMessage(error, "reading it threw") }],
    };
  }
}

function interpret(output: unknown): InterpretedOutput {
  let value = output;
  if (typeof output === "string") {
    const text = output.trim();
    if (text === "") {
      return {
        valid: false,
        problem: "it returned no output",
        issues: [{ path: "", message: "expected a JSON object in the subagent output format" }],
      };
    }
    if (text.length > MAX_OUTPUT_TEXT) {
      return {
        valid: false,
        problem: `its output is longer than ${MAX_OUTPUT_TEXT} characters`,
        issues: [{ path: "", message: `longer than ${MAX_OUTPUT_TEXT} characters` }],
      };
    }
    try {
      value = JSON.parse(text);
    } catch (error) {
      const reason = thrownMessage(error, "unreadable");
      return {
        valid: false,
        problem: "its output is not JSON",
        issues: [{ path: "", message: `not JSON: ${reason}` }],
      };
    }
  }
  const wire = toWireNames(value);
  const { valid, issues } = validate("subagent-output.v1", wire);
  if (valid) return { valid: true, output: wire as SubagentOutput };
  return {
    valid: false,
    problem: "its output does not match the subagent output format",
    issues,
  };
}
