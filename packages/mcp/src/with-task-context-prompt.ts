import type { McpServer } from "@modelcontextprotocol/server";
import { ArgumentError, CONTEXT_VIEW_PRESETS, injectTaskContext } from "@task-context/core";
import { checkValue } from "@task-context/protocols/internal";
import * as z from "zod";
import { promptError } from "./protocol-errors.ts";
import { publishedSchema } from "./published-schema.ts";
import { invalidParams } from "./request-params-guard.ts";
import { contextMeta, type TaskContextLoader } from "./task-context-loader.ts";
import { textArgument } from "./text-argument.ts";
import { viewArgumentSchema, viewOfArgument } from "./view-argument.ts";
import type { ViewLoader } from "./view-loader.ts";

/** A prompt argument naming headings: one a line, or, on a single line, separated by commas. */
const headingsArgument = (name: string, description: string) =>
  z.optional(
    textArgument(
      name,
      `${description}: one a line, or separated by commas (a heading with a comma needs its own line)`,
    ),
  );

/** The arguments of `with_task_context`: prompt arguments are strings. */
const argumentsSchema = z.object({
  request: textArgument("request", "What you want done"),
  view: z.optional(
    textArgument(
      "view",
      `Deliver only some sections of CONTEXT.md: a preset (${Object.keys(CONTEXT_VIEW_PRESETS).join(", ")}) alone, or the name of the view given by include and exclude`,
    ),
  ),
  include: headingsArgument(
    "include",
    "Headings of CONTEXT.md whose sections (with their sub-sections) to deliver",
  ),
  exclude: headingsArgument("exclude", "Headings of CONTEXT.md whose sections to leave out"),
});

/** The headings a prompt argument lists; undefined when it is absent or blank. */
function headings(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const parts = value.includes("\n") ? value.split(/\r?\n/) : value.split(",");
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

/** The prompt argument a problem of the view argument is about: `/name` is `view`'s. */
function promptPointer(path: string): string {
  const key = path.split("/")[1];
  return `/arguments/${key === "include" || key === "exclude" ? key : "view"}`;
}

/**
 * The view the prompt's `view`, `include` and `exclude` ask for, checked like the tools' `view`
 * argument (`view` is its `name`); undefined without any. A blank argument counts as absent, as
 * clients send "" for an optional argument left empty. Throws `-32602` at the argument's pointer.
 */
function viewOfPromptArguments(args: z.output<typeof argumentsSchema>) {
  const name = args.view?.trim() === "" ? undefined : args.view?.trim();
  const include = headings(args.include);
  const exclude = headings(args.exclude);
  if (name === undefined && include === undefined && exclude === undefined) return undefined;
  const argument = Object.fromEntries(
    Object.entries({ name, include, exclude }).filter(([, value]) => value !== undefined),
  );
  const checked = checkValue(viewArgumentSchema, argument, { root: "view" });
  if (!checked.valid) {
    throw invalidParams(
      "arguments for prompt with_task_context",
      checked.issues.map(({ path, message }) => ({ path: promptPointer(path), message })),
    );
  }
  try {
    return viewOfArgument(checked.data);
  } catch (error) {
    if (!ArgumentError.isInstance(error)) throw error;
    const message = error.message.slice(`Invalid ${error.argument}: `.length);
    throw invalidParams("arguments for prompt with_task_context", [
      { path: "/arguments/view", message },
    ]);
  }
}

/**
 * Registers the `with_task_context` prompt: argument `request` → one user message,
 * `[Task Context]\n{context}\n\n[Request]\n{request}`; with `view` (a preset) or `include` /
 * `exclude` (headings), the context is that view of CONTEXT.md. The context's sha256 and warning
 * are in the result's `_meta` (with `task-context/view` for a view), the warning also in its
 * `description`. Missing or malformed arguments are `-32602 Invalid params`, each problem at its
 * JSON Pointer (`/arguments/request`); a missing CONTEXT.md or a view that selects nothing is
 * `-32600` with core's message and code.
 */
export function registerWithTaskContextPrompt(
  server: McpServer,
  load: TaskContextLoader,
  loadView: ViewLoader,
): void {
  server.registerPrompt(
    "with_task_context",
    {
      title: "Request with the task context",
      description:
        "Your request, preceded by the workspace's task context (CONTEXT.md), as one user message. Give view (a preset such as media) or include/exclude (headings) for only some sections.",
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
      const view = viewOfPromptArguments(checked.data);
      try {
        const context = view === undefined ? await load() : await loadView(view);
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
