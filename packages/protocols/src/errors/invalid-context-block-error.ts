import { TaskContextError } from "@task-context/core";
import type { ContextBlockIssue } from "../context-block/context-block-issue.ts";

/**
 * A value given as a Context Protocol v1 block does not match the schema, so it cannot be
 * rendered. `issues` lists every problem with its JSON Pointer.
 */
export class InvalidContextBlockError extends TaskContextError {
  readonly issues: readonly ContextBlockIssue[];

  constructor(issues: readonly ContextBlockIssue[]) {
    const list = issues.map((issue) => `- ${issue.path || "(root)"}: ${issue.message}`).join("\n");
    super(
      "INVALID_CONTEXT_BLOCK",
      `Cannot render the context block: it does not match Context Protocol v1.\n${list}\nFix these fields (see contextBlockSchema) and render again.`,
    );
    this.name = "InvalidContextBlockError";
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is InvalidContextBlockError {
    return TaskContextError.hasCode(error, "INVALID_CONTEXT_BLOCK");
  }
}
