import type { ContextView } from "@task-context/core";
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
  /**
   * The sections of the parent's CONTEXT.md this subagent inherits, with their own budget: its
   * read-only CONTEXT.md is the view's text (a reviewer gets what we are building and the key terms,
   * not the brand rules). Without one it inherits the whole file. A view that selects nothing
   * refuses the whole spawn before anything starts (`ContextViewEmptyError`); the result's `view`
   * says what the subagent received.
   */
  view?: ContextView;
}
