import { TaskContextError } from "@task-context/core";

/** One problem with a tool's arguments: where (a JSON Pointer into the arguments) and what. */
export interface ArgumentIssue {
  /** JSON Pointer of the argument, such as `/prompt`; `""` for the arguments as a whole. */
  path: string;
  /** What is wrong and what to send instead. */
  message: string;
}

const marker = "task-context.error.InvalidToolArgumentsError";
const symbol = Symbol.for(marker);

/**
 * The arguments of a tool call do not match the tool's input schema: a missing or mistyped
 * argument, a prompt over the length limit. `issues` lists every problem at its JSON Pointer.
 * The server returns it as a tool error (code `INVALID_ARGUMENT`), so the model can correct the
 * call.
 */
export class InvalidToolArgumentsError extends TaskContextError<"INVALID_ARGUMENT"> {
  protected readonly [symbol] = true;
  override name = "InvalidToolArgumentsError";
  /** The tool that was called. */
  readonly tool: string;
  /** Every problem found (at least one). */
  readonly issues: readonly ArgumentIssue[];

  constructor({ tool, issues }: { tool: string; issues: readonly ArgumentIssue[] }) {
    const listed = issues.map((issue) => issue.message.replace(/\.$/, "")).join("; ");
    super({
      code: "INVALID_ARGUMENT",
      message: `Invalid arguments for ${tool}: ${listed}. Call ${tool} again with arguments that match its input schema.`,
    });
    this.tool = tool;
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is InvalidToolArgumentsError {
    return TaskContextError.hasMarker(error, marker);
  }
}
