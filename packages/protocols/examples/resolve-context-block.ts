// The receiver's rules in one call: the block when it is valid, otherwise the project files.
import { memoryWorkspace } from "@task-context/core";
import { resolveContextBlock } from "@task-context/protocols/context-block";

const workspace = memoryWorkspace({
  "docs/project.json": '{"name": "notes", "stack": "hono", "commands": {"test": "npm test"}}',
  "docs/CONVENTIONS.md": "# Conventions\n\nESM only. Zod for validation.\n",
});
const context = await resolveContextBlock("Add a health route.", workspace);
if (context.warning !== undefined) console.warn(context.warning);
console.log(context.source, context.project.stack, context.conventions.text);
// "files" "hono" "# Conventions\n\nESM only. Zod for validation.\n"
