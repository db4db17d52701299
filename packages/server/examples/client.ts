// The clients the other examples use: the typed client of @task-context/client, with the
// service's address and the tokens from the environment.
import { createServiceClient } from "@task-context/client";

//#region client
/** Where the service runs: `wrangler dev` and the Node service both default to port 8787. */
export const service = process.env.TASK_CONTEXT_URL ?? "http://127.0.0.1:8787";

/** The admin: creates runs and agents, reads runs, artifacts, dead letters and events. */
export const admin = createServiceClient({
  url: service,
  token: process.env.TASK_CONTEXT_ADMIN_TOKEN ?? "change-me",
});

/** An agent: claims, heartbeats, completes and fails the work items of its run. */
export const agent = createServiceClient({
  url: service,
  token: process.env.TASK_CONTEXT_AGENT_TOKEN ?? "",
});
//#endregion
