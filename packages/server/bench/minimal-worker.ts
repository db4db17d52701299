// The baseline of worker-startup.bench.ts: a Worker that is nothing but Hono answering /healthz
// as the service does, bundled by wrangler the same way as apps/edge.
import { Hono } from "hono";

const app = new Hono();
app.get("/healthz", (c) => c.json({ status: "ok" as const }));

export default app;
