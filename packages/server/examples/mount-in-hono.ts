// The delivery service mounted in your own Hono app.
import { createApp, SqlStore } from "@task-context/server";
import { openNodeDatabase } from "@task-context/server/node";
import { Hono } from "hono";

// SqlStore runs over any synchronous SQL database (SqlDatabase: exec, run, all, transaction) and
// migrates it; openNodeDatabase opens one over node:sqlite, a Durable Object has its own.
const store = new SqlStore(openNodeDatabase(":memory:"));
const service = createApp({ store, auth: { adminToken: "a long random secret" } });

const app = new Hono();
app.get("/", (c) => c.text("my app"));
app.route("/", service); // /v1/…, /mcp, /docs, /healthz
const health = await app.request("/healthz");
console.log(health.status, await health.json()); // 200 { status: 'ok' }
