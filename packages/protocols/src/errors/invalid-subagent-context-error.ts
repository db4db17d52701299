import { TaskContextError } from "@task-context/core";
import type { ValidationIssue } from "../validate/issues.ts";

/** Issues listed in the message; `issues` holds them all. */
const MAX_LISTED = 10;

/** One problem found in a subagent-context document. */
export interface SubagentContextIssue extends ValidationIssue {
  /** The 1-based line of the XML where the problem sits, when parsing. */
  line?: number;
  /** The 1-based column (in Unicode characters) of the XML where the problem sits, when parsing. */
  column?: number;
}

const marker = "task-context.error.InvalidSubagentContextError";
const symbol = Symbol.for(marker);

/**
 * A Sage `<subagent-context>` document is not well-formed XML or does not match Sage's shape.
 * `issues` lists every problem found; `line` and `column` point at the first one when it came
 * from parsing XML.
 *
 * @example
 * ```ts source="../../examples/invalid-subagent-context.ts"
 * import { InvalidSubagentContextError, parseSubagentContext } from "@task-context/protocols/sage";
 *
 * try {
 *   parseSubagentContext('<subagent-context version="2.0"/>');
 * } catch (error) {
 *   if (!InvalidSubagentContextError.isInstance(error)) throw error;
 *   for (const issue of error.issues) console.error(issue.line, issue.path, issue.message);
 *   // 1 "/version" 'version must be "1.0", not the string "2.0".'
 *   // 1 "/task" "task is required: an object with id, type, description and, optionally, story-ref."
 *   // 1 "/instructions" "instructions is required: an array."
 *   // 1 "/scope" "scope is required: an object with files-to-modify, files-to-read and files-forbidden."
 *   // 1 "/context" "context is required: an array."
 *   // 1 "/output-format" "output-format is required: an object with required-fields and optional-fields."
 * }
 * ```
 */
export class InvalidSubagentContextError extends TaskContextError<"INVALID_SUBAGENT_CONTEXT"> {
  protected readonly [symbol] = true;
  override name = "InvalidSubagentContextError";
  /** Every problem found (at least one). */
  readonly issues: readonly SubagentContextIssue[];
  /** The 1-based line of the first problem, when it came from parsing XML. */
  readonly line: number | undefined;
  /** The 1-based column of the first problem, when it came from parsing XML. */
  readonly column: number | undefined;

  constructor({ issues, cause }: { issues: readonly SubagentContextIssue[]; cause?: unknown }) {
    const first = issues[0];
    const where =
      first?.line === undefined ? "" : ` at line ${first.line}, column ${first.column ?? 1}`;
    const shown = issues.slice(0, MAX_LISTED).map((issue) => issue.message.replace(/\.$/, ""));
    if (issues.length > MAX_LISTED) shown.push(`and ${issues.length - MAX_LISTED} more`);
    const list = shown.join("; ");
    super({
      code: "INVALID_SUBAGENT_CONTEXT",
      message: `Invalid subagent-context document${where}: ${list}. Render documents with renderSubagentContext so that they follow the <subagent-context version="1.0"> shape.`,
      cause,
    });
    this.issues = issues;
    this.line = first?.line;
    this.column = first?.column;
  }

  static override isInstance(error: unknown): error is InvalidSubagentContextError {
    return TaskContextError.hasMarker(error, marker);
  }
}
