import { requireFileData, requireObject } from "./arguments.ts";
import { FileNotFoundError } from "./errors/file-not-found-error.ts";
import { NotRegularFileError } from "./errors/not-regular-file-error.ts";
import { WorkspacePathError } from "./errors/workspace-path-error.ts";
import { readLimit } from "./read-limit.ts";
import { encodeUtf8 } from "./utf8.ts";
import type { FileContent, ReadFileOptions, Workspace } from "./workspace.ts";
import { parseWorkspacePath } from "./workspace-path.ts";

function toBytes(data: string | Uint8Array): Uint8Array {
  return typeof data === "string" ? encodeUtf8(data) : data.slice();
}

/**
 * A workspace held in memory: the same path rules as a directory on disk, on every runtime.
 *
 * @example
 * ```ts source="../examples/workspace.ts#memoryWorkspace"
 * const notes = memoryWorkspace({ "CONTEXT.md": "We are building Lumen, a note-taking app." });
 * await loadTaskContext(notes);
 * ```
 */
export function memoryWorkspace(files: Record<string, string | Uint8Array> = {}): Workspace {
  requireObject("files", files, "an object that maps workspace paths to file contents");
  const store = new Map<string, Uint8Array>();

  // Every proper prefix of a stored path is a directory; kept as a set so lookups stay O(1).
  const directories = new Set<string>();
  const isDirectory = (key: string) => directories.has(key);

  const put = (path: string, data: string | Uint8Array) => {
    const segments = parseWorkspacePath(path);
    requireFileData(`content of ${JSON.stringify(path)}`, data);
    const key = segments.join("/");
    for (let end = 1; end < segments.length; end++) {
      if (store.has(segments.slice(0, end).join("/"))) {
        throw new WorkspacePathError({
          path,
          problem: `"${segments.slice(0, end).join("/")}" is a file, not a directory`,
        });
      }
    }
    if (isDirectory(key)) throw new NotRegularFileError({ path, kind: "directory" });
    store.set(key, toBytes(data));
    for (let end = 1; end < segments.length; end++)
      directories.add(segments.slice(0, end).join("/"));
  };

  for (const [path, data] of Object.entries(files)) put(path, data);

  return {
    description: "memory workspace",
    async readFile(path: string, options: ReadFileOptions = {}): Promise<FileContent> {
      requireObject("options", options);
      const key = parseWorkspacePath(path).join("/");
      const bytes = store.get(key);
      if (bytes === undefined) {
        if (isDirectory(key)) throw new NotRegularFileError({ path, kind: "directory" });
        throw new FileNotFoundError({ path });
      }
      return { bytes: bytes.slice(0, readLimit(options, bytes.length)), size: bytes.length };
    },
    async writeFile(path: string, data: string | Uint8Array): Promise<void> {
      put(path, data);
    },
  };
}
