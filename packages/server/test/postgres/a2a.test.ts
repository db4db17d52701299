// A2A agents on PostgreSQL: registered through one instance, served by another that starts on
// the same database later (it finds the runs with A2A agents), with a real agent (the official
// SDK's server) on loopback; and a store error while an A2A result is stored, which fails the
// attempt with PostgreSQL's reason. The instances' clocks move only when a test moves them.

import { createServiceClient } from "@task-context/client";
import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { startNodeServer } from "../../src/node.ts";
import { completeNextByPolling, startA2aAgent } from "../a2a/a2a-agent.ts";
import { draftStage, events, lumenRun, ofType, reviewStage, settled } from "../a2a/harness.ts";
import { manualClock } from "../contract/harness.ts";
import { refuseArtifacts } from "./databases.ts";
import { newDatabase, reason, title } from "./services.ts";

const adminToken = "postgres-a2a-admin-token-0123456789";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A draft stage any agent may take, and its review by an agent with `reviewing`. */
const draft = { ...draftStage, available_skills: [] };

describe.skipIf(reason !== undefined)(title("A2A agents on PostgreSQL"), () => {
  it("an agent's credentials are stored apart from its endpoint, read back by the dispatcher and sent", async () => {
    const database = await newDatabase();
    closers.push(() => database.drop());
    const token = "pg-bearer-s3cret-Wd8q";
    const guarded = await startA2aAgent({
      name: "Guarded",
      skills: [{ id: "copywriting" }],
      security: {
        schemes: {
          bearer: {
            scheme: {
              $case: "httpAuthSecurityScheme",
              value: { description: "", scheme: "Bearer", bearerFormat: "" },
            },
          },
        },
        requirements: [{ schemes: { bearer: { list: [] } } }],
        admits: (request) => request.headers.authorization === `Bearer ${token}`,
      },
    });
    closers.push(() => guarded.close());
    const server = await startNodeServer({
      port: 0,
      databaseUrl: database.url,
      adminToken,
      a2aPollMs: 20,
      clock: manualClock().now,
      limits: { rateLimit: false },
    });
    closers.push(() => server.close());
    const admin = createServiceClient({ url: server.url, token: adminToken });
    const run = await admin.createRun(lumenRun({ stages: [draftStage] }));
    const added = await admin.addAgent(run.run_id, {
      tag: "guarded",
      a2a: { url: guarded.url, credentials: { bearer: { bearer_token: token } } },
    });
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    expect([guarded.tasks.length, guarded.refused.length]).toEqual([1, 0]);
    expect(JSON.stringify([added, await admin.listAgents(run.run_id)])).not.toContain(token);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    closers.push(() => sql.end());
    const [row] = await sql`SELECT a2a_endpoint, a2a_credentials FROM agents WHERE tag = 'guarded'`;
    expect(String(row?.a2a_endpoint)).not.toContain(token);
    expect(JSON.parse(String(row?.a2a_credentials))).toEqual([
      { kind: "bearer", scheme: "bearer", token },
    ]);
  });

  it("an instance started later delivers to the A2A agent registered through another", async () => {
    const database = await newDatabase();
    closers.push(() => database.drop());
    const critic = await startA2aAgent({ name: "Critic", skills: [{ id: "reviewing" }] });
    closers.push(() => critic.close());
    const options = {
      port: 0,
      databaseUrl: database.url,
      adminToken,
      a2aPollMs: 20,
      clock: manualClock().now,
      limits: { rateLimit: false },
    } as const;

    const first = await startNodeServer(options);
    const admin = createServiceClient({ url: first.url, token: adminToken });
    const run = await admin.createRun(lumenRun({ stages: [draft, reviewStage] }));
    const added = await admin.addAgent(run.run_id, {
      tag: "critic",
      a2a: { url: critic.url, stages: ["review"] },
    });
    expect(added.a2a?.stages).toEqual(["review"]);
    const writer = await admin.addAgent(run.run_id, { tag: "writer" });
    await first.close();

    const second = await startNodeServer(options);
    closers.push(() => second.close());
    const polling = createServiceClient({ url: second.url, token: writer.token });
    await completeNextByPolling(polling);
    const reader = createServiceClient({ url: second.url, token: adminToken });
    expect((await settled(reader, run.run_id)).status).toBe("completed");
    expect(critic.tasks.map((task) => [task.item.kind, task.attempt])).toEqual([["review", 1]]);
    const feedback = ofType(await events(reader, run.run_id), "review.feedback");
    expect(feedback.map((event) => event.feedback.reviewer_tag)).toEqual(["critic"]);
  });

  it("a store error while an A2A result is stored fails the attempt with PostgreSQL's reason", async () => {
    const database = await newDatabase();
    closers.push(() => database.drop());
    const writer = await startA2aAgent({ name: "Writer", skills: [] });
    closers.push(() => writer.close());
    const server = await startNodeServer({
      port: 0,
      databaseUrl: database.url,
      adminToken,
      a2aPollMs: 20,
      clock: manualClock().now,
      limits: { rateLimit: false },
      onUnexpectedError: () => undefined, // told of the store's error; the attempt records it
    });
    closers.push(() => server.close());
    // A real PostgreSQL error, raised by the database itself whenever an artifact is written.
    await refuseArtifacts(database.url);
    const admin = createServiceClient({ url: server.url, token: adminToken });
    const run = await admin.createRun(lumenRun({ max_attempts: 1, stages: [draft] }));
    await admin.addAgent(run.run_id, { tag: "writer", a2a: { url: writer.url } });
    expect((await settled(admin, run.run_id)).status).toBe("blocked");
    const failed = ofType(await events(admin, run.run_id), "work_item.failed");
    expect(failed.map((event) => [event.attempt, event.reason])).toEqual([
      [
        1,
        "The service could not store the A2A task's result: the artifact store is full. The item goes back on offer.",
      ],
    ]);
  });
});
