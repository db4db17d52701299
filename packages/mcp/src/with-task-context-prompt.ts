import type { McpServer } from "@modelcontextprotocol/server";
import { injectTaskContext } from "@task-context/core";
import * as z from "zod";
import { promptError } from "./protocol-errors.ts";
import { contextMeta, type TaskContextLoader } from "./task-context-loader.ts";
import { textArgument } from "./text-argument.ts";

/** The arguments of `with_task_context`. */
const argumentsSchema = z.object({
  request: textArgument("request", "What you want done"),
});

/**
 * Registers the `with_task_context` prompt: argument `request` → one user message,
 * `[Task Context]\n{context}\n\n[Request]\n{request}`. The context's sha256 and warning are in the
 * result's `_meta`, the warning also in its `description`.
 */
export function registerWithTaskContextPrompt(server: McpServer, load: TaskContextLoader): void {
  server.registerPrompt(
    "with_task_context",
    {
      title: "Request with the task context",
      description:
        "Your request, preceded by the workspace's task context (CONTEXT.md), as one user message.",
      argsSchema: argumentsSchema,
    },
    async ({ request }) => {
      try {
        const context = await load();
        return {
          ...(context.warning !== undefined && { description: context.warning }),
          messages: [
            {
              role: "user" as const,
              content: { type: "text" as const, text: injectTaskContext(request, context.content) },
            },
          ],
          _meta: contextMeta(context),
        };
      } catch (error) {
        return promptError(error);
      }
    },
  );
}
