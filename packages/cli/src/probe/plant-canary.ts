import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { CONTEXT_FILENAME, contextHeadings } from "@task-context/core";

/** Folders never copied into the probe's workspace: dependencies and history are not context. */
const SKIPPED = new Set(["node_modules", ".git"]);

/** The canary line planted in one section of CONTEXT.md, below its heading. */
export interface SectionCanary {
  /** The heading's text, without the `#`s, as views name it. */
  heading: string;
  /** The line planted below the heading. */
  line: string;
}

/**
 * `markdown` with a canary line below each of its headings (fenced code is not a heading, as
 * core's views read it), and the lines planted.
 */
function plantSections(
  markdown: string,
  token: string,
): { text: string; sections: SectionCanary[] } {
  const lines = markdown.split("\n");
  const sections: SectionCanary[] = [];
  // From the last heading up, so that each insertion leaves the earlier line numbers alone.
  const headings = contextHeadings(markdown);
  for (const [index, heading] of [...headings.entries()].reverse()) {
    const line = `task-context canary ${token} section ${index + 1}`;
    lines.splice(heading.line, 0, line);
    sections.unshift({ heading: heading.text, line });
  }
  return { text: lines.join("\n"), sections };
}

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
  /**
   * Per heading of CONTEXT.md, in order, the line planted right below it:
   * `task-context canary <token> section <n>`. A view's recipient shows which sections arrived.
   */
  sections: SectionCanary[];
  /** CONTEXT.md of the copy, as written. */
  content: string;
  /** Deletes the copy. */
  remove: () => Promise<void>;
}

/**
 * Copies `workspace` (without node_modules and .git) to a new temporary folder and writes its
 * CONTEXT.md with a canary line first and last, so that a recipient that gets only one end of
 * the context shows it was cut, and one below each heading, so that a recipient given a view
 * shows which sections arrived. A workspace without CONTEXT.md gets none in the copy: the probe
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
    const body =
      original === undefined || original.trim() === ""
        ? undefined
        : plantSections(original.trim(), token);
    const content = body === undefined ? "" : `${first}\n\n${body.text}\n\n${last}\n`;
    if (content !== "") await writeFile(path, content);
    return {
      directory,
      token,
      first,
      last,
      sections: body?.sections ?? [],
      content,
      remove: () => rm(directory, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}
