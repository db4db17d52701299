// A raw HTTP/1.1 client on a TCP socket: sends exactly the bytes a test writes and records
// exactly the bytes the server answers, for what fetch and node:http hide or refuse to send
// (an interim 100 Continue, a malformed Host, a control character in a header).
import { connect, type Socket } from "node:net";

/** A raw connection to `url` (http://host:port) and everything it has received so far. */
export interface RawConnection {
  socket: Socket;
  /** All bytes received so far, as latin1 text. */
  received(): string;
  /** Resolves once the received text matches `pattern`; rejects if the connection ends first. */
  waitFor(pattern: RegExp): Promise<string>;
  /** Resolves with all received text once the server has closed the connection. */
  closed(): Promise<string>;
}

export async function rawConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  let text = "";
  let ended = false;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  socket.on("data", (chunk: Buffer) => {
    text += chunk.toString("latin1");
    notify();
  });
  socket.on("error", () => {}); // a reset after the answer ends the connection like a close
  socket.on("close", () => {
    ended = true;
    notify();
  });
  const until = (done: () => boolean, failure: () => Error | undefined) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (done()) {
          listeners.delete(check);
          resolve(text);
          return;
        }
        const error = failure();
        if (error !== undefined) {
          listeners.delete(check);
          reject(error);
        }
      };
      listeners.add(check);
      check();
    });
  return {
    socket,
    received: () => text,
    waitFor: (pattern) =>
      until(
        () => pattern.test(text),
        () => (ended ? new Error(`closed before ${pattern}; received:\n${text}`) : undefined),
      ),
    closed: () =>
      until(
        () => ended,
        () => undefined,
      ),
  };
}

/** An answer's status line, lower-cased headers and body, from its raw text. */
export function parseAnswer(raw: string): {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
} {
  const end = raw.indexOf("\r\n\r\n");
  const [statusLine = "", ...lines] = raw.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { statusLine, headers, body: raw.slice(end + 4) };
}
