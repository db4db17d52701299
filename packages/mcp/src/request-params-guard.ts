import {
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
} from "@modelcontextprotocol/server";
import { checkValue } from "@task-context/protocols/internal";
import type * as z from "zod";
import { revisionHasMethod } from "./protocol-revisions.ts";
import { wrapTransport } from "./wrap-transport.ts";

/** The params schema of each request method a server checks, by method name. */
export type RequestParamsSchemas = Readonly<Record<string, z.ZodType>>;

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

/**
 * The answer to a JSON-RPC message whose params break its method's schema in `schemas`:
 * `-32602 Invalid params` with a sentence per problem and the problems at their pointers in
 * `data.issues`. The SDK checks params too, but a failure there is `-32603 Internal error` with
 * zod's dump (`resources/read`, `prompts/get`) or a raw dump under `-32602` (`tools/call`).
 *
 * Undefined — the message goes on to the SDK — when it is not a request, its method has no
 * schema here, its params are valid, or its method is not one of the revision the request
 * claims (`resources/subscribe` at 2026-07-28, which removed it): the SDK answers that as the
 * revision says, `-32601 Method not found` (over HTTP with a 404).
 */
export function malformedParamsAnswer(
  message: unknown,
  schemas: RequestParamsSchemas,
): JSONRPCErrorResponse | undefined {
  if (!isJSONRPCRequest(message)) return undefined;
  const { id, method, params } = message as JSONRPCRequest;
  const schema = Object.hasOwn(schemas, method) ? schemas[method] : undefined;
  if (schema === undefined || !revisionHasMethod(params, method)) return undefined;
  const checked = checkValue(schema, params, { root: "params" });
  if (checked.valid) return undefined;
  const { code, message: text, data } = invalidParams(`params for ${method}`, checked.issues);
  return { jsonrpc: "2.0", id, error: { code, message: text, data } };
}

/**
 * Puts a check in front of every connection of `server`: `answer` sees each request first, and
 * what it returns (such as {@link malformedParamsAnswer}'s `-32602`) is sent in place of the
 * SDK's answer; undefined lets the request go on to the SDK.
 */
export function guardRequestParams(
  server: McpServer,
  answer: (request: JSONRPCRequest) => JSONRPCMessage | undefined,
): void {
  const connect = server.connect.bind(server);
  server.connect = (transport) => {
    const guarded = wrapTransport(transport, {
      message(message, _extra, deliver) {
        const refusal = isJSONRPCRequest(message) ? answer(message) : undefined;
        if (refusal === undefined) return deliver();
        transport.send(refusal).catch((error: unknown) => {
          guarded.onerror?.(error instanceof Error ? error : new Error(String(error)));
        });
      },
    });
    return connect(guarded);
  };
}
