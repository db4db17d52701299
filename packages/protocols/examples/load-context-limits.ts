// The token limits for one subagent type: its overrides over the file's defaults over the built-in ones.
import { memoryWorkspace } from "@task-context/core";
import { loadContextLimits } from "@task-context/protocols/sage";

const workspace = memoryWorkspace({
  ".sage/config/context-limits.yaml": "overrides:\n  review:\n    max_total: 12000\n",
});
console.log(await loadContextLimits(workspace, "review"));
// { max_total: 12000, max_file_content: 2000, max_prior_output: 1000 }
