import { TaskContextError } from "@task-context/core";
import type { ContextBlockIssue } from "../context-block/parse-context-block.ts";

const marker = "task-context.error.InvalidContextBlockError";
const symbol = Symbol.for(marker);

/**
 * A value given as a Context Protocol v1 block does not match the schema, so it cannot be
 * rendered. `issues` lists every problem with its JSON Pointer.
 */
export class InvalidContextBlockError extends TaskContextError<"INVALID_CONTEXT_BLOCK"> {
  protected readonly [symbol] = true;
  override name = "InvalidContextBlockError";
  readonly issues: readonly ContextBlockIssue[];

  constructor({ issues }: { issues: readonly ContextBlockIssue[] }) {
    const list = issues.map((issue) => `- ${issue.path || "(root)"}: ${issue.message}`).join("\n");
    super({
      code: "INVALID_CONTEXT_BLOCK",
      message: `Cannot render the context block: it does not match Context Protocol v1.\n${list}\nFix these fields (see contextBlockSchema) and render again.`,
    });
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is InvalidContextBlockError {
    return TaskContextError.hasMarker(error, marker);
  }
}
