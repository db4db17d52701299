// A local, deterministic stand-in for a model provider, speaking the OpenAI API over HTTP: the
// demo reaches it through the AI SDK's own OpenAI provider, exactly as it reaches a real one.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerUserMessage } from "./compose-answer.ts";
import { drawImage } from "./draw-image.ts";

/** The models the stand-in lists; it answers any model id the same way. */
export const STAND_IN_MODELS = { chat: "stand-in-chat", image: "stand-in-image" } as const;

/** A running stand-in. */
export interface StandInServer {
  /** The OpenAI-style base URL, `http://127.0.0.1:PORT/v1`. */
  baseURL: string;
  close(): Promise<void>;
}

/** Most bytes of a request body the stand-in reads (16 MiB). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) request.destroy(new Error("request body over 16 MiB"));
      else chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

function failure(response: ServerResponse, status: number, message: string): void {
  json(response, status, { error: { message, type: "invalid_request_error" } });
}

type ContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string } }
  | { type: string };

interface ChatMessage {
  role: string;
  content: string | ContentPart[] | null;
}

/** The text and the images (data URLs only: the stand-in is offline) of the last user message. */
function lastUserMessage(messages: ChatMessage[]): { text: string; images: Uint8Array[] } {
  const message = messages.findLast((candidate) => candidate.role === "user");
  if (message === undefined || message.content === null) return { text: "", images: [] };
  if (typeof message.content === "string") return { text: message.content, images: [] };
  const texts: string[] = [];
  const images: Uint8Array[] = [];
  for (const part of message.content) {
    if (part.type === "text" && "text" in part) texts.push(part.text);
    if (part.type === "image_url" && "image_url" in part) {
      const data = /^data:[^;,]+;base64,(.*)$/s.exec(part.image_url.url)?.[1];
      if (data !== undefined) images.push(Buffer.from(data, "base64"));
    }
  }
  return { text: texts.join("\n"), images };
}

/** Tokens as the stand-in reports them in `usage`: one per four characters, rounded up. */
const usageTokens = (text: string) => Math.ceil(text.length / 4);

function chatCompletion(body: Record<string, unknown>, response: ServerResponse): void {
  if (!Array.isArray(body.messages)) {
    failure(response, 400, "messages: expected an array");
    return;
  }
  const { text, images } = lastUserMessage(body.messages as ChatMessage[]);
  const answer = answerUserMessage(text, images);
  const promptTokens = usageTokens(JSON.stringify(body.messages));
  json(response, 200, {
    id: "chatcmpl-stand-in",
    object: "chat.completion",
    created: 0,
    model: typeof body.model === "string" ? body.model : STAND_IN_MODELS.chat,
    choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: usageTokens(answer),
      total_tokens: promptTokens + usageTokens(answer),
    },
  });
}

function imageGeneration(body: Record<string, unknown>, response: ServerResponse): void {
  if (typeof body.prompt !== "string") {
    failure(response, 400, "prompt: expected a string");
    return;
  }
  const count = typeof body.n === "number" ? body.n : 1;
  if (!Number.isInteger(count) || count < 1 || count > 4) {
    failure(response, 400, "n: expected a whole number from 1 to 4");
    return;
  }
  const { png } = drawImage(body.prompt);
  const b64_json = Buffer.from(png).toString("base64");
  json(response, 200, { created: 0, data: Array.from({ length: count }, () => ({ b64_json })) });
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
  if (request.method === "GET" && path === "/v1/models") {
    return json(response, 200, {
      object: "list",
      data: Object.values(STAND_IN_MODELS).map((id) => ({ id, object: "model", owned_by: "demo" })),
    });
  }
  const routes: Record<string, typeof chatCompletion> = {
    "/v1/chat/completions": chatCompletion,
    "/v1/images/generations": imageGeneration,
  };
  const route = routes[path];
  if (request.method !== "POST" || route === undefined) {
    return failure(
      response,
      404,
      `The stand-in serves POST /v1/chat/completions and /v1/images/generations, not ${request.method} ${path}.`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse((await readBody(request)).toString("utf8"));
  } catch {
    return failure(response, 400, "The body is not JSON.");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return failure(response, 400, "The body must be a JSON object.");
  }
  route(body as Record<string, unknown>, response);
}

/**
 * Starts the stand-in on 127.0.0.1 at a free port. With `background`, neither it nor its
 * connections keep the process alive: for a module that starts it and never closes it (the eval's
 * recipients, loaded by the `task-context eval` command).
 */
export async function startStandInServer(
  options: { background?: boolean } = {},
): Promise<StandInServer> {
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) failure(response, 500, `stand-in error: ${String(error)}`);
      else response.destroy();
    });
  });
  if (options.background === true) {
    server.on("connection", (socket) => socket.unref());
  }
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  if (options.background === true) server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
