// Every option of createMediaTools.
import { openai } from "@ai-sdk/openai";
import { nodeWorkspace } from "@task-context/core/node";
import { createMediaTools } from "@task-context/media-tools";
import { generateText, stepCountIs } from "ai";

const tools = createMediaTools({
  workspace: nodeWorkspace("."),
  models: {
    understanding: openai("gpt-5-mini"),
    image: openai.image("gpt-image-1"),
    speech: openai.speech("gpt-4o-mini-tts"),
    transcription: openai.transcription("gpt-4o-transcribe"),
  },
  limits: { video: 200 * 1024 * 1024 },
  timeoutMs: { generate_image: 5 * 60_000 },
  maxRetries: 2,
  providerOptions: { image: { openai: { quality: "high" } } },
  outputDirectory: "generated",
  context: { maxChars: 10_000 },
});

await generateText({
  model: openai("gpt-5"),
  tools: { read_media: tools.read_media, generate_media: tools.generate_media },
  stopWhen: stepCountIs(10),
  prompt: "Check screens/home.png against the brand rules, then draw a better hero image.",
});
