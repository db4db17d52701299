import { createServiceClient } from "../src/client.ts";
import { startNodeServer } from "../src/node.ts";
import { startA2aAgent, textPart } from "../test/a2a/a2a-agent.ts";
import { benchAdminToken, benchRun, completeBody } from "./cycle.ts";
const streaming = process.env.S !== "0";
const server = await startNodeServer({ port: 0, database: ":memory:", adminToken: benchAdminToken, limits: { rateLimit: false }, a2aPollMs: 20 });
const admin = createServiceClient({ url: server.url, token: benchAdminToken });
const agents = [];
for (let i = 0; i < 4; i++) agents.push(await startA2aAgent({ name: `w${i}`, skills: [{ id: "write_file" }], streaming, behaviour: async (t) => { t.working(); t.complete([textPart(completeBody(1).artifact.content)]); } }));
for (let r = 0; r < 4; r++) {
  const { run_id } = await admin.createRun({ ...benchRun(400), lease_ms: 60000 });
  const t0 = performance.now();
  await Promise.all(agents.map((a, i) => admin.addAgent(run_id, { tag: `a${i}`, a2a: { url: a.url, concurrency: 1 } })));
  for await (const _ of admin.followEvents(run_id)) {}
  console.log(r, (performance.now() - t0).toFixed(0));
}
await server.close();
for (const a of agents) await a.close();
