// docs/views.md, the complete example: the headings a view can name, a view loaded, a model that
// receives the brief view through the middleware, and a subagent whose CONTEXT.md is its view.
// Run as pasted by the paste test (scripts/paste-docs.mjs), against a local stand-in model.
import { openai } from "@ai-sdk/openai";
import {
  CONTEXT_VIEW_PRESETS,
  type ContextView,
  contextHeadings,
  loadTaskContext,
} from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { taskContextMiddleware } from "@task-context/media-tools";
import { functionRunner, spawnSubagents } from "@task-context/spawner";
import { generateText, wrapLanguageModel } from "ai";

const workspace = nodeWorkspace("."); // the current directory, which holds CONTEXT.md

// The headings a view can name.
const file = await loadTaskContext(workspace);
console.log(contextHeadings(file.content).map((heading) => heading.text));
// [ "Task context", "What we are building", "Key terminology", "Visual and brand guidelines", "Other details" ]

// A view for an image model: three sections, a budget of its own.
const imageModel: ContextView = {
  name: "image-model",
  include: ["What we are building", "Key terminology", "Visual and brand guidelines"],
  maxChars: 4_000,
};
const context = await loadTaskContext(workspace, { view: imageModel });
console.log(`${context.content.length} of ${file.content.length} characters:`, context.view);
// 407 of 500 characters: { name: "image-model", sections: [ … ], fileSha256: "…" }

// A model wrapped with the middleware receives the brief view: what we build, the key terms.
const model = wrapLanguageModel({
  model: openai("gpt-4o-mini"),
  middleware: taskContextMiddleware({ workspace, view: CONTEXT_VIEW_PRESETS.brief }),
});
const { text, providerMetadata } = await generateText({
  model,
  prompt: "Suggest three headlines for the store listing.",
});
console.log(text);
console.log(providerMetadata?.taskContext?.contextView);
// { name: "brief", sections: [ "What we are building", "Key terminology" ], fileSha256: "…" }

// A subagent with a view: its read-only CONTEXT.md is the view's text.
const [reviewer] = await spawnSubagents(
  ".",
  [
    {
      id: "review-1",
      subagentType: "review",
      prompt: "Review the copy.",
      view: CONTEXT_VIEW_PRESETS.brief,
    },
  ],
  {
    runner: functionRunner(async ({ workspace: own }) => {
      const inherited = await loadTaskContext(own);
      return {
        status: "success",
        summary: `Received ${inherited.content.length} characters.`,
        "files-modified": [],
      };
    }),
  },
);
console.log(reviewer?.summary, reviewer?.view?.sections);
// Received 297 characters. [ "What we are building", "Key terminology" ]
