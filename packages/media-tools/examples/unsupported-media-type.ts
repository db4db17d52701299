// A file's type comes from its content, not its name, and the error names the tool that fits.
import { memoryWorkspace } from "@task-context/core";
import { createMediaTools } from "@task-context/media-tools";

//#region unsupportedMediaType
const { understand_image } = createMediaTools({
  workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen.", "logo.png": "LUMEN" }),
  models: {},
});
const result = await understand_image.execute({ path: "logo.png", prompt: "What is shown?" });
// { success: false, code: "UNSUPPORTED_MEDIA_TYPE",
//   error: '"logo.png" is text/plain (detected from its content), not an image. Use understand_file or read_media, which picks the tool from the content.' }
//#endregion
