// A subagent that inherits a view of the parent's CONTEXT.md: its read-only copy is the view's
// text. Run by src/views.test.ts.
import { CONTEXT_VIEW_PRESETS } from "@task-context/core";
import { type SubagentRunner, spawnSubagents } from "@task-context/spawner";

/** Spawns a reviewer with the brief view and an implementer with the whole file. */
export async function spawnWithViews(parent: string, runner: SubagentRunner) {
  //#region spawnWithViews
  const [reviewer, implementer] = await spawnSubagents(
    parent,
    [
      {
        id: "review-1",
        subagentType: "review",
        prompt: "Review the copy.",
        view: CONTEXT_VIEW_PRESETS.brief,
      },
      { id: "build-1", prompt: "Build the page." }, // no view: the whole CONTEXT.md
    ],
    { runner },
  );
  // reviewer.view: { name: "brief", sections: ["What we are building", "Key terminology"],
  //   sha256: "…" (its copy of CONTEXT.md, = reviewer.contextSha256), fileSha256: "…" (the whole file) }
  // implementer.view: undefined
  //#endregion
  return { reviewer, implementer };
}
