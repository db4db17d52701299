/**
 * What the task-context MCP servers share — this package's workspace server and the delivery
 * service's `/mcp` (`@task-context/server`): the request-params guard that knows which methods
 * each protocol revision has, the DNS-rebinding check, and the one shape of tool results and
 * tool errors. Not part of the public API: names and signatures may change in any release.
 *
 * @internal
 * @module
 */
export { type RefusedName, refusedName } from "./dns-rebinding-guard.ts";
export { revisionHasMethod } from "./protocol-revisions.ts";
export { malformedParamsAnswer, type RequestParamsSchemas } from "./request-params-guard.ts";
export { type ToolErrorBody, toolErrorResult, toolResult } from "./tool-results.ts";
