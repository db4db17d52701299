import { ArgumentError } from "@task-context/core";
import { describeArgument, requireOptionalBoolean } from "@task-context/core/internal";

/**
 * The tools that send requests to other models and so need the task context: the seven
 * multimodal tools and their two dispatchers.
 */
export const MULTIMODAL_TOOL_NAMES: ReadonlySet<string> = new Set([
  "read_media",
  "generate_media",
  "understand_image",
  "understand_audio",
  "understand_video",
  "understand_file",
  "generate_image",
  "generate_video",
  "generate_audio",
]);

/** A tool the agent has: a name, or a descriptor that can mark any tool as multimodal. */
export type ToolDescriptor = string | { name: string; multimodal?: boolean };

/**
 * The tools an agent has: a list of names or descriptors, or a record keyed by tool name such as
 * the `tools` object of an AI SDK call.
 */
export type ToolList = readonly ToolDescriptor[] | Readonly<Record<string, unknown>>;

/** Line breaks, other control characters and backticks would break the prompt's inline code. */
const UNPRINTABLE = /[\p{Cc}`]/u;

function toolName(argument: string, name: unknown): string {
  if (typeof name !== "string" || name === "" || UNPRINTABLE.test(name)) {
    const what =
      typeof name === "string" && name !== ""
        ? "a string with a control character or a backtick"
        : describeArgument(name);
    throw new ArgumentError({
      argument,
      message: `expected a tool name without control characters or backticks, got ${what}.`,
    });
  }
  return name;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The names of the tools in `tools` that reach other models, each once, in the order given.
 * Throws `ArgumentError` (`argument: "tools"` or `"tools[i]"`) for a list of the wrong shape.
 */
export function multimodalToolNames(tools: unknown): string[] {
  const names = new Set<string>();
  if (Array.isArray(tools)) {
    for (const [index, tool] of tools.entries()) {
      const argument = `tools[${index}]`;
      if (typeof tool === "string") {
        if (MULTIMODAL_TOOL_NAMES.has(toolName(argument, tool))) names.add(tool);
        continue;
      }
      if (typeof tool !== "object" || tool === null) {
        throw new ArgumentError({
          argument,
          message: `expected a tool name or { name, multimodal? }, got ${describeArgument(tool)}.`,
        });
      }
      const { name, multimodal } = tool as { name?: unknown; multimodal?: unknown };
      toolName(`${argument}.name`, name);
      const flagged = requireOptionalBoolean(`${argument}.multimodal`, multimodal);
      if (flagged ?? MULTIMODAL_TOOL_NAMES.has(name as string)) names.add(name as string);
    }
  } else if (isRecord(tools)) {
    for (const name of Object.keys(tools)) {
      if (MULTIMODAL_TOOL_NAMES.has(toolName("tools", name))) names.add(name);
    }
  } else {
    throw new ArgumentError({
      argument: "tools",
      message: `expected an array of tool names or { name, multimodal? } descriptors, or a record of tools keyed by name, got ${describeArgument(tools)}.`,
    });
  }
  return [...names];
}
