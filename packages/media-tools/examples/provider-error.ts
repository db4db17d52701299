// A provider's failure keeps its message and HTTP status.
import { openai } from "@ai-sdk/openai";
import { memoryWorkspace } from "@task-context/core";
import { createMediaTools } from "@task-context/media-tools";

//#region providerError
const { generate_image } = createMediaTools({
  workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen." }),
  models: { image: openai.image("gpt-image-1") },
});
const result = await generate_image.execute({ prompt: "A logo.", size: "7x7" });
if (!result.success && result.code === "PROVIDER_ERROR") console.error(result.error);
// "generate_image: the model provider failed (HTTP 400): Invalid size: 7x7 is not supported."
//#endregion
