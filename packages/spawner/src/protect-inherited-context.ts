import { CONTEXT_FILENAME, type Workspace } from "@task-context/core";
import { parseWorkspacePath } from "@task-context/core/internal";
import { ContextReadOnlyError } from "./errors/context-read-only-error.ts";

const PROTECTED = CONTEXT_FILENAME.toLowerCase();

/**
 * True when `path` names the workspace's CONTEXT.md. Compared without regard to ASCII case,
 * because on case-insensitive file systems (macOS, Windows) `context.md` is the same file.
 */
function namesContext(path: string): boolean {
  const segments = parseWorkspacePath(path);
  return segments.length === 1 && (segments[0] as string).toLowerCase() === PROTECTED;
}

/**
 * Wraps a workspace so that CONTEXT.md can be read but never written: `writeFile` on it (also
 * as `./CONTEXT.md` or `context.md`) throws {@link ContextReadOnlyError} before the inner
 * workspace is touched; every other read and write passes through.
 *
 * `spawnSubagents` already hands every runner the subagent's directory through this wrapper
 * (`SubagentInvocation.workspace`). Use it when your runner gives its subagent the files through
 * a Workspace of its own — a remote or sandboxed agent that writes through your service — so that
 * CONTEXT.md stays read-only there too; a file mode of 0444 does not stop a process running as
 * root.
 *
 * @example
 * ```ts source="../examples/read-only-context.ts#protectInheritedContext"
 * const workspace = protectInheritedContext(memoryWorkspace({ "CONTEXT.md": "Building Lumen." }));
 * await workspace.writeFile("notes.md", "Fine.");
 * await workspace.writeFile("CONTEXT.md", "Mine now.").catch((error: unknown) => {
 *   console.error(error); // ContextReadOnlyError: Refused to write "CONTEXT.md": CONTEXT.md is read-only …
 * });
 * ```
 */
export function protectInheritedContext(workspace: Workspace): Workspace {
  return {
    description: `${workspace.description} (CONTEXT.md read-only)`,
    readFile: (path, options) => workspace.readFile(path, options),
    async writeFile(path, data) {
      if (namesContext(path)) throw new ContextReadOnlyError({ path });
      return workspace.writeFile(path, data);
    },
  };
}
