// What each section of a system prompt costs in tokens.
import { o200kTokenizer } from "@task-context/core/o200k";
import { measureSystemPrompt } from "@task-context/system-prompt";

//#region measureSystemPrompt
const measured = measureSystemPrompt(
  { base: "You are a launch assistant.", tools: ["read_media"], canSpawnSubagents: true },
  o200kTokenizer,
);
console.log(measured.sections);
// [{ id: "base", tokens: 6 }, { id: "task-context", tokens: … }, { id: "context-protocol", tokens: … }]
console.log(measured.tokens, measured.tokenizer); // the whole prompt's count, "o200k_base"
//#endregion
