// A task with everything the Sage context document can say about it.
import type { SubagentTask } from "@task-context/spawner";

const task: SubagentTask = {
  id: "story-12.task-3", // names the directory and .sage/context/{id}.xml
  subagentType: "fix", // implement (default) | test | fix | review | plan
  prompt: "Fix the crash when exporting an empty note.",
  taskData: {
    // what the Sage context document says; default { description: prompt }
    description: "Exporting an empty note crashes the app.",
    storyRef: "stories/12.md",
    filesToModify: ["src/export.ts"],
    filesToRead: ["src/note.ts"],
    filesForbidden: ["migrations/**"],
    context: [{ type: "prior-output", content: "The crash is a null title." }],
  },
  timeoutMs: 120_000, // this task only
};
