import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startNodeServer } from "../../src/node.ts";
import { artifactCompletion, Client, createRun, runInput, taskStage } from "../contract/client.ts";
import type { Service } from "../contract/harness.ts";
import { manualClock, temporaryFolder } from "./services.ts";

const adminToken = "restart-admin-token-0123456789";

describe("the Node server on an SQLite file", () => {
  const folder = temporaryFolder();
  afterEach(() => folder.remove());

  async function serve(database: string, clock: ReturnType<typeof manualClock>): Promise<Service> {
    const server = await startNodeServer({
      port: 0,
      database,
      adminToken,
      limits: { rateLimit: false },
      clock: clock.now,
    });
    return {
      baseUrl: server.url,
      adminToken,
      fetch: (url, init) => fetch(url, init),
      advance: async (milliseconds) => clock.advance(milliseconds),
      stop: () => server.close(),
    };
  }

  it("loses nothing committed when it restarts on the same database file", async () => {
    const database = join(folder.path, "nested", "edge.db");
    const clock = manualClock();
    const before = await serve(database, clock);
    const { run, agent, events } = await createRun(
      before,
      runInput([taskStage("draft", { items: 2 }), taskStage("edit")], { lease_ms: 5000 }),
    );
    const worker = await agent("worker");
    const first = await worker.claimNext();
    const done = await worker.complete(first.body.work_item.id, artifactCompletion(1, "kept"));
    const second = await worker.claimNext();
    const eventsBefore = await events();
    const runBefore = (await new Client(before, adminToken).getRun(run.run_id)).body;
    await before.stop();

    const after = await serve(database, clock);
    try {
      const admin = new Client(after, adminToken);
      expect((await admin.getRun(run.run_id)).body).toEqual(runBefore);
      expect((await admin.events(run.run_id, { limit: 1000 })).body.events).toEqual(eventsBefore);
      expect((await admin.artifact(run.run_id, done.body.artifact_id ?? "")).body.content).toBe(
        "kept",
      );
      // The agent's token still works, its lease still holds, and seq goes on without a gap.
      const again = new Client(after, worker.token);
      const completed = await again.complete(second.body.work_item.id, artifactCompletion(1));
      expect(completed.status).toBe(200);
      const all = (await admin.events(run.run_id, { limit: 1000 })).body.events;
      expect(all.map((event) => event.seq)).toEqual(all.map((_, index) => index + 1));
      expect(all.at(-1)?.type).toBe("work_item.offered");
    } finally {
      await after.stop();
    }
  });
});
