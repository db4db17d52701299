// A lean HTTP/1.1 client for the load generator (node:http with keep-alive): the benchmarks
// measure the server, so the client should cost as little as it can.
import { Agent, request } from "node:http";

/** A status and the body's text. */
export interface Answer {
  status: number;
  text: string;
}

/**
 * A client of one server, with up to `sockets` kept-alive connections (a long poll or an event
 * stream holds one while it lasts).
 */
export function httpClient(baseUrl: string, sockets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const { hostname, port } = new URL(baseUrl);
  return {
    /** Sends a request; `onSent` is called once it is written (its answer may come much later). */
    send(
      method: "GET" | "POST",
      path: string,
      token: string,
      body?: unknown,
      onSent?: () => void,
    ): Promise<Answer> {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const attempt = (retry: boolean): Promise<Answer> =>
        new Promise((resolve, reject) => {
          const sent = request(
            {
              agent,
              hostname,
              port,
              method,
              path,
              headers: {
                Authorization: `Bearer ${token}`,
                ...(payload === undefined
                  ? {}
                  : {
                      "Content-Type": "application/json",
                      "Content-Length": Buffer.byteLength(payload),
                    }),
              },
            },
            (response) => {
              let text = "";
              response.setEncoding("utf8");
              response.on("data", (chunk: string) => {
                text += chunk;
              });
              response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
              response.on("error", reject);
            },
          );
          sent.on("error", (error: NodeJS.ErrnoException) => {
            // The server closed a kept-alive connection as it was reused: the request never
            // reached it (Node's documented case); send it once more on a new connection.
            if (retry && sent.reusedSocket && error.code === "ECONNRESET") {
              resolve(attempt(false));
            } else reject(error);
          });
          if (onSent !== undefined) sent.once("finish", onSent);
          sent.end(payload);
        });
      return attempt(true);
    },
    /**
     * Follows an event stream: `onData` gets each chunk of its body as text. Resolves, once the
     * first chunk came, with how to stop following.
     */
    follow(path: string, token: string, onData: (text: string) => void): Promise<() => void> {
      return new Promise((resolve, reject) => {
        const sent = request(
          {
            agent,
            hostname,
            port,
            method: "GET",
            path,
            headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
          },
          (response) => {
            response.setEncoding("utf8");
            response.on("data", onData);
            response.once("data", () => resolve(() => sent.destroy()));
            response.on("error", () => {});
          },
        );
        sent.on("error", reject);
        sent.end();
      });
    },
    close() {
      agent.destroy();
    },
  };
}
