import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { CONTEXT_FILENAME } from "@task-context/core";

/** Folders never copied into the probe's workspace: dependencies and history are not context. */
const SKIPPED = new Set(["node_modules", ".git"]);

/** A throwaway copy of a workspace whose CONTEXT.md carries a unique canary at both ends. */
export interface CanaryWorkspace {
  /** The copy's absolute path: send the probe's requests from here. */
  directory: string;
  /** The random token, 32 hexadecimal digits, in both canary lines. */
  token: string;
  /** The line planted first in CONTEXT.md: `task-context canary <token> begin`. */
  first: string;
  /** The line planted last in CONTEXT.md: `task-context canary <token> end`. */
  last: string;
  /** CONTEXT.md of the copy, as written. */
  content: string;
  /** Deletes the copy. */
  remove: () => Promise<void>;
}

/**
 * Copies `workspace` (without node_modules and .git) to a new temporary folder and writes its
 * CONTEXT.md with a canary line first and last, so that a recipient that gets only one end of
 * the context shows it was cut. A workspace without CONTEXT.md gets none in the copy: the probe
 * then shows which paths deliver nothing. Remove the copy with `remove()`.
 */
export async function plantCanary(workspace: string): Promise<CanaryWorkspace> {
  const token = randomBytes(16).toString("hex");
  const first = `task-context canary ${token} begin`;
  const last = `task-context canary ${token} end`;
  const directory = await mkdtemp(join(tmpdir(), "task-context-probe-"));
  try {
    await cp(workspace, directory, {
      recursive: true,
      filter: (source) => !SKIPPED.has(basename(source)),
    });
    const path = join(directory, CONTEXT_FILENAME);
    const original = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    const content =
      original === undefined || original.trim() === ""
        ? ""
        : `${first}\n\n${original.trim()}\n\n${last}\n`;
    if (content !== "") await writeFile(path, content);
    return {
      directory,
      token,
      first,
      last,
      content,
      remove: () => rm(directory, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
