import type { CallToolResult, McpServer } from "@modelcontextprotocol/server";
import { GEN_AI_ATTRIBUTES, type Tokenizer } from "@task-context/core";
import { contextViewAttributes, thrownMessage } from "@task-context/core/internal";
import { currentDelivery, traceDelivery, withTraceContext } from "@task-context/core/tracing";
import type { TaskContextLoader } from "./task-context-loader.ts";
import { TOOL_ERROR_META_KEY, type ToolErrorBody } from "./tool-results.ts";

const TRACER = "@task-context/mcp";

type Handler = (...args: unknown[]) => unknown;

/** The code and message of a tool error (`_meta["task-context/error"]`), for the span. */
function toolFailure(result: CallToolResult): { code: string; message: string } {
  const body = result._meta?.[TOOL_ERROR_META_KEY] as Partial<ToolErrorBody> | undefined;
  const text = result.content.find((part) => part.type === "text");
  return {
    code: typeof body?.code === "string" ? body.code : "tool_error",
    message:
      typeof body?.error === "string"
        ? body.error
        : text?.type === "text"
          ? text.text
          : "The tool reported an error.",
  };
}

/**
 * The `_meta` of the request a handler serves: the SDK hands the request's context last, after
 * the arguments (a tool's, a resource template's variables), with `mcpReq._meta`.
 */
function requestMetaOf(args: readonly unknown[]): Record<string, unknown> | undefined {
  const last = args.at(-1) as { mcpReq?: { _meta?: unknown } } | undefined;
  const meta = typeof last === "object" && last !== null ? last.mcpReq?._meta : undefined;
  return typeof meta === "object" && meta !== null ? (meta as Record<string, unknown>) : undefined;
}

/**
 * Makes every tool and resource registered on `server` from now on run inside a delivery span:
 * `tools/call {tool}` and `resources/read` (the OpenTelemetry MCP conventions' server spans).
 * A request whose `params._meta` carries W3C trace context (`traceparent`, `tracestate`, which
 * the MCP specification reserves there) continues that trace: the span is a child of the
 * client's. A tool result with `isError` marks its span failed with the code of its
 * `_meta["task-context/error"]`.
 */
export function traceDeliveries(server: McpServer): void {
  const registerTool = server.registerTool.bind(server) as (...args: unknown[]) => unknown;
  server.registerTool = ((name: string, config: unknown, handler: Handler) =>
    registerTool(name, config, (...args: unknown[]) =>
      withTraceContext(requestMetaOf(args), () =>
        traceDelivery(
          {
            tracer: TRACER,
            name: `tools/call ${name}`,
            kind: "server",
            recipient: { kind: "mcp-tool", id: name },
            attributes: {
              [GEN_AI_ATTRIBUTES.mcpMethodName]: "tools/call",
              [GEN_AI_ATTRIBUTES.operationName]: "execute_tool",
              [GEN_AI_ATTRIBUTES.toolName]: name,
            },
          },
          async (span) => {
            const result = (await handler(...args)) as CallToolResult;
            if (result.isError === true) {
              const { code, message } = toolFailure(result);
              span.fail(code, message);
            }
            return result;
          },
        ),
      ),
    )) as never;

  const registerResource = server.registerResource.bind(server) as (...args: unknown[]) => unknown;
  server.registerResource = ((name: string, target: unknown, config: unknown, read: Handler) =>
    registerResource(name, target, config, (uri: URL, ...rest: unknown[]) =>
      withTraceContext(requestMetaOf(rest), () =>
        traceDelivery(
          {
            tracer: TRACER,
            name: "resources/read",
            kind: "server",
            recipient: { kind: "mcp-resource", id: uri.href },
            attributes: {
              [GEN_AI_ATTRIBUTES.mcpMethodName]: "resources/read",
              [GEN_AI_ATTRIBUTES.mcpResourceUri]: uri.href,
            },
          },
          async (span) => {
            try {
              return await read(uri, ...rest);
            } catch (error) {
              // A protocol error's JSON-RPC code is its `error.type`, as the MCP conventions say.
              const code = (error as { code?: unknown } | null)?.code;
              if (typeof code === "number") span.fail(String(code), thrownMessage(error));
              throw error;
            }
          },
        ),
      ),
    )) as never;
}

/** `load`, recording what it loaded on the delivery span it runs in. */
export function tracedLoader(
  load: TaskContextLoader,
  tokenizer: Tokenizer | undefined,
): TaskContextLoader {
  return async () => {
    const context = await load();
    const span = currentDelivery();
    span?.recordContext(context, tokenizer);
    span?.setAttributes(contextViewAttributes(context));
    return context;
  };
}
