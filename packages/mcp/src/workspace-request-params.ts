import * as z from "zod";
import type { RequestParamsSchemas } from "./request-params-guard.ts";

const uri = z.string().describe("The resource's URI, such as task-context://workspace/CONTEXT.md");
const page = z.optional(
  z.object({ cursor: z.optional(z.string().describe("The nextCursor of the previous page")) }),
);

/** The params of each request the workspace server serves, as the protocol defines them. */
const WORKSPACE_REQUEST_PARAMS: RequestParamsSchemas = {
  "resources/read": z.object({ uri }),
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

/** With the methods whose handlers exist only when the server offers subscriptions. */
const SUBSCRIBABLE_REQUEST_PARAMS: RequestParamsSchemas = {
  ...WORKSPACE_REQUEST_PARAMS,
  "resources/subscribe": z.object({ uri }),
  "resources/unsubscribe": z.object({ uri }),
};

/**
 * The params the workspace server checks: `resources/subscribe` and `resources/unsubscribe`
 * only when it serves them (`subscribable`); otherwise the SDK answers them `-32601`.
 */
export function workspaceRequestParams(subscribable: boolean): RequestParamsSchemas {
  return subscribable ? SUBSCRIBABLE_REQUEST_PARAMS : WORKSPACE_REQUEST_PARAMS;
}
