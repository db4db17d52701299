import type { McpServer } from "@modelcontextprotocol/server";
import { injectTaskContext } from "@task-context/core";
import { checkValue } from "@task-context/protocols/internal";
import * as z from "zod";
import { promptError } from "./protocol-errors.ts";
import { publishedSchema } from "./published-schema.ts";
import { invalidParams } from "./request-params-guard.ts";
import { contextMeta, type TaskContextLoader } from "./task-context-loader.ts";
import { textArgument } from "./text-argument.ts";

/** The arguments of `with_task_context`. */
const argumentsSchema = z.object({
  request: textArgument("request", "What you want done"),
});

/**
 * Registers the `with_task_context` prompt: argument `request` → one user message,
 * `[Task Context]\n{context}\n\n[Request]\n{request}`. The context's sha256 and warning are in the
 * result's `_meta`, the warning also in its `description`. Missing or malformed arguments are
 * `-32602 Invalid params`, each problem at its JSON Pointer (`/arguments/request`).
 */
export function registerWithTaskContextPrompt(server: McpServer, load: TaskContextLoader): void {
  server.registerPrompt(
    "with_task_context",
    {
      title: "Request with the task context",
      description:
        "Your request, preceded by the workspace's task context (CONTEXT.md), as one user message.",
      argsSchema: publishedSchema(argumentsSchema),
    },
    async (args) => {
      const checked = checkValue(argumentsSchema, args, { root: "arguments" });
      if (!checked.valid) {
        throw invalidParams(
          "arguments for prompt with_task_context",
          checked.issues.map(({ path, message }) => ({ path: `/arguments${path}`, message })),
        );
      }
      try {
        const context = await load();
        return {
          ...(context.warning !== undefined && { description: context.warning }),
          messages: [
            {
              role: "user" as const,
              content: {
                type: "text" as const,
                text: injectTaskContext(checked.data.request, context.content),
              },
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
