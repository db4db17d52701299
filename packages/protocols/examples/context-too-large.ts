// A task whose document cannot fit the subagent type's max_total, even when shortened.
import { memoryWorkspace } from "@task-context/core";
import { ContextTooLargeError, generateContext } from "@task-context/protocols/sage";

const workspace = memoryWorkspace({
  ".sage/config/context-limits.yaml": "defaults:\n  max_total: 50\n",
});
const taskData = { description: "Plan the Markdown export" };
try {
  await generateContext({ taskId: "T-1", subagentType: "plan", taskData }, { workspace });
} catch (error) {
  if (!ContextTooLargeError.isInstance(error)) throw error;
  console.error(error.tokens, error.maxTotal); // 309 50: split the task, or raise max_total
}
