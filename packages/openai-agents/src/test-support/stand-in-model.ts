// Test support: a stand-in for a model, through the SDK's own extension point (its `Model`
// interface), so that runs go through the real runner, handoffs and agent tools of
// @openai/agents, streamed or not; each request is kept for the test to read.
import type {
  AgentInputItem,
  AgentOutputItem,
  Model,
  ModelRequest,
  ModelResponse,
  StreamEvent,
} from "@openai/agents";
import { Usage } from "@openai/agents";

/** What the stand-in answers: output items, from the request (and how many came before it). */
export type Reply = (request: ModelRequest, index: number) => AgentOutputItem[];

const USAGE = { requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** A model that answers with `reply` and records every request it was sent. */
export class StandInModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #reply: Reply;

  constructor(reply: Reply) {
    this.#reply = reply;
  }

  /** The input items of each request, as the model received them. */
  inputs(): AgentInputItem[][] {
    return this.requests.map((request) =>
      typeof request.input === "string"
        ? [{ role: "user", content: request.input }]
        : request.input,
    );
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const index = this.requests.push(request) - 1;
    return {
      usage: new Usage(USAGE),
      output: this.#reply(request, index),
      responseId: `response-${index + 1}`,
    };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const index = this.requests.push(request) - 1;
    yield { type: "response_started" };
    yield {
      type: "response_done",
      response: {
        id: `response-${index + 1}`,
        usage: { ...USAGE },
        output: this.#reply(request, index),
      },
    } as StreamEvent;
  }
}

/** An assistant message that says `text`. */
export function say(text: string): AgentOutputItem {
  return {
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text }],
  };
}

/** A call of the tool `name` with `args`, as a model makes it. */
export function call(name: string, args: Record<string, unknown> = {}): AgentOutputItem {
  return {
    type: "function_call",
    callId: `call-${name}`,
    name,
    arguments: JSON.stringify(args),
    status: "completed",
  };
}

/** The text of the first message of an input, as the docs' stand-in reads it. */
function firstText(input: ModelRequest["input"]): string {
  if (typeof input === "string") return input;
  const [first] = input;
  if (first === undefined || !("content" in first)) return "";
  const { content } = first;
  if (typeof content === "string") return content;
  const part = (content as { text?: unknown }[]).find((item) => typeof item.text === "string");
  return (part?.text as string | undefined) ?? "";
}

/**
 * The answer of a model that delegates: it calls the first of its handoffs and tools it has not
 * called yet in the conversation (a tool with `{ input }` set to the first user message's text),
 * and then says how many characters of task context its first message carried — the docs'
 * OpenAI stand-in's answer, "Received N characters of task context.".
 */
export const delegate: Reply = (request) => {
  const input = typeof request.input === "string" ? [] : request.input;
  const called = new Set(
    input.flatMap((item) => ("type" in item && item.type === "function_call" ? [item.name] : [])),
  );
  const handoff = request.handoffs.find((candidate) => !called.has(candidate.toolName));
  if (handoff !== undefined) return [call(handoff.toolName)];
  const user = input.find((item) => "role" in item && item.role === "user");
  const tool = request.tools.find((candidate) => !called.has(candidate.name));
  if (tool !== undefined && tool.type === "function") {
    return [call(tool.name, { input: user === undefined ? "" : firstText([user]) })];
  }
  const context = /^\[Task Context\]\n([\s\S]*?)\n\n\[Request\]\n/.exec(firstText(request.input));
  return [say(`Received ${context?.[1]?.length ?? 0} characters of task context.`)];
};
