// Test helper: a local stand-in for an OpenAI-compatible endpoint, for the docs' examples that call
// a model. It speaks Chat Completions and the Responses API, each with and without streaming, and
// answers from what it received ("Received N characters of task context."), so a caller sees what
// reached the model. Every request is kept for the test to read. Used by first-injected-call.test.ts
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

const TASK_CONTEXT = /^\[Task Context\]\n([\s\S]*?)\n\n\[Request\]\n/;

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

function chatCompletion(
  response: ServerResponse,
  model: string,
  text: string,
  stream: boolean,
  id: string,
) {
  const base = { id: `chatcmpl-${id}`, created: 0, model };
  if (stream) {
    sendEvents(response, [
      {
        ...base,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: { role: "assistant", content: text } }],
      },
      {
        ...base,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
      },
    ]);
    return;
  }
  response.setHeader("Content-Type", "application/json");
  response.end(
    JSON.stringify({
      ...base,
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    }),
  );
}

function responsesAnswer(
  response: ServerResponse,
  model: string,
  text: string,
  stream: boolean,
  id: string,
) {
  const head = { id: `resp-${id}`, created_at: 0, model };
  const usage = { input_tokens: 1, output_tokens: 1 };
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
    const text = standInAnswer(firstUserText(body));
    const stream = body.stream === true;
    // Each answer has an id of its own, as an endpoint's have: clients key messages by it.
    const id = `docs-${received.length}`;
    if (request.url === "/v1/chat/completions") chatCompletion(response, model, text, stream, id);
    else if (request.url === "/v1/responses") responsesAnswer(response, model, text, stream, id);
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
