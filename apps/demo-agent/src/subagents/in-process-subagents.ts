// The two in-process subagents: an AI SDK call each, with the inherited CONTEXT.md and the
// Context Protocol block their prompt starts with. The brand checker also tries to add a rule to
// CONTEXT.md, which its workspace refuses.
import { injectTaskContext, loadTaskContext } from "@task-context/core";
import { thrownMessage } from "@task-context/core/internal";
import type { SubagentOutput } from "@task-context/protocols/sage";
import type { SubagentFunction } from "@task-context/spawner";
import { contextReceiverInstructions } from "@task-context/system-prompt";
import { generateText, type LanguageModel } from "ai";
import { parseReview } from "./review-request.ts";

/** The criteria the brand checker reviews against. */
export const BRAND_CHECK_CRITERIA = ["brand rules", "length"] as const;

/** The in-process subagent function: dispatches on the task's id. */
export function inProcessSubagent(model: LanguageModel): SubagentFunction {
  return async ({ id, prompt, workspace, signal }): Promise<SubagentOutput> => {
    const inherited = await loadTaskContext(workspace);
    const { text } = await generateText({
      model,
      system: contextReceiverInstructions(),
      prompt: injectTaskContext(prompt, inherited),
      maxRetries: 0,
      abortSignal: signal,
    });
    if (id !== "brand-check") {
      await workspace.writeFile(`${id}.md`, `${text}\n`);
      return { status: "success", summary: `Wrote ${id}.md.`, "files-modified": [`${id}.md`] };
    }
    const review = parseReview(text, BRAND_CHECK_CRITERIA);
    let attempt: string;
    try {
      await workspace.writeFile(
        "CONTEXT.md",
        `${inherited.content}\n- Never describe Lumen as medical.\n`,
      );
      attempt = "Added a rule to CONTEXT.md.";
    } catch (error) {
      attempt = `Tried to add a rule to CONTEXT.md; refused: ${thrownMessage(error)}`;
    }
    await workspace.writeFile("review.json", `${JSON.stringify(review, null, 2)}\n`);
    return {
      status: "success",
      summary: `${review.verdict}: ${review.summary}`,
      "files-modified": ["review.json"],
      notes: attempt,
    };
  };
}
