import type { ContextBlock } from "@task-context/protocols/context-block";
import type { SubagentTaskType, TaskData } from "@task-context/protocols/sage";

/** The kinds of subagent of the Sage context protocol: `implement`, `test`, `fix`, `review`, `plan`. */
export type SubagentType = SubagentTaskType;

/** One piece of work to hand to a subagent. */
export interface SubagentTask {
  /**
   * Names the subagent, its directory (`{workspacesRoot}/{id}`) and its context file
   * (`.sage/context/{id}.xml`): letters, digits, `.`, `_` and `-`, starting with a letter or
   * digit, at most 128 characters (protocols' `taskIdSchema`). Unique within one call.
   */
  id: string;
  /** Whose Sage context limits apply, and the context document's `<type>` (default `"implement"`). */
  subagentType?: SubagentType;
  /** What the subagent is asked to do. */
  prompt: string;
  /** What the Sage context document says (its `task_data`). Default: `{ description: prompt }`. */
  taskData?: TaskData;
  /** The Context Protocol v1 block that starts this prompt; overrides `SpawnOptions.project`. */
  project?: ContextBlock;
  /** Most milliseconds this subagent may run (1 to 2 147 483 647); overrides `SpawnOptions.timeoutMs`. */
  timeoutMs?: number;
}
