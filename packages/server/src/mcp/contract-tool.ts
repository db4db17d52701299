import type {
  CallToolResult,
  McpServer,
  ServerContext,
  StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import { withTraceContext } from "@task-context/core/tracing";
import * as z from "zod";
import { parseOrRefuse } from "../http/validation.ts";
import { toolError, toolResult } from "./tool-result.ts";

/**
 * A contract schema as the SDK takes a tool's schemas (Standard Schema with JSON Schema), its
 * JSON Schema made by `z.toJSONSchema` (the published schemas nested in the contract's are
 * built with zod/mini, whose own `~standard` has no JSON Schema). `check` validates: the
 * schema's own for output; for input, one that lets every value through, because the tool
 * checks its arguments itself with {@link parseOrRefuse} so that malformed arguments get the
 * contract's `INVALID_REQUEST` with an issue per problem (JSON Pointers), not the SDK's message.
 */
function standardSchema(schema: z.core.$ZodType, io: "input" | "output"): StandardSchemaWithJSON {
  const own = schema["~standard"];
  const jsonSchema = ({ target }: { target: string }) =>
    z.toJSONSchema(schema, {
      target: target === "draft-07" ? "draft-7" : "draft-2020-12",
      io,
      unrepresentable: "any",
    }) as Record<string, unknown>;
  return {
    "~standard": {
      version: 1,
      vendor: own.vendor,
      validate: io === "input" ? (value: unknown) => ({ value }) : own.validate,
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  } as StandardSchemaWithJSON;
}

/** One tool of the delivery service: the contract's schemas in and out, one store operation. */
export interface ContractTool<Input extends z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: z.core.$ZodType;
  /** Read-only tools (poll, get_artifact) change nothing. */
  readOnly: boolean;
  /** The operation; its answer becomes `structuredContent`, a failure a tool error. */
  act: (input: z.infer<Input>) => Promise<object>;
  /**
   * The text blocks a model reads of the answer. Default: the answer's JSON, the same as
   * `structuredContent`.
   */
  text?: (answer: object) => string[];
}

/** Registers `tool` on `server`. */
export function registerContractTool<Input extends z.ZodType>(
  server: McpServer,
  tool: ContractTool<Input>,
  onUnexpectedError: ((error: unknown) => void) | undefined,
): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: standardSchema(tool.input, "input"),
      outputSchema: standardSchema(tool.output, "output"),
      annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false },
    },
    // A request whose `_meta` carries W3C trace context continues that trace: the claim's or
    // completion's span is a child of the client's (the `traceparent` header of /mcp otherwise).
    async (args: unknown, ctx: ServerContext): Promise<CallToolResult> =>
      withTraceContext(ctx.mcpReq._meta, async () => {
        try {
          const answer = await tool.act(parseOrRefuse(tool.input, args, "tool arguments"));
          return toolResult(answer, tool.text?.(answer));
        } catch (error) {
          return toolError(error, onUnexpectedError);
        }
      }),
  );
}
