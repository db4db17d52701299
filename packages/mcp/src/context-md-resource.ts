import type { McpServer } from "@modelcontextprotocol/server";
import type { TaskContext } from "@task-context/core";
import { resourceError } from "./protocol-errors.ts";
import { CONTEXT_MD_URI } from "./resource-uris.ts";
import { contextMeta, type TaskContextLoader } from "./task-context-loader.ts";

/**
 * Registers CONTEXT.md as loaded: the bounded, trimmed text that every recipient receives, with
 * `task-context/sha256`, `task-context/truncated`, `task-context/originalLength` and (when cut)
 * `task-context/warning` in the content's `_meta`.
 */
export function registerContextMdResource(server: McpServer, load: TaskContextLoader): void {
  server.registerResource(
    "CONTEXT.md",
    CONTEXT_MD_URI,
    {
      title: "Task context (CONTEXT.md)",
      description:
        "What we are building, key terms, brand rules and conventions: the task context every recipient works with, bounded as delivered. _meta holds its sha256 and the truncation warning.",
      mimeType: "text/markdown",
    },
    (uri) => readContextMd(uri.href, load),
  );
}

/**
 * CONTEXT.md (or a view of it) as `load` delivers it, as the contents of the resource at `href`:
 * the text with its `_meta`, or the resource error of a failed load.
 */
export async function readContextMd(href: string, load: () => Promise<TaskContext>) {
  try {
    const context = await load();
    return {
      contents: [
        {
          uri: href,
          mimeType: "text/markdown",
          text: context.content,
          _meta: contextMeta(context),
        },
      ],
    };
  } catch (error) {
    return resourceError(href, error);
  }
}
