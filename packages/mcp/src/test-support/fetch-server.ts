import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/** A web-standard handler served on a real loopback socket. */
export interface FetchServer {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  close(): Promise<void>;
}

function toRequest(request: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(new URL(request.url ?? "/", origin), {
    method: request.method ?? "GET",
    headers,
    ...(hasBody && { body: Readable.toWeb(request) as ReadableStream, duplex: "half" }),
  });
}

async function send(response: Response, target: ServerResponse): Promise<void> {
  target.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    target.end();
    return;
  }
  // Streamed as it comes: a subscription stream stays open until the client or handler ends it.
  const reader = response.body.getReader();
  target.on("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    target.write(value);
  }
  target.end();
}

/** Serves `fetch` (such as the SDK's `createMcpHandler(…).fetch`) with node:http on loopback. */
export async function serveFetch(
  fetch: (request: Request) => Promise<Response>,
): Promise<FetchServer> {
  const server: Server = createServer((request, response) => {
    const origin = `http://${request.headers.host ?? "127.0.0.1"}`;
    fetch(toRequest(request, origin))
      .then((answer) => send(answer, response))
      .catch(() => {
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
