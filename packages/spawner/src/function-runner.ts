import type { SubagentOutput } from "@task-context/protocols/sage";
import type { SubagentInvocation, SubagentRunner } from "./subagent-runner.ts";

/**
 * A subagent that runs in this process. It receives its directory as a Workspace that refuses
 * writes to CONTEXT.md, and returns spec 002's output object (wire names).
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
 * ```ts
 * const runner = functionRunner(async ({ prompt, workspace, contextFile, signal }) => {
 *   const context = await workspace.readFile(contextFile);
 *   const answer = await runModel({ prompt, context, signal });
 *   await workspace.writeFile("src/export.ts", answer.code);
 *   return { status: "success", summary: answer.summary, "files-modified": ["src/export.ts"] };
 * });
 * ```
 */
export function functionRunner(fn: SubagentFunction): SubagentRunner {
  return {
    name: "function",
    stopGraceMs: 0,
    async run(invocation) {
      return { output: await fn(invocation) };
    },
  };
}
