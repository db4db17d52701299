import { ArgumentError, TaskContextError, type Workspace } from "@task-context/core";
import { type ContextBlock, renderContextBlock } from "@task-context/protocols/context-block";
import {
  type SubagentTaskType,
  subagentTaskTypeSchema,
  type TaskData,
  taskDataSchema,
  taskIdSchema,
} from "@task-context/protocols/sage";
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_TIMEOUT_MS,
  MAX_TIMEOUT_MS,
  type SpawnOptions,
} from "./spawn-options.ts";
import type { SubagentTask } from "./subagent-task.ts";

/** The subagent type of a task that names none. */
export const DEFAULT_SUBAGENT_TYPE: SubagentTaskType = "implement";

/** A task whose every field was checked, with its defaults applied and its prompt composed. */
export interface PlannedTask {
  id: string;
  subagentType: SubagentTaskType;
  /** The prompt handed to the runner: the context block and a blank line (if any), then the task's. */
  prompt: string;
  taskData: TaskData;
  timeoutMs: number;
}

/** What `spawnSubagents` runs, once its arguments are known to be usable. */
export interface SpawnPlan {
  tasks: PlannedTask[];
  concurrency: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

function isWorkspace(value: unknown): value is Workspace {
  return (
    isObject(value) && typeof value.readFile === "function" && typeof value.writeFile === "function"
  );
}

function wholeNumber(argument: string, value: unknown, maximum: number): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1 || value > maximum) {
    throw new ArgumentError({
      argument: argument,
      message: `expected a whole number from 1 to ${maximum}, got ${String(value)}.`,
    });
  }
  return value;
}

function optionalFunction(argument: string, value: unknown): void {
  if (value !== undefined && typeof value !== "function") {
    throw new ArgumentError({
      argument: argument,
      message: `expected a function, got ${typeof value}.`,
    });
  }
}

function renderProject(argument: string, project: ContextBlock): string {
  try {
    return renderContextBlock(project);
  } catch (error) {
    if (!TaskContextError.isInstance(error)) throw error;
    throw new ArgumentError({ argument: argument, message: error.message });
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

/**
 * Checks everything `spawnSubagents` was given before anything is read, created or started;
 * throws `ArgumentError` naming the first unusable argument (`tasks[2].id`, …).
 */
export function checkSpawnArguments(parent: unknown, tasks: unknown, options: unknown): SpawnPlan {
  if (!(typeof parent === "string" && parent !== "") && !isWorkspace(parent)) {
    throw new ArgumentError({
      argument: "parent",
      message: "expected the parent's workspace directory (a non-empty string) or a Workspace.",
    });
  }
  if (!Array.isArray(tasks)) {
    throw new ArgumentError({ argument: "tasks", message: "expected an array of subagent tasks." });
  }
  if (!isObject(options)) {
    throw new ArgumentError({ argument: "options", message: "expected an object with a runner." });
  }
  const spawn = options as Partial<SpawnOptions>;
  if (!isObject(spawn.runner) || typeof spawn.runner.run !== "function") {
    throw new ArgumentError({
      argument: "options.runner",
      message:
        "expected a SubagentRunner, such as functionRunner(fn) or childProcessRunner({ command }).",
    });
  }
  if (
    spawn.workspacesRoot !== undefined &&
    (typeof spawn.workspacesRoot !== "string" || spawn.workspacesRoot === "")
  ) {
    throw new ArgumentError({
      argument: "options.workspacesRoot",
      message: "expected the directory under which each subagent gets {workspacesRoot}/{id}.",
    });
  }
  const concurrency = wholeNumber(
    "options.concurrency",
    spawn.concurrency ?? DEFAULT_CONCURRENCY,
    Number.MAX_SAFE_INTEGER,
  );
  const defaultTimeout = wholeNumber(
    "options.timeoutMs",
    spawn.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    MAX_TIMEOUT_MS,
  );
  if (
    spawn.signal !== undefined &&
    !(isObject(spawn.signal) && typeof spawn.signal.addEventListener === "function")
  ) {
    throw new ArgumentError({ argument: "options.signal", message: "expected an AbortSignal." });
  }
  optionalFunction("options.onSpawn", spawn.onSpawn);
  optionalFunction("options.onResult", spawn.onResult);
  optionalFunction("options.summarize", spawn.summarize);
  if (spawn.tokenizer !== undefined && typeof spawn.tokenizer?.count !== "function") {
    throw new ArgumentError({ argument: "options.tokenizer", message: "expected a Tokenizer." });
  }
  const sharedPrefix =
    spawn.project === undefined ? "" : `${renderProject("options.project", spawn.project)}\n\n`;

  const seen = new Set<string>();
  const planned = tasks.map((task: unknown, index): PlannedTask => {
    const name = `tasks[${index}]`;
    if (!isObject(task))
      throw new ArgumentError({ argument: name, message: "expected a subagent task object." });
    const {
      id,
      subagentType = DEFAULT_SUBAGENT_TYPE,
      prompt,
      taskData,
      project,
      timeoutMs,
    } = task as Partial<SubagentTask>;
    if (typeof id !== "string" || !taskIdSchema.safeParse(id).success) {
      throw new ArgumentError({
        argument: `${name}.id`,
        message: `${JSON.stringify(id)} is not a task id: it must start with a letter or digit and use only letters, digits, ".", "_" and "-" (at most 128 characters), because it names the subagent's directory and .sage/context/{id}.xml.`,
      });
    }
    if (seen.has(id)) {
      throw new ArgumentError({
        argument: `${name}.id`,
        message: `${JSON.stringify(id)} is used by an earlier task; every subagent needs its own id.`,
      });
    }
    seen.add(id);
    if (!subagentTaskTypeSchema.safeParse(subagentType).success) {
      throw new ArgumentError({
        argument: `${name}.subagentType`,
        message: `expected one of ${subagentTaskTypeSchema.options.join(", ")}, got ${JSON.stringify(subagentType)}.`,
      });
    }
    if (typeof prompt !== "string" || prompt.trim() === "") {
      throw new ArgumentError({
        argument: `${name}.prompt`,
        message: "expected the task's prompt, a non-empty string.",
      });
    }
    let data: TaskData = { description: prompt };
    if (taskData !== undefined) {
      const parsed = taskDataSchema.safeParse(taskData);
      if (!parsed.success) {
        throw new ArgumentError({
          argument: `${name}.taskData`,
          message: `${issueList(parsed.error.issues)}.`,
        });
      }
      data = taskData;
    }
    const prefix =
      project === undefined ? sharedPrefix : `${renderProject(`${name}.project`, project)}\n\n`;
    return {
      id,
      subagentType: subagentType as SubagentTaskType,
      prompt: prefix + prompt,
      taskData: data,
      timeoutMs:
        timeoutMs === undefined
          ? defaultTimeout
          : wholeNumber(`${name}.timeoutMs`, timeoutMs, MAX_TIMEOUT_MS),
    };
  });
  return { tasks: planned, concurrency };
}
