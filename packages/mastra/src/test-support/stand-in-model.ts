// Test support: a stand-in language model for Mastra agents (the AI SDK's MockLanguageModelV3),
// scripted turn by turn, that keeps every prompt it received.
import { MockLanguageModelV3 } from "ai/test";

type CallOptions = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type GenerateResult = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

/** One scripted answer: a text, or a call of a tool with its arguments. */
export type Turn = { text: string } | { tool: string; input: Record<string, unknown> };

/** The answer saying `text`. */
export const say = (text: string): Turn => ({ text });

/** The answer calling `tool` with `input`. */
export const call = (tool: string, input: Record<string, unknown>): Turn => ({ tool, input });

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function generated(turn: Turn, index: number): GenerateResult {
  if ("text" in turn) {
    return {
      content: [{ type: "text", text: turn.text }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    };
  }
  return {
    content: [
      {
        type: "tool-call",
        toolCallId: `call-${index}`,
        toolName: turn.tool,
        input: JSON.stringify(turn.input),
      },
    ],
    finishReason: { unified: "tool-calls", raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

type StreamPart =
  Awaited<ReturnType<MockLanguageModelV3["doStream"]>>["stream"] extends ReadableStream<infer Part>
    ? Part
    : never;

/** The same answer, streamed: its content as stream parts, then the finish. */
function streamed(result: GenerateResult): ReadableStream<StreamPart> {
  const parts: StreamPart[] = [{ type: "stream-start", warnings: [] }];
  for (const part of result.content) {
    if (part.type === "text") {
      parts.push({ type: "text-start", id: "text-0" });
      parts.push({ type: "text-delta", id: "text-0", delta: part.text });
      parts.push({ type: "text-end", id: "text-0" });
    } else {
      parts.push(part as StreamPart);
    }
  }
  parts.push({ type: "finish", finishReason: result.finishReason, usage: result.usage });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** A stand-in model that answers `turns` in order (the last one again once they run out). */
export function standInModel(...turns: Turn[]): MockLanguageModelV3 & {
  prompts(): CallOptions["prompt"][];
} {
  let next = 0;
  const answer = () => generated(turns[Math.min(next, turns.length - 1)] ?? say(""), next++);
  const model = new MockLanguageModelV3({
    async doGenerate() {
      return answer();
    },
    async doStream() {
      return { stream: streamed(answer()) };
    },
  });
  const prompts = () =>
    [...model.doGenerateCalls, ...model.doStreamCalls].map((options) => options.prompt);
  return Object.assign(model, { prompts });
}

/** A prompt as role and text per message (text parts joined; tool calls and results named). */
export function transcript(prompt: CallOptions["prompt"]): { role: string; text: string }[] {
  return prompt.map((message) => {
    const { content } = message;
    const text =
      typeof content === "string"
        ? content
        : content
            .map((part) => {
              if (part.type === "text") return part.text;
              if (part.type === "tool-result") return JSON.stringify(part.output);
              return `(${part.type})`;
            })
            .join("");
    return { role: message.role, text };
  });
}
