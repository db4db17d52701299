// A limits file that does not match the schema is an error with its line, not ignored.
import { memoryWorkspace } from "@task-context/core";
import { ContextLimitsError, loadContextLimits } from "@task-context/protocols/sage";

const workspace = memoryWorkspace({
  ".sage/config/context-limits.yaml": "defaults:\n  max_totl: 8000\n",
});
try {
  await loadContextLimits(workspace, "review");
} catch (error) {
  if (!ContextLimitsError.isInstance(error)) throw error;
  console.error(`${error.path}:${error.line}`, error.message);
  // ".sage/config/context-limits.yaml:2" 'Invalid context limits in .sage/config/context-limits.yaml at line 2: Unknown field "max_totl" in defaults. Allowed: max_total, max_file_content, max_prior_output. Fix the file, or delete it to use the built-in limits.'
}
