import { lstatSync } from "node:fs";
import type { TaskContext } from "@task-context/core";
import type { TaskContextLoader } from "./task-context-loader.ts";

/**
 * How long after its last change a file must be before its load is reused: within this window a
 * second change can keep the same timestamp on file systems with coarse clocks (2 s on FAT), as
 * git's "racily clean" entries.
 */
const SETTLED_MS = 2_000;

/**
 * Reuses the last load of CONTEXT.md while the file at `path` is the same (device, inode, size,
 * link count, modification and change times to the nanosecond): one `lstat` instead of an open,
 * read, hash and trim on every call. A file changed in the last two seconds, a missing file or
 * anything but a regular file is always loaded again — through the workspace, whose checks
 * (symbolic links, FIFOs, bounded reads) every new content still passes.
 */
export function fingerprintedLoader(
  load: TaskContextLoader,
  path: string,
  settledMs: number = SETTLED_MS,
): TaskContextLoader {
  let cached: { fingerprint: string; context: Promise<TaskContext> } | undefined;
  return () => {
    let fingerprint: string | undefined;
    try {
      const stats = lstatSync(path, { bigint: true });
      const settled = Date.now() - Number(stats.ctimeMs) >= settledMs;
      if (stats.isFile() && settled) {
        fingerprint = `${stats.dev}:${stats.ino}:${stats.size}:${stats.nlink}:${stats.mtimeNs}:${stats.ctimeNs}`;
      }
    } catch {
      // Missing or unreadable: the workspace says why.
    }
    if (fingerprint === undefined) return load();
    if (cached?.fingerprint === fingerprint) return cached.context;
    const context = load();
    const entry = { fingerprint, context };
    cached = entry;
    context.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return context;
  };
}
