import { once } from "node:events";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { serveTaskContextOverHttp } from "../../examples/http.ts";

/** The documented HTTP recipe (examples/http.ts), listening on a free loopback port. */
export async function startHttpRecipe(directory: string) {
  const { handler, server } = serveTaskContextOverHttp(directory, 0);
  if (!server.listening) await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    handler,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      await handler.close();
      await new Promise<void>((resolve) => {
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/**
 * A POST with the exact headers given (fetch would not send a foreign `Host`): status, headers
 * and body as received.
 */
export function rawPost(
  url: URL,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}
