// Test support: a CONTEXT.md with the sections the brief view selects, and its hashes.
import { memoryWorkspace, type Workspace } from "@task-context/core";

/** A CONTEXT.md with the sections the system prompt teaches agents to write. */
export const CONTEXT = [
  "## What we are building",
  "Harbor, a billing service for marinas.",
  "",
  "## Key terminology",
  "- **Berth**: a mooring place, billed per night.",
  "",
  "## Other details",
  "Money is in integer cents; never floats.",
].join("\n");

/** What the brief view (What we are building, Key terminology) selects of {@link CONTEXT}. */
export const BRIEF = CONTEXT.slice(0, CONTEXT.indexOf("\n\n## Other details"));

export { sha256 } from "@task-context/adapter-test-kit";

/** A workspace holding {@link CONTEXT} as CONTEXT.md (or the files given). */
export const workspaceWith = (
  files: Record<string, string> = { "CONTEXT.md": CONTEXT },
): Workspace => memoryWorkspace(files);
