// A TCP proxy in front of PostgreSQL that can cut a connection at its next COMMIT, the way a
// network or a crash can: it reads the client's messages of PostgreSQL's protocol (a Parse names
// a statement's text, a Bind runs a named one) to find the batch that carries COMMIT, then either
// lets the batch through and drops the answer (the transaction commits; its client never hears),
// or drops the batch and leaves the server's side open (the transaction stays in progress, its
// locks held, until its backend is ended). Either way the client's socket is closed.
import { createConnection, createServer, type Socket } from "node:net";

/** What happens to the next batch that carries a COMMIT. */
export type Cut = "answer-lost" | "batch-lost";

/** The proxy: its port, what it has cut, and how to arm the next cut. */
export interface CuttingProxy {
  port: number;
  /** Cuts the next connection that sends a COMMIT, once. */
  arm(cut: Cut): void;
  /** The cuts made so far. */
  readonly cuts: Cut[];
  close(): Promise<void>;
}

/** The strings of `body` that end with a zero byte, from its start (at most `count`). */
function cStrings(body: Buffer, count: number): string[] {
  const strings: string[] = [];
  let start = 0;
  while (strings.length < count) {
    const end = body.indexOf(0, start);
    if (end < 0) break;
    strings.push(body.toString("utf8", start, end));
    start = end + 1;
  }
  return strings;
}

/** Reads a client's messages, chunk by chunk: whether a chunk's messages run a COMMIT. */
function commitReader(): (chunk: Buffer) => boolean {
  let pending = Buffer.alloc(0);
  let started = false;
  const statements = new Map<string, string>();
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    let commits = false;
    for (;;) {
      if (!started) {
        // The startup message (or an SSL request before it) has no type byte.
        if (pending.length < 8 || pending.length < pending.readInt32BE(0)) break;
        started = pending.readInt32BE(4) !== 80_877_103;
        pending = pending.subarray(pending.readInt32BE(0));
        continue;
      }
      if (pending.length < 5 || pending.length < 1 + pending.readInt32BE(1)) break;
      const [type, body] = [pending[0], pending.subarray(5, 1 + pending.readInt32BE(1))];
      pending = pending.subarray(1 + pending.readInt32BE(1));
      if (type === 0x50) {
        const [name = "", text = ""] = cStrings(body, 2);
        statements.set(name, text);
        if (text === "COMMIT") commits = true;
      } else if (type === 0x42) {
        const [, name = ""] = cStrings(body, 2);
        if (statements.get(name) === "COMMIT") commits = true;
      } else if (type === 0x51 && cStrings(body, 1)[0] === "COMMIT") {
        commits = true;
      }
    }
    return commits;
  };
}

/** Starts a {@link CuttingProxy} on 127.0.0.1 in front of `127.0.0.1:${port}`. */
export function startCuttingProxy(port: number): Promise<CuttingProxy> {
  const sockets = new Set<Socket>();
  const cuts: Cut[] = [];
  let armed: Cut | undefined;
  const server = createServer((client) => {
    const upstream = createConnection({ host: "127.0.0.1", port });
    sockets.add(client);
    sockets.add(upstream);
    const commits = commitReader();
    /** Set once this connection's answers are dropped until PostgreSQL answers its COMMIT. */
    let dropping = false;
    /** Set once this connection's batch was dropped: the server's side stays open. */
    let keepUpstream = false;
    client.on("data", (chunk) => {
      // Every chunk is read, armed or not: the statements' names come before.
      if (!commits(chunk) || armed === undefined) {
        upstream.write(chunk);
        return;
      }
      const cut = armed;
      armed = undefined;
      cuts.push(cut);
      if (cut === "batch-lost") {
        keepUpstream = true;
        client.destroy();
        return;
      }
      dropping = true;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      if (!dropping) {
        client.write(chunk);
        return;
      }
      // PostgreSQL's answer to the COMMIT: a CommandComplete tagged COMMIT.
      if (chunk.includes("COMMIT\0")) {
        client.destroy();
        upstream.destroy();
      }
    });
    const end = () => {
      client.destroy();
      sockets.delete(client);
      // A batch lost leaves the server's side open: its backend ends when told to, or at close.
      if (!keepUpstream) upstream.destroy();
    };
    client.on("close", end);
    client.on("error", end);
    upstream.on("close", () => {
      upstream.destroy();
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on("error", () => upstream.destroy());
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address !== null ? address.port : 0,
        arm(cut) {
          armed = cut;
        },
        cuts,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
