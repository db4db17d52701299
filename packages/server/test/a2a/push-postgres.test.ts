// A2A push notifications on PostgreSQL: the attempt ↔ task mapping and the token's hash are kept
// in the shared database (never the token), so a notification that comes after the instance that
// sent the message stopped is applied by the one that serves the same URL next. A real agent (the
// official SDK's server and push sender) on loopback; the instances' clocks move only when told.
import { createHash } from "node:crypto";
import { createServiceClient } from "@task-context/client";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { type NodeServer, startNodeServer } from "../../src/node.ts";
import { manualClock } from "../contract/harness.ts";
import { newDatabase, reason, title } from "../postgres/services.ts";
import { startA2aAgent } from "./a2a-agent.ts";
import { lumenRun, untilEvent, waitFor } from "./harness.ts";
import { cuedPusher, freePort } from "./push-agents.ts";

const adminToken = "postgres-push-admin-token-0123456789";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(reason !== undefined)(title("A2A push notifications on PostgreSQL"), () => {
  it("keeps the token's hash and the task in the database; another instance applies a later notification", async () => {
    const database = await newDatabase();
    closers.push(() => database.drop());
    const { options, cue, sent } = cuedPusher();
    const agent = await startA2aAgent(options);
    closers.push(() => agent.close());
    const port = await freePort();
    const start = async (): Promise<NodeServer> => {
      const server = await startNodeServer({
        port,
        publicUrl: `http://127.0.0.1:${port}`,
        databaseUrl: database.url,
        adminToken,
        a2aPollMs: 20,
        clock: manualClock().now,
        limits: { rateLimit: false },
      });
      closers.push(() => server.close());
      return server;
    };
    const first = await start();
    const admin = createServiceClient({ url: first.url, token: adminToken });
    const run = await admin.createRun(lumenRun({ lease_ms: 60_000 }));
    await admin.addAgent(run.run_id, { tag: "writer", a2a: { url: agent.url } });
    await waitFor(
      "the working notification",
      () => sent.length,
      (count) => count >= 1,
    );

    const sql = postgres(database.url, { max: 1 });
    closers.push(() => sql.end());
    // Once the agent's answer gave the attempt its task (a notification may come before).
    const rows = await waitFor(
      "the attempt's task in the database",
      () => sql`SELECT attempt, token_hash, task_id, ended_at FROM a2a_push_tasks`,
      (found) => found[0]?.task_id !== null && found[0]?.task_id !== undefined,
    );
    const token = sent[0]?.token as string;
    expect(
      rows.map((row) => [Number(row.attempt), row.token_hash, row.task_id, row.ended_at]),
    ).toEqual([
      [1, createHash("sha256").update(token).digest("hex"), agent.tasks[0]?.taskId, null],
    ]);

    await first.close();
    const second = await start();
    cue.open();
    const later = createServiceClient({ url: second.url, token: adminToken });
    const completed = await untilEvent(later, run.run_id, "work_item.completed");
    expect([completed.agent_tag, completed.attempt]).toEqual(["writer", 1]);
    expect(second.a2aPush?.applied).toBeGreaterThanOrEqual(1);
    const [ended] = await sql`SELECT ended_at FROM a2a_push_tasks`;
    expect(ended?.ended_at).not.toBeNull();
  });
});
