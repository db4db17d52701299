import type { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { checkedToolCall } from "./checked-tool-call.ts";
import { publishedSchema } from "./published-schema.ts";
import { contextFacts, type TaskContextLoader } from "./task-context-loader.ts";
import { toolResult } from "./tool-results.ts";
import { viewArgumentSchema, viewOfArgument, viewOutputSchema } from "./view-argument.ts";
import { type ViewLoader, viewFacts } from "./view-loader.ts";

/** The structured result of `get_task_context`. */
export const taskContextOutputSchema = z.object({
  content: z.string().describe("CONTEXT.md as delivered: trimmed and within the limits"),
  sha256: z.string().describe("Hex SHA-256 of the UTF-8 bytes of content"),
  truncated: z.boolean().describe("True when the limits cut content short of the file"),
  originalLength: z
    .number()
    .int()
    .describe("The file's length in UTF-16 units, trimmed, before any cut"),
  warning: z.optional(
    z.string().describe("Why the content was cut, repaired or had secrets redacted; tell the user"),
  ),
  view: z.optional(viewOutputSchema),
});

/** One optional argument, the view; the workspace is the server's. */
const inputSchema = z.object({ view: z.optional(viewArgumentSchema) });

/**
 * Registers `get_task_context`: the workspace's task context as every recipient receives it, or,
 * with a `view` argument, only the sections that view selects. A missing CONTEXT.md is a tool
 * error with the spec's guiding message; a view that selects nothing is `CONTEXT_VIEW_EMPTY`.
 */
export function registerGetTaskContextTool(
  server: McpServer,
  load: TaskContextLoader,
  loadView: ViewLoader,
): void {
  server.registerTool(
    "get_task_context",
    {
      title: "Get the task context",
      description:
        "Returns the task context of this workspace (CONTEXT.md: what we are building, key terms, brand rules, conventions), bounded as it is delivered to every recipient, with its sha256 and a warning when it was cut. Read it before starting work; follow it. Pass view to get only some sections (a preset such as media, or headings to include or exclude).",
      inputSchema: publishedSchema(inputSchema),
      outputSchema: taskContextOutputSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    checkedToolCall("get_task_context", inputSchema, async ({ view }) => {
      const context = view === undefined ? await load() : await loadView(viewOfArgument(view));
      const facts = contextFacts(context);
      const text =
        facts.warning === undefined
          ? [context.content]
          : [context.content, `Warning: ${facts.warning}`];
      return toolResult(text, { content: context.content, ...facts, ...viewFacts(context) });
    }),
  );
}
