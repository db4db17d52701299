// A2A agents in an app of your own: the app registers them, a dispatcher delivers their work
// items as A2A tasks (startNodeServer and the Workers entry do this on their own).
import { createApp, SqlStore } from "@task-context/server";
import { A2aDispatcher } from "@task-context/server/a2a";
import { openNodeDatabase } from "@task-context/server/node";

const adminToken = process.env.TASK_CONTEXT_ADMIN_TOKEN ?? "a-long-random-secret-0123456789";
//#region A2aDispatcher
const store = new SqlStore(openNodeDatabase("service.db"));
const dispatcher = new A2aDispatcher({ store, serviceUrl: "https://service.example.com" });
const app = createApp({
  store,
  auth: { adminToken },
  a2a: { agentAdded: (runId) => void dispatcher.watchRun(runId) },
});
//#endregion
// Serve `app` (e.g. with startNodeServer's adapter or @hono/node-server); stop with:
await dispatcher.close();
void app;
