// The system prompt of a main agent that calls multimodal tools and spawns subagents.
import { buildSystemPrompt } from "@task-context/system-prompt";

//#region buildSystemPrompt
const system = buildSystemPrompt({
  base: "You are a launch assistant for mobile apps.",
  tools: ["read_media", "generate_media", "web_search"], // names, { name, multimodal: true }, or an AI SDK tools record
  canSpawnSubagents: true,
});
//#endregion
