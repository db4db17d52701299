import type { McpServer } from "@modelcontextprotocol/server";
import { injectTaskContext } from "@task-context/core";
import * as z from "zod";
import { checkedToolCall } from "./checked-tool-call.ts";
import { publishedSchema } from "./published-schema.ts";
import { contextFacts, type TaskContextLoader } from "./task-context-loader.ts";
import { textArgument } from "./text-argument.ts";
import { toolResult } from "./tool-results.ts";
import { viewArgumentSchema, viewOfArgument, viewOutputSchema } from "./view-argument.ts";
import { type ViewLoader, viewFacts } from "./view-loader.ts";

/** The structured result of `inject_task_context`. */
export const injectedPromptOutputSchema = z.object({
  text: z.string().describe("[Task Context]\\n{context}\\n\\n[Request]\\n{prompt}"),
  sha256: z.string().describe("Hex SHA-256 of the context that was injected"),
  warning: z.optional(
    z.string().describe("Why the context was cut or had secrets redacted; tell the user"),
  ),
  view: z.optional(viewOutputSchema),
});

/** The arguments of `inject_task_context`. */
const inputSchema = z.object({
  prompt: textArgument("prompt", "The prompt for the other model, as you would send it"),
  view: z.optional(viewArgumentSchema),
});

/**
 * Registers `inject_task_context`: `{ prompt }` → exactly `[Task Context]\n{context}\n\n[Request]\n{prompt}`,
 * for an agent that calls an external model itself; with `view`, only the sections the view
 * selects (an image model needs the brand rules, not the test commands).
 */
export function registerInjectTaskContextTool(
  server: McpServer,
  load: TaskContextLoader,
  loadView: ViewLoader,
): void {
  server.registerTool(
    "inject_task_context",
    {
      title: "Inject the task context into a prompt",
      description:
        "Prepends the task context to a prompt you are about to send to another model (an image, audio or video model, another agent): returns exactly the text to send, [Task Context] … [Request] …. Send the text unchanged. Pass view to inject only some sections (a preset such as media for an image model, or headings to include or exclude).",
      inputSchema: publishedSchema(inputSchema),
      outputSchema: injectedPromptOutputSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    checkedToolCall("inject_task_context", inputSchema, async ({ prompt, view }) => {
      const context = view === undefined ? await load() : await loadView(viewOfArgument(view));
      const { sha256, warning } = contextFacts(context);
      const text = injectTaskContext(prompt, context.content);
      return toolResult(warning === undefined ? [text] : [text, `Warning: ${warning}`], {
        text,
        sha256,
        ...(warning !== undefined && { warning }),
        ...viewFacts(context),
      });
    }),
  );
}
