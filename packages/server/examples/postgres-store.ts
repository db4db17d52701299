// The delivery service on PostgreSQL from your own code: the store on TASK_CONTEXT_DATABASE_URL,
// the app over it, one run created through the app.
import { createApp } from "@task-context/server";
import { PostgresStore } from "@task-context/server/postgres";

//#region PostgresStore
const store = await PostgresStore.open(process.env.TASK_CONTEXT_DATABASE_URL ?? "", {
  maxConnections: 10,
});
const adminToken = process.env.TASK_CONTEXT_ADMIN_TOKEN ?? "a-long-random-secret-0123456789";
const app = createApp({ store, auth: { adminToken } });
//#endregion
const created = await app.request("/v1/runs", {
  method: "POST",
  headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
  body: JSON.stringify({
    goal: "Launch the Aurora landing page",
    constraints: ["Brand name: Aurora"],
    stages: [
      {
        id: "copy",
        stage_description: "Write the hero copy",
        expected_output: "Markdown",
        available_skills: ["write_file"],
      },
    ],
  }),
});
const { run_id: runId, status } = (await created.json()) as { run_id: string; status: string };
console.log(created.status, status, runId.startsWith("run_"));
await store.end();
