import type { McpServer } from "@modelcontextprotocol/server";
import {
  CONTEXT_FILENAME,
  FileNotFoundError,
  NotRegularFileError,
  TaskContextMissingError,
  type Workspace,
} from "@task-context/core";
import { decodeUtf8 } from "@task-context/core/internal";
import { lintContextMd } from "@task-context/protocols/context-md";
import * as z from "zod";
import { checkedToolCall } from "./checked-tool-call.ts";
import { MAX_LINT_BYTES } from "./limits.ts";
import { publishedSchema } from "./published-schema.ts";
import { textArgument } from "./text-argument.ts";
import { toolResult } from "./tool-results.ts";

/** The structured result of `lint_context_md`. */
export const lintOutputSchema = z.object({
  ok: z.boolean().describe("False when any issue is an error"),
  issues: z.array(
    z.object({
      rule: z.enum(["empty", "over-limit", "missing-section", "placeholder", "secret"]),
      severity: z.enum(["error", "warning", "info"]),
      message: z.string(),
      line: z.optional(z.number().int()),
    }),
  ),
});

/**
 * CONTEXT.md's text as written (up to {@link MAX_LINT_BYTES}), with core's refusals: missing or
 * not a regular file → `TaskContextMissingError` (the guiding message), a symbolic link out of
 * the workspace → `WorkspaceEscapeError`.
 */
async function readContextMd(workspace: Workspace): Promise<string> {
  try {
    const { bytes, size } = await workspace.readFile(CONTEXT_FILENAME, {
      maxBytes: MAX_LINT_BYTES,
    });
    return decodeUtf8(bytes, size <= bytes.length).text;
  } catch (error) {
    if (FileNotFoundError.isInstance(error)) {
      throw new TaskContextMissingError({ reason: "not-found", cause: error });
    }
    if (NotRegularFileError.isInstance(error)) {
      throw new TaskContextMissingError({ reason: "not-a-regular-file", cause: error });
    }
    throw error;
  }
}

/** The arguments of `lint_context_md`. */
const inputSchema = z.object({
  text: z.optional(
    textArgument("text", "A draft of CONTEXT.md to check instead of the workspace's file"),
  ),
});

/**
 * Registers `lint_context_md`: the issues of the workspace's CONTEXT.md (or of a draft given as
 * `text`, before the agent writes it) — empty, over the limit, missing sections, template
 * placeholders, secrets.
 */
export function registerLintContextMdTool(
  server: McpServer,
  workspace: Workspace,
  maxChars: number,
): void {
  server.registerTool(
    "lint_context_md",
    {
      title: "Lint CONTEXT.md",
      description:
        "Checks the workspace's CONTEXT.md (or a draft given as text) for what recipients need: not empty, within the delivered limit, the template's sections, no placeholders left, no secrets. Fix the errors before delegating.",
      inputSchema: publishedSchema(inputSchema),
      outputSchema: lintOutputSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    checkedToolCall("lint_context_md", inputSchema, async ({ text }) => {
      const source = text ?? (await readContextMd(workspace));
      const result = lintContextMd(source, { maxChars });
      const summary =
        result.issues.length === 0
          ? "CONTEXT.md has no issues."
          : result.issues
              .map(
                (issue) =>
                  `${issue.severity}${issue.line === undefined ? "" : ` (line ${issue.line})`}: ${issue.message}`,
              )
              .join("\n");
      return toolResult([summary], { ok: result.ok, issues: result.issues });
    }),
  );
}
