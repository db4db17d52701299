// The typed client against a service started in process: the admin creates a run and an agent,
// the agent claims the item and completes it, and the admin follows the run's events to its end.
import { createServiceClient, ServiceError } from "@task-context/client";
import { startNodeServer } from "@task-context/server/node";

const server = await startNodeServer({ port: 0, database: ":memory:", adminToken: "change-me" });

//#region admin
const admin = createServiceClient({ url: server.url, token: "change-me" });
const run = await admin.createRun({
  goal: "Launch Lumen",
  constraints: ["Say Lumen, never Lumen App"],
  stages: [
    {
      id: "draft",
      stage_description: "Write the launch post",
      expected_output: "Markdown, with a title",
      available_skills: [],
    },
  ],
});
const { token } = await admin.addAgent(run.run_id, { tag: "writer" }); // shown this once
//#endregion

//#region agent
const agent = createServiceClient({ url: server.url, token });
const claim = await agent.claimNext({ wait: 30 }); // undefined when nothing came within 30 s
if (claim === undefined) throw new Error("Nothing was offered within 30 s.");
const { work_item: item, lease } = claim;
// Sent with an Idempotency-Key, and sent again with the same key when no answer came.
const done = await agent.complete(item.id, {
  attempt: lease.attempt,
  artifact: { media_type: "text/markdown", content: `# ${item.goal}` },
});
console.log(done.status); // completed
//#endregion

//#region errors
try {
  await agent.heartbeat(item.id, { attempt: lease.attempt });
} catch (error) {
  if (!ServiceError.isInstance(error)) throw error;
  console.log(error.status, error.code); // 409 ALREADY_COMPLETED: stop working on the item
}
//#endregion

//#region events
// Every event in seq order until run.completed, resumed with Last-Event-ID if the connection drops.
for await (const event of admin.followEvents(run.run_id)) {
  console.log(event.seq, event.type);
}
//#endregion

await server.close();
