import { McpServer } from "@modelcontextprotocol/server";
import { ArgumentError } from "@task-context/core";
import {
  requireContextView,
  requireLoadOptions,
  requireObject,
  requireOptionalBoolean,
  requireWorkspace,
} from "@task-context/core/internal";
import { registerContextBlockResource } from "./context-block-resource.ts";
import { registerContextMdResource } from "./context-md-resource.ts";
import { registerContextMdViewResource } from "./context-md-view-resource.ts";
import { wireContextSubscriptions } from "./context-subscriptions.ts";
import { registerGetTaskContextTool } from "./get-task-context-tool.ts";
import { registerInjectTaskContextTool } from "./inject-task-context-tool.ts";
import { registerLintContextMdTool } from "./lint-context-md-tool.ts";
import { unsupportedRevisionAnswer } from "./protocol-revisions.ts";
import { guardRequestParams, malformedParamsAnswer } from "./request-params-guard.ts";
import { registerSageDocumentResource } from "./sage-document-resource.ts";
import { SERVER_NAME, SERVER_VERSION } from "./server-info.ts";
import { type TaskContextLoader, taskContextLoader } from "./task-context-loader.ts";
import type { TaskContextServerOptions } from "./task-context-server-options.ts";
import { traceDeliveries, tracedLoader } from "./trace-deliveries.ts";
import { registerValidateTool } from "./validate-tool.ts";
import { viewLoader } from "./view-loader.ts";
import { registerWithTaskContextPrompt } from "./with-task-context-prompt.ts";
import { workspaceRequestParams } from "./workspace-request-params.ts";

const INSTRUCTIONS =
  "This server gives you the task context of the workspace: CONTEXT.md (what we are building, key terms, brand rules, conventions). Call get_task_context before you start and follow it. When you call another model yourself, send the text inject_task_context returns. Everything here is read-only.";

function requireProjectPath(projectPath: unknown): string | undefined {
  if (projectPath === undefined) return undefined;
  if (typeof projectPath !== "string" || !/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(projectPath)) {
    throw new ArgumentError({
      argument: "options.projectPath",
      message: `expected the absolute path of the project root (such as /srv/app), got ${JSON.stringify(projectPath)}.`,
    });
  }
  return projectPath;
}

/**
 * An MCP server (the official SDK's `McpServer`) that gives any MCP client the workspace's task
 * context, read-only:
 *
 * - resources: CONTEXT.md as loaded (`task-context://workspace/CONTEXT.md`, with `sha256`,
 *   `truncated`, `originalLength` and `warning` in `_meta`), the Sage documents under
 *   `.sage/context/` (`task-context://workspace/sage/{taskId}`), and with `projectPath` the
 *   Context Protocol v1 block from `docs/project.json` + `docs/CONVENTIONS.md`
 *   (`task-context://workspace/context-block`);
 * - tools: `get_task_context`, `inject_task_context`, `validate`, `lint_context_md`, each with an
 *   output schema and `structuredContent`; a refusal (a missing CONTEXT.md, invalid arguments) is
 *   a tool error (`isError: true`) whose text is `<CODE>: <message>` and whose
 *   `_meta["task-context/error"]` is `{ error, code, issues? }`;
 * - the prompt `with_task_context` (argument `request`; `view`, `include`, `exclude` for a view);
 * - with `view`, that view of CONTEXT.md wherever a request names none (the default view);
 * - with `changes`, `notifications/resources/updated` for CONTEXT.md when it changes.
 *
 * Requests with malformed params (`resources/read` without `uri`, `prompts/get` with
 * `arguments: [1, 2]`) are answered `-32602 Invalid params` with a sentence per problem; a
 * method the request's protocol revision removed (`resources/subscribe` at 2026-07-28) is
 * answered by the SDK as that revision says, `-32601 Method not found`.
 *
 * Each call builds one instance for one connection: pass it as the factory of the SDK's
 * `serveStdio` or `createMcpHandler` (see `serveStdio` of `@task-context/mcp/stdio` for a
 * directory on disk).
 *
 * @throws {ArgumentError} when `workspace` or an option has the wrong type.
 *
 * @example
 * ```ts source="../examples/in-memory.ts#createTaskContextServer"
 * const server = createTaskContextServer({
 *   workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen, a note-taking app." }),
 * });
 * const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverTransport);
 * const client = new Client({ name: "example", version: "1.0.0" });
 * await client.connect(clientTransport);
 * const result = await client.callTool({ name: "get_task_context", arguments: {} });
 * console.log(result.structuredContent);
 * // { content: "We are building Lumen, a note-taking app.", sha256: "…", truncated: false, originalLength: 41 }
 * ```
 */
