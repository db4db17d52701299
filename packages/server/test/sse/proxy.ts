// A TCP proxy in front of the service that can kill its connections, as a network failure
// would: an SSE client behind it sees its stream break and has to resume by itself.
import { type AddressInfo, connect, createServer, type Socket } from "node:net";

/** A running proxy. */
export interface CuttingProxy {
  /** `http://127.0.0.1:<port>`: requests here reach the port `target()` names. */
  url: string;
  /**
   * Kills the next connection that carries an event frame just before the blank line that ends
   * the frame: the client gets every field of it, then the connection is destroyed both ways.
   * Resolves with the text the client got of that chunk.
   */
  cutNextFrame(): Promise<string>;
  close(): Promise<void>;
}

/** Starts a proxy to `127.0.0.1:<target()>` (looked up per connection: the service may move). */
export async function startProxy(target: () => number): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  let cut: ((before: string) => void) | undefined;
  const server = createServer((client) => {
    const upstream = connect(target(), "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    const destroy = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", destroy);
    upstream.on("close", destroy);
    client.pipe(upstream);
    upstream.on("data", (chunk: Buffer) => {
      const done = cut;
      const data = chunk.indexOf("\ndata: ");
      const end = data === -1 ? -1 : chunk.indexOf("\n\n", data);
      if (done === undefined || end === -1) {
        client.write(chunk);
        return;
      }
      cut = undefined;
      // Every field of the frame, its id: line too, but not the blank line that ends it: the
      // client holds a whole frame it must not dispatch.
      const before = chunk.subarray(0, end + 1);
      client.write(before, () => {
        destroy();
        done(before.toString());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cutNextFrame: () =>
      new Promise<string>((resolve) => {
        cut = resolve;
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
