import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One chat completion the stand-in answers with: a text reply or tool calls. */
export type ScriptedReply =
  | { text: string }
  | { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> };

/** A loopback server that speaks the OpenAI chat completions API, with scripted replies. */
export interface OpenAiStandIn {
  /** `http://127.0.0.1:<port>/v1`. */
  baseURL: string;
  /** The JSON bodies of the chat completion requests, in order. */
  requests: Array<{ messages: Array<{ role: string; content: unknown }>; tools?: unknown[] }>;
  /** Replies to give, in order; the last one repeats. */
  script: ScriptedReply[];
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function completion(reply: ScriptedReply, index: number) {
  const message =
    "text" in reply
      ? { role: "assistant", content: reply.text }
      : {
          role: "assistant",
          content: null,
          tool_calls: reply.toolCalls.map((call, position) => ({
            id: `call_${index}_${position}`,
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        };
  return {
    id: `chatcmpl-${index}`,
    object: "chat.completion",
    created: 1_700_000_000,
    model: "stand-in",
    choices: [{ index: 0, message, finish_reason: "text" in reply ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** Starts the stand-in on a free loopback port. */
export async function startOpenAiStandIn(): Promise<OpenAiStandIn> {
  const standIn: Omit<OpenAiStandIn, "baseURL" | "close"> = { requests: [], script: [] };
  const server: Server = createServer(async (request, response: ServerResponse) => {
    const body = JSON.parse(await readBody(request));
    const index = standIn.requests.push(body) - 1;
    const reply = standIn.script[Math.min(index, standIn.script.length - 1)] ?? { text: "" };
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(completion(reply, index)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(standIn, {
    baseURL: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
