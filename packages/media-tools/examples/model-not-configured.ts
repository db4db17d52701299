// A tool whose model was not configured says which option to pass.
import { memoryWorkspace } from "@task-context/core";
import { createMediaTools } from "@task-context/media-tools";

//#region modelNotConfigured
const { generate_audio } = createMediaTools({
  workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen, a note-taking app." }),
  models: {},
});

const result = await generate_audio.execute({ text: "Welcome to Lumen." });
if (!result.success) console.error(result.code, result.error);
// "MODEL_NOT_CONFIGURED" "generate_audio needs a speech model, and none is configured. Pass `models.speech` to createMediaTools; until then this tool cannot be used."
//#endregion
