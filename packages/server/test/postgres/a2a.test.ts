// A2A agents on PostgreSQL: registered through one instance, served by another that starts on
// the same database later (it finds the runs with A2A agents), with a real agent (the official
// SDK's server) on loopback.
import { afterEach, describe, expect, it } from "vitest";
import { createServiceClient } from "../../src/client.ts";
import { startNodeServer } from "../../src/node.ts";
import { completeNextByPolling, startA2aAgent } from "../a2a/a2a-agent.ts";
import { newDatabase, reason, title } from "./services.ts";

const adminToken = "postgres-a2a-admin-token-0123456789";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(reason !== undefined)(title("A2A agents on PostgreSQL"), () => {
  it("an instance started later delivers to the A2A agent registered through another", async () => {
    const database = await newDatabase();
    closers.push(() => database.drop());
    const critic = await startA2aAgent({ name: "Critic", skills: [{ id: "reviewing" }] });
    closers.push(() => critic.close());
    const options = {
      port: 0,
      databaseUrl: database.url,
      adminToken,
      a2aPollMs: 50,
      limits: { rateLimit: false },
    } as const;

    const first = await startNodeServer(options);
    const admin = createServiceClient({ url: first.url, token: adminToken });
    const run = await admin.createRun({
      goal: "Launch Lumen, a reading lamp",
      constraints: [],
      stages: [
        {
          id: "draft",
          stage_description: "Write the post",
          expected_output: "Markdown",
          available_skills: [],
        },
        {
          id: "review",
          kind: "review",
          reviews: "draft",
          review_criteria: ["clarity"],
          stage_description: "Review the post",
          expected_output: "A verdict",
          available_skills: ["reviewing"],
        },
      ],
    });
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
    const end = Date.now() + 15_000;
    let status = (await reader.getRun(run.run_id)).status;
    while (status !== "completed" && Date.now() < end) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await reader.getRun(run.run_id)).status;
    }
    expect(status).toBe("completed");
    expect(critic.tasks.map((task) => [task.item.kind, task.attempt])).toEqual([["review", 1]]);
    const { events } = await reader.listEvents(run.run_id, { after: 0, limit: 100 });
    const feedback = events.find((event) => event.type === "review.feedback");
    expect(feedback?.type === "review.feedback" && feedback.feedback.reviewer_tag).toBe("critic");
  });
});
