// A tool call past its timeoutMs is aborted, and nothing is written.
import { openai } from "@ai-sdk/openai";
import { nodeWorkspace } from "@task-context/core/node";
import { createMediaTools } from "@task-context/media-tools";

//#region timeout
const { generate_image } = createMediaTools({
  workspace: nodeWorkspace("/srv/agents/run-42"),
  models: { image: openai.image("gpt-image-1") },
  timeoutMs: { generate_image: 60_000 },
});
const result = await generate_image.execute({ prompt: "A detailed poster." });
// After a minute without an answer: { success: false, code: "TIMEOUT",
//   error: "generate_image timed out after 60000 ms and was aborted; nothing was written. Try again, use a smaller input, or raise `timeoutMs` in createMediaTools." }
//#endregion
