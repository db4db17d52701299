// The delivery service on Node (≥ 22.18): embedded SQLite, settings from the environment
// (PORT, HOST, TASK_CONTEXT_DB, TASK_CONTEXT_ADMIN_TOKEN, …), stops cleanly on SIGTERM.
import { runFromEnv } from "@task-context/server/node";

await runFromEnv(process.env);
