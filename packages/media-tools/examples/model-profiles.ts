// Model profiles: the task context fitted to what each target model takes. Run by
// src/examples.test.ts.
import { openai } from "@ai-sdk/openai";
import { nodeWorkspace } from "@task-context/core/node";
import {
  MODEL_PROFILES,
  type ModelProfile,
  taskContextMiddleware,
} from "@task-context/media-tools";
import { generateText, wrapLanguageModel } from "ai";

//#region builtInProfile
const whisper = MODEL_PROFILES.find((profile) => profile.modelId === "whisper-1");
console.log(whisper?.promptLimit);
// { amount: 224, unit: "tokens", overflow: "keeps-end" }: it reads only the last 224 tokens
//#endregion

//#region modelProfiles
// For this app's quick checks, the prompt of gpt-4o-mini stays under 600 characters.
const quickChecks: ModelProfile = {
  provider: "openai",
  modelId: "gpt-4o-mini",
  instructions: ["user-text", "system"],
  systemMessage: true,
  promptLimit: { amount: 600, unit: "characters", overflow: "rejects" },
  source: "Our own budget for quick checks, not an API limit.",
};

const model = wrapLanguageModel({
  model: openai("gpt-4o-mini"),
  middleware: taskContextMiddleware({
    workspace: nodeWorkspace("."), // the current directory, which holds CONTEXT.md
    modelProfiles: [quickChecks],
  }),
});

const { providerMetadata, warnings } = await generateText({
  model,
  prompt: "Name three headlines.",
});
// When CONTEXT.md did not fit: the sections kept and left out, and a warning that says so.
console.log(providerMetadata?.taskContext?.contextFit ?? "CONTEXT.md fitted whole");
for (const warning of warnings ?? []) if (warning.type === "other") console.warn(warning.message);
//#endregion
