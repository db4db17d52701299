// An agent with read_media and generate_media: every call carries CONTEXT.md to the external model.
import { openai } from "@ai-sdk/openai";
import { nodeWorkspace } from "@task-context/core/node";
import { createMediaTools } from "@task-context/media-tools";
import { generateText, stepCountIs } from "ai";

//#region createMediaTools
const { read_media, generate_media } = createMediaTools({
  workspace: nodeWorkspace("."),
  models: {
    understanding: openai("gpt-5-mini"), // images, video, PDFs, text (and audio without `transcription`)
    image: openai.image("gpt-image-1"),
    speech: openai.speech("gpt-4o-mini-tts"),
    transcription: openai.transcription("gpt-4o-transcribe"),
    // video: any provider's video model, e.g. google.video("veo-3.1-generate-001") from @ai-sdk/google
  },
});

const result = await generateText({
  model: openai("gpt-5"),
  tools: { read_media, generate_media },
  stopWhen: stepCountIs(10),
  prompt: "Check screens/home.png against the brand rules, then draw a better hero image.",
});
//#endregion
