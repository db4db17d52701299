// Views of CONTEXT.md: the sections one recipient needs, with its own budget. Run by
// src/views/examples.test.ts.
import {
  CONTEXT_VIEW_PRESETS,
  type ContextView,
  ContextViewEmptyError,
  contextHeadings,
  injectTaskContext,
  loadTaskContext,
  selectContextView,
  type Workspace,
} from "@task-context/core";

/** A view for an image model. */
export function contextViewExample() {
  //#region contextView
  const imageModel: ContextView = {
    name: "image-model",
    include: ["What we are building", "Key terminology", "Visual and brand guidelines"],
    maxChars: 4_000,
  };
  //#endregion
  return imageModel;
}

/** The headings a view can name. */
export function headingsExample() {
  //#region contextHeadings
  const headings = contextHeadings("# Task context\n\n## Key terminology\n- **Vault**: notes.");
  // [{ level: 1, text: "Task context", line: 1 }, { level: 2, text: "Key terminology", line: 3 }]
  //#endregion
  return headings;
}

/** What a view selects of a text, without loading anything. */
export function selectExample() {
  //#region selectContextView
  const selection = selectContextView(
    "# Task context\n\n## What we are building\nLumen, a notes app.\n\n## Other details\nRun pnpm test.",
    { name: "image-model", include: ["What we are building", "Brand rules"] },
  );
  // { content: "## What we are building\nLumen, a notes app.",
  //   sections: ["What we are building"], unknownHeadings: ["Brand rules"] }
  //#endregion
  return selection;
}

/** Loading a view: what an image model receives, and its receipt. */
export async function loadViewExample(workspace: Workspace) {
  //#region loadTaskContextWithView
  const context = await loadTaskContext(workspace, { view: CONTEXT_VIEW_PRESETS.media });
  const prompt = injectTaskContext("A hero image for the App Store page.", context);
  // context.view: { name: "media", sections: ["What we are building", "Key terminology",
  //   "Visual and brand guidelines"], fileSha256: "…" } — the whole file's hash;
  // context.sha256 is the hash of the view's text, what the image model received.
  if (context.warning) console.warn(context.warning); // e.g. a heading the file does not have

  try {
    await loadTaskContext(workspace, { view: { name: "ops", include: ["Deployment"] } });
  } catch (error) {
    if (!ContextViewEmptyError.isInstance(error)) throw error;
    console.error(error.message); // View "ops" selects nothing of CONTEXT.md: it includes "Deployment" …
  }
  //#endregion
  return { context, prompt };
}
