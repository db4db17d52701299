import { ArgumentError } from "@task-context/core";
import { describeArgument } from "@task-context/core/internal";
import type { SubagentOutput } from "@task-context/protocols/sage";
import type { SubagentInvocation, SubagentRunner } from "./subagent-runner.ts";

/**
 * A subagent that runs in this process. It receives its directory as a Workspace that refuses
 * writes to CONTEXT.md, and returns the subagent output object (wire names: `files-modified`,
 * `recommended-action`).
 */
export type SubagentFunction = (
  invocation: SubagentInvocation,
) => SubagentOutput | Promise<SubagentOutput>;

/**
 * A runner that calls `fn` in this process for each subagent, for agents driven by an in-process
 * model loop (and for tests). On a timeout or abort the spawner stops waiting at once and aborts
 * `signal`; a function that ignores the signal keeps running in the background, so pass `signal`
 * on to model calls and tools.
 *
 * @example
 * ```ts source="../examples/function-runner.ts#functionRunner"
 * const runner = functionRunner(async ({ prompt, workspace, contextFile, signal }) => {
 *   const taskContext = new TextDecoder().decode((await workspace.readFile("CONTEXT.md")).bytes);
 *   const sage = parseSubagentContext(
 *     new TextDecoder().decode((await workspace.readFile(contextFile)).bytes),
 *   );
 *   const answer = await callModel({
 *     system: `${taskContext}\n\nScope: ${sage.scope["files-to-modify"].join(", ")}`,
 *     prompt,
 *     signal,
 *   });
 *   await workspace.writeFile("src/export.ts", answer.code);
 *   return { status: "success", summary: answer.summary, "files-modified": ["src/export.ts"] };
 * });
 * ```
 */
export function functionRunner(fn: SubagentFunction): SubagentRunner {
  if (typeof fn !== "function") {
    throw new ArgumentError({
      argument: "fn",
      message: `expected the subagent function, got ${describeArgument(fn)}.`,
    });
  }
  return {
    name: "function",
    stopGraceMs: 0,
    async run(invocation) {
      return { output: await fn(invocation) };
    },
  };
}
