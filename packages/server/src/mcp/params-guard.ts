import { isJSONRPCRequest } from "@modelcontextprotocol/server";
import {
  malformedParamsAnswer as protocolParamsAnswer,
  type RequestParamsSchemas,
  revisionHasMethod,
} from "@task-context/mcp/internal";
import * as z from "zod";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { toolError } from "./tool-result.ts";

const page = z.optional(
  z.object({ cursor: z.optional(z.string().describe("The nextCursor of the previous page")) }),
);

/** The params of each request `/mcp` serves, as the protocol defines them. */
const paramsSchemas: RequestParamsSchemas = {
  "resources/read": z.object({
    uri: z.string().describe("The resource's URI, such as task-context://runs/{run_id}/context"),
  }),
  "tools/call": z.object({
    name: z.string().describe("The tool's name, such as claim_work_item"),
    arguments: z.optional(z.unknown()),
  }),
  "tools/list": page,
  "resources/list": page,
  "resources/templates/list": page,
};

/** A tool's arguments that are not an object of named arguments: the contract's `INVALID_REQUEST`. */
function argumentsRefusal(value: unknown) {
  const got = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
  return toolError(
    new DeliveryError({
      code: "INVALID_REQUEST",
      message: "The tool arguments do not match the contract. Fix the issues listed.",
      issues: [
        {
          path: "",
          message: `Expected an object of named arguments (such as { "work_item_id": "wi_…", "attempt": 1 }), got ${got}.`,
        },
      ],
    }),
  );
}

/**
 * The answer to a JSON-RPC message whose params the SDK would answer with a dump: `-32602
 * Invalid params` with a readable message and `data.issues` (JSON Pointers), from the params
 * guard the workspace MCP server uses too (which leaves a method the request's protocol
 * revision does not have to the SDK); for `tools/call` whose `arguments` is not an object
 * (`[1, 2]`), the tool error every tool gives malformed arguments (`INVALID_REQUEST`). Undefined
 * when the message may go on to the SDK.
 */
export function malformedParamsAnswer(message: unknown): object | undefined {
  const refusal = protocolParamsAnswer(message, paramsSchemas);
  if (refusal !== undefined || !isJSONRPCRequest(message)) return refusal;
  const { id, method, params } = message;
  const args = (params as { arguments?: unknown } | undefined)?.arguments;
  if (
    method === "tools/call" &&
    revisionHasMethod(params, method) &&
    args !== undefined &&
    (typeof args !== "object" || args === null || Array.isArray(args))
  ) {
    return { jsonrpc: "2.0", id, result: argumentsRefusal(args) };
  }
  return undefined;
}
