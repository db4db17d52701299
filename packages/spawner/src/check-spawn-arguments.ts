import { ArgumentError, type ContextView, TaskContextError } from "@task-context/core";
import {
  describeArgument,
  MAX_TIMER_MS,
  requireContextView,
  requireLoadOptions,
  requireObject,
  requireText,
  requireTokenizer,
  requireWholeNumber,
  requireWorkspace,
} from "@task-context/core/internal";
import { type ContextBlock, renderContextBlock } from "@task-context/protocols/context-block";
import {
  type SubagentTaskType,
  subagentTaskTypeSchema,
  type TaskData,
  taskDataSchema,
  taskIdSchema,
} from "@task-context/protocols/sage";
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS, type SpawnOptions } from "./spawn-options.ts";
import type { SubagentRunner } from "./subagent-runner.ts";

/** The subagent type of a task that names none. */
const DEFAULT_SUBAGENT_TYPE: SubagentTaskType = "implement";

/** Characters of a refused value shown in an error message. */
const MAX_SHOWN = 80;

/** A task whose every field was checked, with its defaults applied and its prompt composed. */
export interface PlannedTask {
  id: string;
  subagentType: SubagentTaskType;
  /** The prompt handed to the runner: the context block and a blank line (if any), then the task's. */
  prompt: string;
  taskData: TaskData;
  timeoutMs: number;
  /** The view of the parent's CONTEXT.md the subagent inherits, when the task gives one. */
  view?: ContextView;
}

/** What `spawnSubagents` runs, once its arguments are known to be usable. */
export interface SpawnPlan {
  tasks: PlannedTask[];
  concurrency: number;
  runner: SubagentRunner;
  /** The checked `options.load`, for `loadTaskContext`. */
  load: NonNullable<SpawnOptions["load"]>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/** A string as an error message shows it: quoted, and cut after {@link MAX_SHOWN} characters. */
function shown(value: unknown): string {
  if (typeof value !== "string") return describeArgument(value);
  return value.length > MAX_SHOWN
    ? `${JSON.stringify(value.slice(0, MAX_SHOWN))}…`
    : JSON.stringify(value);
}

function optionalFunction(argument: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function") {
    throw new ArgumentError({
      argument,
      message: `expected a function, got ${describeArgument(value)}.`,
    });
  }
}

function checkRunner(value: unknown): SubagentRunner {
  if (!isObject(value) || typeof value.run !== "function") {
    throw new ArgumentError({
      argument: "options.runner",
      message: `expected a SubagentRunner, such as functionRunner(fn) or childProcessRunner({ command }), got ${describeArgument(value)}.`,
    });
  }
  if (value.stopGraceMs !== undefined) {
    requireWholeNumber("options.runner.stopGraceMs", value.stopGraceMs, 0, MAX_TIMER_MS);
  }
  return value as unknown as SubagentRunner;
}

function checkLoad(value: unknown): NonNullable<SpawnOptions["load"]> {
  if (value === undefined) return {};
  requireLoadOptions(value, "options.load.");
  return value as NonNullable<SpawnOptions["load"]>;
}

/** The context block and a blank line that start a prompt, or "" without a block. */
function promptPrefix(argument: string, project: unknown): string {
  if (project === undefined) return "";
  requireObject(argument, project, "a Context Protocol v1 block");
  try {
    return `${renderContextBlock(project as ContextBlock)}\n\n`;
  } catch (error) {
    if (!TaskContextError.isInstance(error)) throw error;
    throw new ArgumentError({ argument, message: error.message });
  }
}

function issueList(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  return issues
    .map((issue) => {
      const key = issue.path.map(String).join(".");
      return key === "" ? issue.message : `${key}: ${issue.message}`;
    })
    .join("; ");
}

