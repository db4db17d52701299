import type { McpServer } from "@modelcontextprotocol/server";
import { type SchemaName, schemaNames, validate } from "@task-context/protocols";
import { parseContextBlock } from "@task-context/protocols/context-block";
import { InvalidSubagentContextError, parseSubagentContext } from "@task-context/protocols/sage";
import * as z from "zod";
import { checkedToolCall } from "./checked-tool-call.ts";
import { MAX_DOCUMENT_BYTES } from "./limits.ts";
import { publishedSchema } from "./published-schema.ts";
import { toolResult } from "./tool-results.ts";

const issueSchema = z.object({
  path: z.string().describe('JSON Pointer of the field: "" for the whole document'),
  message: z.string().describe("What is wrong and what to write instead"),
  line: z.optional(z.number().int().describe("1-based line, for a document given as text")),
});

/** The structured result of `validate`. */
export const validationOutputSchema = z.object({
  valid: z.boolean(),
  issues: z.array(issueSchema),
});

type Issue = z.infer<typeof issueSchema>;

/** The size of a JSON value as UTF-8 JSON, stopping as soon as it passes `limit`. */
function jsonBytesOver(value: unknown, limit: number): boolean {
  const json = JSON.stringify(value) ?? "";
  // A UTF-16 unit is at most 3 UTF-8 bytes: most documents are decided without encoding.
  if (json.length * 3 <= limit) return false;
  return new TextEncoder().encode(json).length > limit;
}

/** A failed verdict with each issue's path, message and (when the text had one) line. */
function invalid(issues: readonly Issue[]): { valid: false; issues: Issue[] } {
  return {
    valid: false,
    issues: issues.map(({ path, message, line }) => ({
      path,
      message,
      ...(line !== undefined && { line }),
    })),
  };
}

/**
 * A document given as text: a `<context>` block (context-block.v1) or `<subagent-context>` XML
 * (subagent-context.v1) is parsed as a receiver would parse it.
 */
function validateText(
  schema: SchemaName,
  text: string,
): { valid: boolean; issues: Issue[] } | undefined {
  if (schema === "context-block.v1") {
    const parsed = parseContextBlock(text);
    if (parsed.status === "found") return { valid: true, issues: [] };
    if (parsed.status === "missing") {
      return {
        valid: false,
        issues: [
          {
            path: "",
            message:
              "The text does not start with a <context> block. Give the block itself (<context>\\nversion: 1\\n…\\n</context>) or the block's fields as an object.",
          },
        ],
      };
    }
    return invalid(parsed.issues);
  }
  if (schema === "subagent-context.v1") {
    try {
      parseSubagentContext(text);
      return { valid: true, issues: [] };
    } catch (error) {
      if (!InvalidSubagentContextError.isInstance(error)) throw error;
      return invalid(error.issues);
    }
  }
  return undefined;
}

/** The arguments of `validate`. */
const inputSchema = z.object({
  schema: z.enum(schemaNames as [SchemaName, ...SchemaName[]]).describe("The schema's name"),
  document: z
    .union([z.string(), z.record(z.string(), z.unknown())])
    .refine(
      (value) => !jsonBytesOver(value, MAX_DOCUMENT_BYTES),
      `document must be at most ${MAX_DOCUMENT_BYTES} bytes as JSON; check a smaller document`,
    )
    .describe("The document: a JSON object, or the text of a context block or Sage document"),
});

/**
 * Registers `validate`: `{ schema, document }` → `{ valid, issues }` against a published schema
 * of task-context (context blocks, Sage documents, work items, …), by `validate()` of
 * `@task-context/protocols`. A context block or Sage document may also be given as its text.
 */
export function registerValidateTool(server: McpServer): void {
  server.registerTool(
    "validate",
    {
      title: "Validate a document against a task-context schema",
      description: `Checks a document against one of task-context's published schemas (${schemaNames.join(", ")}) and returns every problem with its JSON Pointer and what to write instead. A context-block.v1 document may be given as its <context> text, a subagent-context.v1 document as its XML.`,
      inputSchema: publishedSchema(inputSchema),
      outputSchema: validationOutputSchema,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    checkedToolCall("validate", inputSchema, async ({ schema, document }) => {
      const result =
        (typeof document === "string" ? validateText(schema, document) : undefined) ??
        validate(schema, document);
      const summary = result.valid
        ? `The document is a valid ${schema} document.`
        : [
            `The document is not a valid ${schema} document:`,
            ...result.issues.map(
              (issue) => `- ${issue.path === "" ? "(document)" : issue.path}: ${issue.message}`,
            ),
          ].join("\n");
      return toolResult([summary], { valid: result.valid, issues: result.issues });
    }),
  );
}
