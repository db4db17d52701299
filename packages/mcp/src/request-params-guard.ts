import {
  isJSONRPCRequest,
  type JSONRPCRequest,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import { checkValue } from "@task-context/protocols/internal";
import * as z from "zod";
import { wrapTransport } from "./wrap-transport.ts";

const uri = z.string().describe("The resource's URI, such as task-context://workspace/CONTEXT.md");
const page = z.optional(
  z.object({ cursor: z.optional(z.string().describe("The nextCursor of the previous page")) }),
);

/**
 * The params of each request the server serves, as the protocol defines them. The SDK checks
 * them too, but a failure there is `-32603 Internal error` with zod's dump (`resources/read`,
 * `prompts/get`) or a raw dump under `-32602` (`tools/call`): this check runs first and answers
 * `-32602 Invalid params` with a sentence per problem.
 */
const paramsSchemas: Record<string, z.ZodType> = {
  "resources/read": z.object({ uri }),
  "resources/subscribe": z.object({ uri }),
  "resources/unsubscribe": z.object({ uri }),
  "prompts/get": z.object({
    name: z.string().describe("The prompt's name, such as with_task_context"),
    arguments: z.optional(
      z.record(z.string(), z.string()).describe("The prompt's arguments by name, each a string"),
    ),
  }),
  "tools/call": z.object({
    name: z.string().describe("The tool's name, such as get_task_context"),
    arguments: z.optional(
      z.record(z.string(), z.unknown()).describe("The tool's arguments by name"),
    ),
  }),
  "tools/list": page,
  "resources/list": page,
  "resources/templates/list": page,
  "prompts/list": page,
};

/** The methods whose handlers exist only when the server offers subscriptions. */
const SUBSCRIPTION_METHODS = new Set(["resources/subscribe", "resources/unsubscribe"]);

/**
 * The protocol's `-32602 Invalid params`, `Invalid <what>: <every problem>` (such as `Invalid
 * params for resources/read: uri is required: …`), each problem at its JSON Pointer in
 * `data.issues`.
 */
export function invalidParams(
  what: string,
  issues: ReadonlyArray<{ path: string; message: string }>,
): ProtocolError {
  const listed = issues.map((issue) => issue.message).join(" ");
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${what}: ${listed}`, {
    issues: issues.map(({ path, message }) => ({ path, message })),
  });
}

/** The error answer for a request whose params break its method's schema, if they do. */
function paramsRefusal(request: JSONRPCRequest, subscribable: boolean) {
  const schema = paramsSchemas[request.method];
  if (schema === undefined) return undefined;
  if (SUBSCRIPTION_METHODS.has(request.method) && !subscribable) return undefined;
  const checked = checkValue(schema, request.params, { root: "params" });
  if (checked.valid) return undefined;
  const { code, message, data } = invalidParams(`params for ${request.method}`, checked.issues);
  return { jsonrpc: "2.0" as const, id: request.id, error: { code, message, data } };
}

/**
 * Puts the params check in front of every connection of `server`: a request with malformed
 * params (`resources/read` without `uri`, `prompts/get` with `name: null` or `arguments: [1, 2]`,
 * …) is answered `-32602` with a readable message and never reaches the SDK.
 */
export function guardRequestParams(server: McpServer): void {
  const connect = server.connect.bind(server);
  server.connect = (transport) => {
    const subscribable = server.server.getCapabilities().resources?.subscribe === true;
    const guarded = wrapTransport(transport, {
      message(message, _extra, deliver) {
        const refusal = isJSONRPCRequest(message)
          ? paramsRefusal(message, subscribable)
          : undefined;
        if (refusal === undefined) return deliver();
        transport.send(refusal).catch((error: unknown) => {
          guarded.onerror?.(error instanceof Error ? error : new Error(String(error)));
        });
      },
    });
    return connect(guarded);
  };
}
