// The delivery service on Node from your own code: settings from the environment, a free port.
import { nodeSettingsFromEnv, startNodeServer } from "@task-context/server/node";

//#region startNodeServer
const { generatedAdminToken, ...settings } = nodeSettingsFromEnv(process.env);
const server = await startNodeServer({ ...settings, port: 0, database: ":memory:" });
console.log(`listening on ${server.url}`);
if (generatedAdminToken) console.log(`admin token: ${settings.adminToken}`);
//#endregion
await server.close();
