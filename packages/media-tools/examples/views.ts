// Views of CONTEXT.md per tool: the image model receives what we are building, the key terms and
// the brand rules, not the test commands. Run by src/views.test.ts.
import { CONTEXT_VIEW_PRESETS, type Workspace } from "@task-context/core";
import {
  createMediaTools,
  type MediaModels,
  taskContextMiddleware,
} from "@task-context/media-tools";
import { wrapLanguageModel } from "ai";

/** The media tools with a view for the image model; a hero image generated with it. */
export async function mediaToolsWithViews(workspace: Workspace, models: MediaModels) {
  //#region createMediaToolsWithViews
  const { read_media, generate_media } = createMediaTools({
    workspace,
    models,
    views: {
      generate_image: CONTEXT_VIEW_PRESETS.media, // also generate_media with type "image"
      understand_image: {
        name: "image-reader",
        include: ["What we are building", "Key terminology"],
      },
    },
  });
  const result = await generate_media.execute({ type: "image", prompt: "A hero image." });
  // result.contextSha256: the hash of the view the image model received
  // result.contextView: { name: "media", sections: ["What we are building", "Key terminology",
  //   "Visual and brand guidelines"], fileSha256: "…" } — fileSha256: the whole file's
  //#endregion
  return { read_media, result };
}

/** A model wrapped with the middleware, delivering a view. */
export function wrappedWithView(
  workspace: Workspace,
  model: Parameters<typeof wrapLanguageModel>[0]["model"],
) {
  //#region middlewareWithView
  const wrapped = wrapLanguageModel({
    model,
    middleware: taskContextMiddleware({ workspace, view: CONTEXT_VIEW_PRESETS.brief }),
  });
  // providerMetadata.taskContext: { contextSha256, contextView: { name: "brief", sections, fileSha256 } }
  //#endregion
  return wrapped;
}
