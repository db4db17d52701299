// Test helper: a local stand-in for an OpenAI-compatible endpoint, for the docs' examples that call
// a model. It speaks Chat Completions and the Responses API, each with and without streaming, and
// answers from what it received ("Received N characters of task context."), so a caller sees what
// reached the model. A request that forces a tool call (`tool_choice` "required" or naming a
// function) of a tool the conversation has not called yet is answered with a call of that tool
// (the first one offered, for "required"), each required string argument set to the first user
// message's text: how the agent frameworks' examples delegate. Every request is kept for the test to read. Used by first-injected-call.test.ts
// and by the paste test (scripts/paste-docs.mjs), which runs on the pinned Node 24's type stripping.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the stand-in received. */
export interface ReceivedRequest {
  method: string | undefined;
  url: string | undefined;
  authorization: string | undefined;
  body: unknown;
}

/** A running stand-in: its base URL (ending in /v1), what it received, and how to stop it. */
export interface OpenAiStandIn {
  baseUrl: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

// At the start of the message, or after a blank line (the agent's own instructions before it).
const TASK_CONTEXT = /(?:^|\n\n)\[Task Context\]\n([\s\S]*?)\n\n\[Request\]\n/;

/** The text of the first user message, in either API's shape. */
function firstUserText(body: Record<string, unknown>): string {
  const messages = (body.messages ?? body.input ?? []) as { content?: unknown }[];
  const content = messages[0]?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const part = content.find((item) => typeof item?.text === "string") as { text: string };
    return part?.text ?? "";
  }
  return "";
}

/** A tool call the stand-in makes: the tool's name and its arguments, as JSON. */
interface ToolCall {
  name: string;
  arguments: string;
}

type Json = Record<string, unknown>;

/** The names of the tools the conversation already called, in either API's shape. */
function calledTools(messages: readonly Json[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.type === "function_call" && typeof message.name === "string")
      names.add(message.name);
    for (const call of (message.tool_calls ?? []) as Json[]) {
      const name = (call.function as Json | undefined)?.name;
      if (typeof name === "string") names.add(name);
    }
  }
  return names;
}

/**
 * The call a request forces, or undefined: `tool_choice` "required" (the first tool) or naming a
 * function (`{ type: "function", name }`, or Chat Completions' `{ function: { name } }`), unless
 * the conversation already called that tool (then the model answers, as after any call).
 */
function forcedCall(body: Json, prompt: string): ToolCall | undefined {
  const choice = body.tool_choice as Json | string | undefined;
  const tools = ((body.tools ?? []) as Json[]).map((tool) => (tool.function ?? tool) as Json);
  const named =
    typeof choice === "object"
      ? ((choice.function as Json | undefined)?.name ?? choice.name)
      : undefined;
  const tool =
    choice === "required" ? tools[0] : tools.find((candidate) => candidate.name === named);
  if (tool === undefined || typeof tool.name !== "string") return undefined;
  if (calledTools((body.messages ?? body.input ?? []) as Json[]).has(tool.name)) return undefined;
  const schema = (tool.parameters ?? {}) as { properties?: Json; required?: string[] };
  const args: Json = {};
  for (const key of schema.required ?? []) {
    if ((schema.properties?.[key] as Json | undefined)?.type === "string") args[key] = prompt;
  }
  return { name: tool.name, arguments: JSON.stringify(args) };
}

/** The text of the first user message, in either API's shape. */
function firstUserMessage(body: Json): string {
  const messages = (body.messages ?? body.input ?? []) as Json[];
  const user = messages.find((message) => message.role === "user");
  return user === undefined ? "" : firstUserText({ messages: [user] });
}

/** What the stand-in answers a prompt with. */
export function standInAnswer(prompt: string): string {
  const context = TASK_CONTEXT.exec(prompt)?.[1];
  return `Received ${context?.length ?? 0} characters of task context.`;
}

async function jsonBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? {} : JSON.parse(text);
}

