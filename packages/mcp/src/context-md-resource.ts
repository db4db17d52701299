import type { McpServer } from "@modelcontextprotocol/server";
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
    async (uri) => {
      try {
        const context = await load();
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: "text/markdown",
              text: context.content,
              _meta: contextMeta(context),
            },
          ],
        };
      } catch (error) {
        return resourceError(uri.href, error);
      }
    },
  );
}
