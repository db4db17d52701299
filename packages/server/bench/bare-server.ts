// The baseline of the throughput benchmark: bare Hono routes on the same server stack as
// src/node.ts (@hono/node-server), answering the same JSON as the service's claim-next and
// complete (BARE_SAMPLES), with nothing in between: no auth, validation, database or headers.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const samples = JSON.parse(process.env.BARE_SAMPLES ?? "{}") as {
  claim: object;
  completion: object;
};
const app = new Hono();
app.post("/claim-next", (c) => c.json(samples.claim));
app.post("/complete", async (c) => {
  await c.req.json();
  return c.json(samples.completion);
});
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
