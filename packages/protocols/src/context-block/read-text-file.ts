import type { Workspace } from "@task-context/core";
import { decodeUtf8 } from "@task-context/core/internal";

/** Default cap on each file a receiver reads for its context: 64 KiB. */
export const DEFAULT_MAX_FILE_BYTES = 64 * 1024;

/** The text of a bounded read. */
export interface TextFile {
  /** The workspace path that was read. */
  path: string;
  /** The decoded text (UTF-8, byte order mark removed), cut to `maxBytes`. */
  text: string;
  /** The file's full size in bytes. */
  size: number;
  /** True when the file is larger than `maxBytes` and `text` is its beginning only. */
  truncated: boolean;
  /** True when invalid UTF-8 was replaced with U+FFFD. */
  replaced: boolean;
}

/**
 * Reads at most `maxBytes` of a workspace file as UTF-8 text; a character cut at the limit is
 * left out rather than turned into U+FFFD. The workspace's errors propagate.
 */
export async function readTextFile(
  workspace: Workspace,
  path: string,
  maxBytes: number,
): Promise<TextFile> {
  const { bytes, size } = await workspace.readFile(path, { maxBytes });
  const truncated = size > bytes.length;
  return { path, size, truncated, ...decodeUtf8(bytes, !truncated) };
}
