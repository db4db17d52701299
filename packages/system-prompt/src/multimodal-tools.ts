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

/** The names of the tools in `tools` that reach other models. */
export function multimodalToolNames(tools: readonly ToolDescriptor[]): string[] {
  const names: string[] = [];
  for (const tool of tools) {
    const name = typeof tool === "string" ? tool : tool.name;
    const multimodal =
      typeof tool === "object" && tool.multimodal !== undefined
        ? tool.multimodal
        : (MULTIMODAL_TOOL_NAMES as readonly string[]).includes(name);
    if (multimodal && !names.includes(name)) names.push(name);
  }
  return names;
}