function checkTask(
  task: unknown,
  name: string,
  seen: Set<string>,
  defaults: { prefix: string; timeoutMs: number; tokenized: boolean },
): PlannedTask {
  const fields = requireObject(name, task, "a subagent task object");
  const {
    id,
    subagentType = DEFAULT_SUBAGENT_TYPE,
    prompt,
    taskData,
    project,
    timeoutMs,
    view,
  } = fields;
  if (typeof id !== "string" || !taskIdSchema.safeParse(id).success) {
    throw new ArgumentError({
      argument: `${name}.id`,
      message: `${shown(id)} is not a task id: it must start with a letter or digit and use only letters, digits, ".", "_" and "-" (at most 128 characters), because it names the subagent's directory and .sage/context/{id}.xml.`,
    });
  }
  if (seen.has(id)) {
    throw new ArgumentError({
      argument: `${name}.id`,
      message: `${shown(id)} is used by an earlier task; every subagent needs its own id.`,
    });
  }
  seen.add(id);
  const type = subagentTaskTypeSchema.safeParse(subagentType);
  if (!type.success) {
    throw new ArgumentError({
      argument: `${name}.subagentType`,
      message: `expected one of ${subagentTaskTypeSchema.options.join(", ")}, got ${shown(subagentType)}.`,
    });
  }
  const text = requireText(`${name}.prompt`, prompt, "the task's prompt, a non-empty string");
  if (text.trim() === "") {
    throw new ArgumentError({
      argument: `${name}.prompt`,
      message: "expected the task's prompt, got only whitespace.",
    });
  }
  let data: TaskData = { description: text };
  if (taskData !== undefined) {
    const parsed = taskDataSchema.safeParse(taskData);
    if (!parsed.success) {
      throw new ArgumentError({
        argument: `${name}.taskData`,
        message: `${issueList(parsed.error.issues)}.`,
      });
    }
    data = taskData as TaskData;
  }
  const prefix = project === undefined ? defaults.prefix : promptPrefix(`${name}.project`, project);
  const planned: PlannedTask = {
    id,
    subagentType: type.data,
    prompt: prefix + text,
    taskData: data,
    timeoutMs:
      timeoutMs === undefined
        ? defaults.timeoutMs
        : requireWholeNumber(`${name}.timeoutMs`, timeoutMs, 1, MAX_TIMER_MS),
  };
  if (view !== undefined) planned.view = checkView(`${name}.view`, view, defaults.tokenized);
  return planned;
}

/** A task's view, checked; a token budget needs the tokenizer of `options.load`. */
function checkView(argument: string, value: unknown, tokenized: boolean): ContextView {
  const view = requireContextView(argument, value);
  if (view.maxTokens !== undefined && !tokenized) {
    throw new ArgumentError({
      argument: `${argument}.maxTokens`,
      message: `view ${JSON.stringify(view.name)} has a token budget, which needs a tokenizer: pass \`load: { tokenizer }\` in the spawn options (approximateTokenizer, or o200kTokenizer from "@task-context/core/o200k").`,
    });
  }
  return view;
}

/**
 * Checks everything `spawnSubagents` was given before anything is read, created or started;
 * throws `ArgumentError` naming the first unusable argument (`tasks[2].id`, …).
 */
export function checkSpawnArguments(parent: unknown, tasks: unknown, options: unknown): SpawnPlan {
  if (typeof parent === "string") {
    requireText("parent", parent, "the parent's workspace directory, a non-empty path");
  } else requireWorkspace("parent", parent);
  if (!Array.isArray(tasks)) {
    throw new ArgumentError({
      argument: "tasks",
      message: `expected an array of subagent tasks, got ${describeArgument(tasks)}.`,
    });
  }
  const spawn = requireObject("options", options, "an object with a runner");
  const runner = checkRunner(spawn.runner);
  if (spawn.workspacesRoot !== undefined) {
    requireText(
      "options.workspacesRoot",
      spawn.workspacesRoot,
      "the directory under which each subagent gets {workspacesRoot}/{id}",
    );
  }
  // Only undefined means "the default": null is a value of the wrong type, like any other.
  const concurrency =
    spawn.concurrency === undefined
      ? DEFAULT_CONCURRENCY
      : requireWholeNumber("options.concurrency", spawn.concurrency, 1);
  const timeoutMs =
    spawn.timeoutMs === undefined
      ? DEFAULT_TIMEOUT_MS
      : requireWholeNumber("options.timeoutMs", spawn.timeoutMs, 1, MAX_TIMER_MS);
  if (
    spawn.signal !== undefined &&
    !(isObject(spawn.signal) && typeof spawn.signal.addEventListener === "function")
  ) {
    throw new ArgumentError({
      argument: "options.signal",
      message: `expected an AbortSignal, got ${describeArgument(spawn.signal)}.`,
    });
  }
  optionalFunction("options.onSpawn", spawn.onSpawn);
  optionalFunction("options.onResult", spawn.onResult);
  optionalFunction("options.summarize", spawn.summarize);
  if (spawn.tokenizer !== undefined) requireTokenizer("options.tokenizer", spawn.tokenizer);
  const load = checkLoad(spawn.load);
  const defaults = {
    prefix: promptPrefix("options.project", spawn.project),
    timeoutMs,
    tokenized: load.tokenizer !== undefined,
  };

  const seen = new Set<string>();
  const planned = tasks.map((task: unknown, index) =>
    checkTask(task, `tasks[${index}]`, seen, defaults),
  );
  return { tasks: planned, concurrency, runner, load };
}
