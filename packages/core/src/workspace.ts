/** Options for {@link Workspace.readFile}. */
export interface ReadFileOptions {
  /** Read at most this many bytes from the start of the file (default: the whole file). */
  maxBytes?: number;
}

/** The bytes a {@link Workspace.readFile} call read. */
export interface FileContent {
  /** The bytes read: the whole file, or its first `maxBytes` bytes. */
  bytes: Uint8Array;
  /** The file's full size in bytes, which may be larger than `bytes.length`. */
  size: number;
}

/**
 * The small asynchronous file interface everything in task-context reads and writes through.
 * Paths are relative, "/"-separated and never leave the workspace: implementations refuse `..`,
 * absolute paths, NUL bytes and backslashes before touching any storage.
 *
 * Use {@link memoryWorkspace} anywhere (tests, Workers, browsers) and `nodeWorkspace(root)` from
 * `@task-context/core/node` for a directory on disk.
 */
export interface Workspace {
  /** A human-readable label for messages, such as the root directory. */
  readonly description: string;
  /**
   * Reads a regular file. Throws `FileNotFoundError`, `NotRegularFileError`, `WorkspacePathError`
   * or `WorkspaceEscapeError` (all `TaskContextError`s with a `code`).
   */
  readFile(path: string, options?: ReadFileOptions): Promise<FileContent>;
  /** Writes a regular file atomically (all or nothing), creating parent directories. */
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
}
