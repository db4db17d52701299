// Calling a media tool directly: it never throws, it returns success or a code and an error.
import { openai } from "@ai-sdk/openai";
import { nodeWorkspace } from "@task-context/core/node";
import { createMediaTools } from "@task-context/media-tools";

const { read_media } = createMediaTools({
  workspace: nodeWorkspace("."),
  models: { understanding: openai("gpt-5-mini") },
});

const result = await read_media.execute({
  path: "screens/home.png",
  prompt: "What does the header say?",
});
if (result.success) {
  console.log(result.tool, result.text); // "understand_image" "The header says LUMEN."
} else {
  console.error(result.code, result.error); // e.g. "TASK_CONTEXT_MISSING" "CONTEXT.md not found in workspace. …"
}
