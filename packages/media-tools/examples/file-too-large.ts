// A file over its kind's limit is refused before it is read in full or sent anywhere.
import { openai } from "@ai-sdk/openai";
import { memoryWorkspace } from "@task-context/core";
import { createMediaTools } from "@task-context/media-tools";

//#region fileTooLarge
const png = new Uint8Array(3 * 1024 * 1024);
png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const { read_media } = createMediaTools({
  workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen.", "big.png": png }),
  models: { understanding: openai("gpt-5-mini") },
  limits: { image: 2 * 1024 * 1024 },
});
const result = await read_media.execute({ path: "big.png", prompt: "What is shown?" });
// { success: false, code: "FILE_TOO_LARGE",
//   error: '"big.png" is 3 MiB, over the 2 MiB limit for image files. Use a smaller or compressed file, or raise `limits.image` in createMediaTools.' }
//#endregion