export function createTaskContextServer(options: TaskContextServerOptions): McpServer {
  return buildTaskContextServer(options, (load) => load);
}

/**
 * {@link createTaskContextServer} with the CONTEXT.md loader wrapped by `wrapLoader` (serveStdio
 * reuses loads of an unchanged file). Internal to the package.
 */
export function buildTaskContextServer(
  options: TaskContextServerOptions,
  wrapLoader: (load: TaskContextLoader) => TaskContextLoader,
): McpServer {
  requireObject("options", options);
  const workspace = requireWorkspace("options.workspace", options.workspace);
  const { maxChars, maxTokens, tokenizer, secrets, projectPath, changes, era = "legacy" } = options;
  // A 2025-era instance without `changes` has no resources/subscribe to serve: it never
  // advertises one. `subscribable` is for 2026-07-28 instances served per request, whose updates
  // the HTTP handler's notifier delivers on subscriptions/listen streams.
  const perRequestSubscriptions =
    requireOptionalBoolean("options.subscribable", options.subscribable) === true &&
    era === "modern";
  const subscribable = changes !== undefined || perRequestSubscriptions;
  const loadOptions = requireLoadOptions({ maxChars, maxTokens, tokenizer, secrets }, "options.");
  const checkedProjectPath = requireProjectPath(projectPath);
  const defaultView =
    options.view === undefined ? undefined : requireContextView("options.view", options.view);
  if (changes !== undefined && typeof changes?.subscribe !== "function") {
    throw new ArgumentError({
      argument: "options.changes",
      message:
        "expected an object with a subscribe(listener) method, such as watchTaskContext(directory).",
    });
  }
  if (era !== "legacy" && era !== "modern") {
    throw new ArgumentError({
      argument: "options.era",
      message: `expected "legacy" or "modern", got ${JSON.stringify(era)}.`,
    });
  }
  if (options.listSageTaskIds !== undefined && typeof options.listSageTaskIds !== "function") {
    throw new ArgumentError({
      argument: "options.listSageTaskIds",
      message: "expected a function that returns the task ids.",
    });
  }

  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION, title: "Task context" },
    {
      instructions: INSTRUCTIONS,
      capabilities: {
        resources: subscribable ? { subscribe: true } : {},
        tools: {},
        prompts: {},
      },
    },
  );
  traceDeliveries(server);
  const paramsSchemas = workspaceRequestParams(subscribable);
  guardRequestParams(
    server,
    (request) =>
      unsupportedRevisionAnswer(request) ?? malformedParamsAnswer(request, paramsSchemas),
  );
  const load = tracedLoader(
    wrapLoader(taskContextLoader(workspace, loadOptions, defaultView)),
    loadOptions.tokenizer,
  );
  registerContextMdResource(server, load);
  const loadView = viewLoader(workspace, loadOptions);
  registerContextMdViewResource(server, loadView);
  registerSageDocumentResource(server, workspace, options.listSageTaskIds);
  if (checkedProjectPath !== undefined) {
    registerContextBlockResource(server, workspace, checkedProjectPath);
  }
  registerGetTaskContextTool(server, load, loadView);
  registerInjectTaskContextTool(server, load, loadView);
  registerValidateTool(server);
  registerLintContextMdTool(server, workspace, loadOptions.maxChars);
  registerWithTaskContextPrompt(server, load, loadView);
  if (changes !== undefined) wireContextSubscriptions(server, changes, era);
  return server;
}
