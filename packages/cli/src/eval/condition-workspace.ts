import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { CONTEXT_FILENAME, loadTaskContext } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import { nodeWorkspace } from "@task-context/core/node";
import { type EvalSpec, viewOfCondition } from "./eval-spec.ts";

/** Folders never copied into a trial's workspace: dependencies and history are not context. */
const SKIPPED = new Set(["node_modules", ".git"]);

/** What CONTEXT.md holds under a condition: undefined for `none`. */
export interface ConditionContext {
  condition: string;
  /** The text written as CONTEXT.md in the trial's workspace; undefined: no CONTEXT.md. */
  content: string | undefined;
  /** Hex SHA-256 of `content` ("" for none): part of each trial's key, so an edit re-runs it. */
  sha256: string;
}

/**
 * The CONTEXT.md of each condition, from the workspace folder: `full` the file as written (its
 * recipients load and redact it as in production), `view:<name>` the view's text as
 * `loadTaskContext` selects it (secrets redacted, the default limits) — as the spawner gives a
 * subagent its view.
 */
export async function conditionContexts(
  spec: EvalSpec,
  conditions: readonly string[],
  workspace: string,
): Promise<Map<string, ConditionContext>> {
  const contexts = new Map<string, ConditionContext>();
  for (const condition of conditions) {
    if (condition === "none") {
      contexts.set(condition, { condition, content: undefined, sha256: "" });
      continue;
    }
    const view = viewOfCondition(spec, condition);
    // Loaded through the workspace rules first: a missing or linked CONTEXT.md fails here.
    const loaded = await loadTaskContext(
      nodeWorkspace(workspace),
      view === undefined ? {} : { view },
    );
    const content =
      view === undefined
        ? await readFile(join(workspace, CONTEXT_FILENAME), "utf8")
        : loaded.content;
    contexts.set(condition, { condition, content, sha256: await sha256Hex(content) });
  }
  return contexts;
}

/**
 * A temporary copy of `workspace` (without node_modules, .git and the `left` paths, such as the
 * results file the run appends to) with CONTEXT.md as the condition has it; `remove` deletes it.
 */
export async function prepareWorkspace(
  workspace: string,
  context: ConditionContext,
  left: ReadonlySet<string> = new Set(),
): Promise<{ directory: string; remove: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), "task-context-eval-"));
  await cp(workspace, directory, {
    recursive: true,
    filter: (source) => !SKIPPED.has(basename(source)) && !left.has(resolve(source)),
  });
  const path = join(directory, CONTEXT_FILENAME);
  await rm(path, { force: true });
  if (context.content !== undefined) await writeFile(path, context.content);
  return { directory, remove: () => rm(directory, { recursive: true, force: true }) };
}
