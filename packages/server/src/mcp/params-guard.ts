import { checkValue } from "@task-context/protocols/internal";
import * as z from "zod";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { toolError } from "./tool-result.ts";

const page = z.optional(
  z.object({ cursor: z.optional(z.string().describe("The nextCursor of the previous page")) }),
);

/**
 * The params of each request `/mcp` serves, as the protocol defines them. The SDK checks them
 * too, but a failure there is `-32603 Internal error` with zod's dump (`resources/read`) or a raw
 * dump under `-32602` (`tools/call`): this check runs first and answers `-32602 Invalid params`
 * with a sentence per problem.
 */
const paramsSchemas: Record<string, z.ZodType> = {
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

type JsonRpcId = string | number;

/** A JSON-RPC request (one message with a `method` and an `id`), or undefined. */
function requestOf(
  message: unknown,
): { id: JsonRpcId; method: string; params?: unknown } | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const { id, method } = message as { id?: unknown; method?: unknown };
  return typeof method === "string" && (typeof id === "string" || typeof id === "number")
    ? (message as { id: JsonRpcId; method: string; params?: unknown })
    : undefined;
}

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
 * Invalid params` with a readable message and `data.issues` (JSON Pointers); for `tools/call`
 * whose `arguments` is not an object (`[1, 2]`), the tool error every tool gives malformed
 * arguments (`INVALID_REQUEST`). Undefined when the message may go on to the SDK.
 */
export function malformedParamsAnswer(message: unknown): object | undefined {
  const request = requestOf(message);
  const schema = request === undefined ? undefined : paramsSchemas[request.method];
  if (request === undefined || schema === undefined) return undefined;
  const checked = checkValue(schema, request.params, { root: "params" });
  if (!checked.valid) {
    const listed = checked.issues.map((issue) => issue.message).join(" ");
    return {
      jsonrpc: "2.0",
      id: request.id,
      error: {
        code: -32602,
        message: `Invalid params for ${request.method}: ${listed}`,
        data: { issues: checked.issues.map(({ path, message }) => ({ path, message })) },
      },
    };
  }
  const args = (request.params as { arguments?: unknown } | undefined)?.arguments;
  if (
    request.method === "tools/call" &&
    args !== undefined &&
    (typeof args !== "object" || args === null || Array.isArray(args))
  ) {
    return { jsonrpc: "2.0", id: request.id, result: argumentsRefusal(args) };
  }
  return undefined;
}
