// A tool call the caller aborts writes nothing.
import { openai } from "@ai-sdk/openai";
import { memoryWorkspace } from "@task-context/core";
import { createMediaTools } from "@task-context/media-tools";

//#region aborted
const { generate_image } = createMediaTools({
  workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen." }),
  models: { image: openai.image("gpt-image-1") },
});
const controller = new AbortController();
const pending = generate_image.execute(
  { prompt: "A hero image." },
  { abortSignal: controller.signal },
);
controller.abort(new Error("the user cancelled"));
const result = await pending;
// { success: false, code: "ABORTED",
//   error: "generate_image was aborted by the caller: the user cancelled; nothing was written." }
//#endregion
