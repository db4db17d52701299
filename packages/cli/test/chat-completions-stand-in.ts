// A stand-in for a model behind an endpoint that speaks OpenAI's chat completions, on loopback:
// it answers by quoting the canary lines of the messages it was sent (all, or the first only),
// and refuses a request without its key the way the real API does, naming the key it was given.
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** How the stand-in answers. */
export type StandInBehaviour = "quotes every line" | "quotes the first line only";

/** A running stand-in: its base URL, the requests it got, how to stop it. */
export interface ChatCompletionsStandIn {
  baseURL: string;
  /** Each request's body, as parsed. */
  requests: Array<{ model: string; messages: Array<{ role: string; content: unknown }> }>;
  close(): Promise<void>;
}

/** The text of a chat message's content: a string, or its text parts. */
const textOf = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part: { text?: string }) => part.text ?? "").join("\n")
      : "";

/** Starts the stand-in on 127.0.0.1, accepting `Authorization: Bearer <apiKey>`. */
export async function startChatCompletionsStandIn(
  apiKey: string,
  behaviour: StandInBehaviour = "quotes every line",
): Promise<ChatCompletionsStandIn> {
  const requests: ChatCompletionsStandIn["requests"] = [];
  const server = createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += String(chunk);
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value));
    };
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      return send(404, { error: { message: `no route ${request.method} ${request.url}` } });
    }
    const given = request.headers.authorization?.replace(/^Bearer /, "") ?? "";
    if (given !== apiKey) {
      return send(401, {
        error: { message: `Incorrect API key provided: ${given}.`, type: "invalid_request_error" },
      });
    }
    const parsed = JSON.parse(body) as ChatCompletionsStandIn["requests"][number];
    requests.push(parsed);
    const lines = parsed.messages
      .flatMap((message) => textOf(message.content).split("\n"))
      .filter((line) => line.startsWith("task-context canary"));
    const quoted = behaviour === "quotes every line" ? lines : lines.slice(0, 1);
    send(200, {
      id: "chatcmpl-stand-in",
      object: "chat.completion",
      created: 0,
      model: parsed.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: quoted.join("\n") },
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
