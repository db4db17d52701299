// Writing a bounded Sage context document for one subagent.
import { memoryWorkspace } from "@task-context/core";
import { generateContext } from "@task-context/protocols/sage";

const workspace = memoryWorkspace();
const { path, tokens, warning } = await generateContext(
  {
    taskId: "story-12.task-3",
    subagentType: "implement",
    taskData: {
      description: "Add Markdown export to the note menu",
      storyRef: "docs/stories/story-12.md",
      filesToModify: ["src/export.ts"],
      context: [
        { type: "story-excerpt", content: "Users export a note as Markdown from the note menu." },
      ],
    },
  },
  { workspace, logger: console }, // logs "Context generated for story-12.task-3: 386 tokens"
);
console.log(path, tokens, warning); // ".sage/context/story-12.task-3.xml" 386 undefined