function sendEvents(response: ServerResponse, events: unknown[]): void {
  response.writeHead(200, { "Content-Type": "text/event-stream" });
  for (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`);
  response.end("data: [DONE]\n\n");
}

/** What the stand-in answers: a text, or a call of a tool. */
type Answer = { text: string } | { call: ToolCall };

function chatCompletion(
  response: ServerResponse,
  model: string,
  answer: Answer,
  stream: boolean,
  id: string,
) {
  const base = { id: `chatcmpl-${id}`, created: 0, model };
  const toolCall =
    "call" in answer ? { id: `call-${id}`, type: "function", function: answer.call } : undefined;
  const said = toolCall === undefined ? { content: (answer as { text: string }).text } : {};
  const finish_reason = toolCall === undefined ? "stop" : "tool_calls";
  if (stream) {
    const calls = toolCall === undefined ? {} : { tool_calls: [{ index: 0, ...toolCall }] };
    sendEvents(response, [
      {
        ...base,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: { role: "assistant", ...said, ...calls } }],
      },
      {
        ...base,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: {}, finish_reason }],
      },
    ]);
    return;
  }
  const calls = toolCall === undefined ? {} : { content: null, tool_calls: [toolCall] };
  response.setHeader("Content-Type", "application/json");
  response.end(
    JSON.stringify({
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", ...said, ...calls }, finish_reason }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    }),
  );
}

function responsesAnswer(
  response: ServerResponse,
  model: string,
  answer: Answer,
  stream: boolean,
  id: string,
) {
  const head = { id: `resp-${id}`, created_at: 0, model };
  const usage = { input_tokens: 1, output_tokens: 1 };
  if ("call" in answer) {
    const item = { type: "function_call", id: `fc-${id}`, call_id: `call-${id}`, ...answer.call };
    const done = { ...item, status: "completed" };
    if (!stream) {
      response.setHeader("Content-Type", "application/json");
      response.end(JSON.stringify({ ...head, status: "completed", output: [done], usage }));
      return;
    }
    sendEvents(response, [
      { type: "response.created", response: head },
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { ...item, arguments: "", status: "in_progress" },
      },
      {
        type: "response.function_call_arguments.delta",
        item_id: item.id,
        output_index: 0,
        delta: answer.call.arguments,
      },
      { type: "response.output_item.done", output_index: 0, item: done },
      {
        type: "response.completed",
        response: { ...head, status: "completed", output: [done], usage },
      },
    ]);
    return;
  }
  const { text } = answer;
  const message = { type: "message", role: "assistant", id: `msg-${id}` };
  const content = [{ type: "output_text", text, annotations: [] }];
  if (stream) {
    sendEvents(response, [
      { type: "response.created", response: head },
      { type: "response.output_item.added", output_index: 0, item: { ...message, content: [] } },
      { type: "response.output_text.delta", item_id: message.id, output_index: 0, delta: text },
      { type: "response.output_item.done", output_index: 0, item: { ...message, content } },
      { type: "response.completed", response: { ...head, usage } },
    ]);
    return;
  }
  response.setHeader("Content-Type", "application/json");
  response.end(JSON.stringify({ ...head, output: [{ ...message, content }], usage }));
}

/** Starts the stand-in on a free loopback port. */
export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
  const received: ReceivedRequest[] = [];
  const server = createServer(async (request, response) => {
    const body = await jsonBody(request);
    received.push({
      method: request.method,
      url: request.url,
      authorization: request.headers.authorization,
      body,
    });
    const model = typeof body.model === "string" ? body.model : "stand-in";
    const call = forcedCall(body, firstUserMessage(body));
    const answer = call === undefined ? { text: standInAnswer(firstUserText(body)) } : { call };
    const stream = body.stream === true;
    // Each answer has an id of its own, as an endpoint's have: clients key messages by it.
    const id = `docs-${received.length}`;
    if (request.url === "/v1/chat/completions") chatCompletion(response, model, answer, stream, id);
    else if (request.url === "/v1/responses") responsesAnswer(response, model, answer, stream, id);
    else {
      response.writeHead(404, { "Content-Type": "application/json" });
      response.end(
        JSON.stringify({ error: { message: `The stand-in does not serve ${request.url}.` } }),
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
