import type { LanguageModelMiddleware } from "ai";

type Prompt = Parameters<
  NonNullable<LanguageModelMiddleware["transformParams"]>
>[0]["params"]["prompt"];

/**
 * The prompt without system messages, for a model whose API refuses them: their text goes in
 * front of the first user message's text, as Gemma's own integrations send instructions.
 * Undefined when there is no system message, or no user message to carry it.
 */
export function foldSystemMessages(prompt: Prompt): Prompt | undefined {
  const system = prompt.flatMap((message) => (message.role === "system" ? [message.content] : []));
  const first = prompt.findIndex((message) => message.role === "user");
  const user = prompt[first];
  if (system.length === 0 || user === undefined || user.role !== "user") return undefined;
  const instructions = system.join("\n\n");
  const content = [...user.content];
  const textIndex = content.findIndex((part) => part.type === "text");
  const part = content[textIndex];
  if (part?.type === "text")
    content[textIndex] = { ...part, text: `${instructions}\n\n${part.text}` };
  else content.unshift({ type: "text", text: instructions });
  const folded: Prompt = [];
  for (const [index, message] of prompt.entries()) {
    if (message.role === "system") continue;
    folded.push(index === first ? { ...user, content } : message);
  }
  return folded;
}

/**
 * The text of the last user message's first text part (what the middleware puts the context in
 * front of) and every other text of the prompt, which a model's limit counts too.
 */
export function requestAndAlongside(prompt: Prompt): { request: string; alongside: string } {
  let last = prompt.length - 1;
  while (last >= 0 && prompt[last]?.role !== "user") last--;
  let request: string | undefined;
  const others: string[] = [];
  for (const [index, message] of prompt.entries()) {
    if (message.role === "system") {
      others.push(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type !== "text") continue;
      if (index === last && request === undefined) request = part.text;
      else others.push(part.text);
    }
  }
  return { request: request ?? "", alongside: others.join("\n") };
}
