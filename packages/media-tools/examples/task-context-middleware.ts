// The task context for AI SDK text calls that do not go through the tools.
import { openai } from "@ai-sdk/openai";
import { nodeWorkspace } from "@task-context/core/node";
import { taskContextMiddleware } from "@task-context/media-tools";
import { generateText, streamText, wrapLanguageModel } from "ai";

//#region taskContextMiddleware
const model = wrapLanguageModel({
  model: openai("gpt-5-mini"),
  // the workspace is the current directory, which holds CONTEXT.md
  middleware: taskContextMiddleware({ workspace: nodeWorkspace(".") }),
});

const { text, warnings } = await generateText({ model, prompt: "Name three headlines." });
// the model received "[Task Context]\n{CONTEXT.md}\n\n[Request]\nName three headlines."
const stream = streamText({ model, prompt: "Write the launch tweet." });
for await (const part of stream.textStream) process.stdout.write(part);
//#endregion
