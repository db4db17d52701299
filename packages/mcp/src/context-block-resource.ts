import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
} from "@modelcontextprotocol/server";
import type { Workspace } from "@task-context/core";
import { type ContextBlock, validate } from "@task-context/protocols";
import { renderContextBlock, resolveContextBlock } from "@task-context/protocols/context-block";
import { resourceError } from "./protocol-errors.ts";
import { CONTEXT_BLOCK_URI } from "./resource-uris.ts";

const CONVENTIONS_PATH = "docs/CONVENTIONS.md";

/** `/srv/app` + `docs/CONVENTIONS.md` → `/srv/app/docs/CONVENTIONS.md` (a Windows root keeps `\`). */
function underProject(projectPath: string, path: string): string {
  const separator = projectPath.includes("\\") && !projectPath.includes("/") ? "\\" : "/";
  const root = projectPath.endsWith(separator) ? projectPath : projectPath + separator;
  return root + path.replaceAll("/", separator);
}

/**
 * Builds the workspace's Context Protocol v1 block from `docs/project.json` (stack, commands) and
 * `docs/CONVENTIONS.md` (the conventions, with `fullPath`), by spec 004's receiver fallback.
 */
async function workspaceContextBlock(workspace: Workspace, projectPath: string, uri: string) {
  const resolved = await resolveContextBlock("", workspace).catch((error: unknown) =>
    resourceError(uri, error),
  );
  const { project, conventions, issues, warning } = resolved;
  const notes = [warning, ...issues.map((issue) => issue.message)].filter(
    (note): note is string => note !== undefined,
  );
  if (project.stack === undefined && conventions.text === undefined) {
    throw new ResourceNotFoundError(
      uri,
      `The workspace has no Context Protocol v1 context: ${notes.join(" ")}`,
    );
  }
  const summary = conventions.text?.trim();
  const commands = Object.keys(project.commands).length === 0 ? undefined : project.commands;
  const block = {
    version: 1,
    project: { path: projectPath, stack: project.stack, ...(commands && { commands }) },
    conventions: {
      summary,
      ...(summary !== undefined && { fullPath: underProject(projectPath, CONVENTIONS_PATH) }),
    },
  };
  const checked = validate("context-block.v1", block);
  if (!checked.valid) {
    const problems = checked.issues.map((issue) => issue.message);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `docs/project.json and ${CONVENTIONS_PATH} do not make a valid Context Protocol v1 block: ${[...problems, ...notes].join(" ")}`,
      { uri, issues: checked.issues },
    );
  }
  return { block: block as ContextBlock, notes, issues };
}

/**
 * Registers the workspace's Context Protocol v1 block: `<context>` … `</context>` as a sender
 * would put it at the start of a subagent prompt, with `project.path` set to `projectPath`. Why
 * a file was missing or cut is in `_meta["task-context/warning"]`, problems with the files'
 * content in `_meta["task-context/issues"]`.
 */
export function registerContextBlockResource(
  server: McpServer,
  workspace: Workspace,
  projectPath: string,
): void {
  server.registerResource(
    "context-block",
    CONTEXT_BLOCK_URI,
    {
      title: "Context Protocol v1 block",
      description:
        "The project's <context> block (version 1): stack and commands from docs/project.json, conventions from docs/CONVENTIONS.md.",
      mimeType: "text/plain",
    },
    async (uri) => {
      const { block, notes, issues } = await workspaceContextBlock(
        workspace,
        projectPath,
        uri.href,
      );
      const meta: Record<string, unknown> = {};
      if (notes.length > 0) meta["task-context/warning"] = notes.join(" ");
      if (issues.length > 0) meta["task-context/issues"] = issues;
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: "text/plain",
            text: renderContextBlock(block),
            ...(notes.length > 0 && { _meta: meta }),
          },
        ],
      };
    },
  );
}
