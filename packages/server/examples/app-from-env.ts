// The delivery service configured by the environment on any runtime (Node, Bun, Deno): the
// variables every runtime shares, over a store of your choice.
import { createApp, SqlStore, serviceSettingsFromEnv } from "@task-context/server";
import { openNodeDatabase } from "@task-context/server/node";

const store = new SqlStore(openNodeDatabase(":memory:"));
//#region serviceSettingsFromEnv
const { adminToken, generatedAdminToken, ...options } = serviceSettingsFromEnv(process.env, {
  generateAdminToken: true,
});
const app = createApp({ store, auth: { adminToken }, ...options });
if (generatedAdminToken) console.log(`admin token: ${adminToken}`);
//#endregion
const health = await app.request("/healthz");
console.log(health.status, await health.json()); // 200 { status: 'ok' }
store.close();
