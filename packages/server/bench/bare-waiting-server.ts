// The baseline of the waiting-agents benchmark (waiting.bench.ts): bare Hono routes on the same
// server stack as src/node.ts (@hono/node-server) that hold the same connections the service
// holds and wake them the way an ideal service would, with nothing in between: a claim-next long
// poll answered (the service's own claim, as sent in BARE_SAMPLES) as soon as an item is released
// — one waiter per item — or with 204 when its wait ends; an event stream per follower that gets
// each emitted event once. No auth, validation, database or headers.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const samples = JSON.parse(process.env.BARE_SAMPLES ?? "{}") as { claim: object; event: object };
const claim = JSON.stringify(samples.claim);

/** Long polls waiting for an item, oldest first. */
const waiters: Array<(answer: Response) => void> = [];
/** Event streams' writers. */
const followers = new Set<(frame: string) => void>();
let seq = 0;

const app = new Hono();
app.post("/v1/inbox/claim-next", async (c) => {
  const wait = Number(c.req.query("wait") ?? 0);
  return new Promise<Response>((resolve) => {
    const timer = setTimeout(() => {
      const index = waiters.indexOf(answer);
      if (index !== -1) waiters.splice(index, 1);
      resolve(c.body(null, 204));
    }, wait * 1000);
    const answer = (response: Response) => {
      clearTimeout(timer);
      resolve(response);
    };
    waiters.push(answer);
  });
});
app.post("/release", (c) => {
  waiters.shift()?.(new Response(claim, { headers: { "content-type": "application/json" } }));
  return c.body(null, 204);
});
app.get("/v1/runs/:run_id/events", () => {
  let write: ((frame: string) => void) | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const encoder = new TextEncoder();
      write = (frame) => controller.enqueue(encoder.encode(frame));
      followers.add(write);
      write(": connected\n\n");
    },
    cancel() {
      if (write !== undefined) followers.delete(write);
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
});
app.post("/emit", (c) => {
  seq += 1;
  const frame = `id: ${seq}\nevent: work_item.failed\ndata: ${JSON.stringify({ ...samples.event, seq })}\n\n`;
  for (const write of followers) write(frame);
  return c.body(null, 204);
});

serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
// Held connections would keep close() waiting: the benchmark is done with them.
process.once("SIGTERM", () => process.exit(0));
