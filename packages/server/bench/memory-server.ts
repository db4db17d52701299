// The service of the memory benchmark: src/node.ts's server as `pnpm start` configures it (from
// the environment), which reports its memory over IPC when asked — after a full garbage
// collection (node --expose-gc), so that only what the server keeps is counted.
import { settingsFromEnv, startNodeServer } from "../src/node.ts";

const { generatedAdminToken: _, ...options } = settingsFromEnv(process.env);
const server = await startNodeServer(options);
console.log(`listening on ${server.url}`);
process.on("message", (message) => {
  if (message !== "memory") return;
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.send?.({ rss, heapUsed });
});
process.once("SIGTERM", () => server.close().then(() => process.exit(0)));
