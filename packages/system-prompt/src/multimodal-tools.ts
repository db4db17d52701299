/** The tools of spec 000 that send requests to other models and so need the task context. */
export const MULTIMODAL_TOOL_NAMES = [
  "read_media",
  "generate_media",
  "understand_image",
  "understand_audio",
  "understand_video",
  "understand_file",
  "generate_image",
  "generate_video",
  "generate_audio",
] as const;

/** A tool the agent has: a name, or a descriptor that can mark any tool as multimodal. */
export type ToolDescriptor = string | { name: string; multimodal?: boolean };

/**
 * The tools an agent has: a list of names or descriptors, or a record keyed by tool name such as
 * the `tools` object of an AI SDK call.
 */
export type ToolList = readonly ToolDescriptor[] | Readonly<Record<string, unknown>>;

/** The names of the tools in `tools` that reach other models. */
export function multimodalToolNames(tools: ToolList): string[] {
  const names: string[] = [];
  const descriptors: readonly ToolDescriptor[] = Array.isArray(tools) ? tools : Object.keys(tools);
  for (const tool of descriptors) {
    const name = typeof tool === "string" ? tool : tool.name;
    const multimodal =
      typeof tool === "object" && tool.multimodal !== undefined
        ? tool.multimodal
        : (MULTIMODAL_TOOL_NAMES as readonly string[]).includes(name);
    if (multimodal && !names.includes(name)) names.push(name);
  }
  return names;
}
