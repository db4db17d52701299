// Where a claim-next → complete cycle's time goes, in one process and without sockets: the
// store alone (SqlStore on an SQLite file), the app over it (Hono through app.request), and the
// floor of the store's cost — two SQLite write transactions of one small row each, on the same
// kind of file (WAL, synchronous=NORMAL). Alternating rounds, medians.
// Run: `pnpm --filter ./packages/server run bench`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareAlternating, microseconds } from "@task-context/bench-kit";
import type { ClaimView } from "@task-context/contract";
import { createApp } from "../src/app.ts";
import { newId } from "../src/delivery/ids.ts";
import { openNodeDatabase } from "../src/node-sqlite.ts";
import { SqlStore } from "../src/sql/sql-store.ts";
import { benchAdminToken, benchRun, completeBody, createBenchRun } from "./cycle.ts";

const folder = mkdtempSync(join(tmpdir(), "task-context-edge-layers-"));
const database = openNodeDatabase(join(folder, "layers.db"));
const floor = openNodeDatabase(join(folder, "floor.db"));
const adminToken = benchAdminToken;
const run = benchRun(10_000);

try {
  const store = new SqlStore(database);
  const app = createApp({ store, auth: { adminToken }, limits: { rateLimit: false } });

  // The store alone.
  const runId = newId("run");
  await store.createRun(runId, run);
  const agent = { agent_id: newId("agt"), tag: "agent" };
  await store.addAgent(runId, { ...agent, token_hash: "unused" });
  const storeCycle = async () => {
    const claim = await store.claim(runId, agent, undefined);
    if (claim === undefined) throw new Error("nothing on offer");
    await store.complete(runId, agent, claim.work_item.id, completeBody(claim.lease.attempt));
  };

  // The app over the store: auth, validation, JSON, Request and Response objects, no socket.
  const { agentHeaders: headers } = await createBenchRun(app, run);
  const appCycle = async () => {
    const claimed = await app.request("/v1/inbox/claim-next", { method: "POST", headers });
    const claim = (await claimed.json()) as ClaimView;
    const completed = await app.request(`/v1/work-items/${claim.work_item.id}/complete`, {
      method: "POST",
      headers,
      body: JSON.stringify(completeBody(claim.lease.attempt)),
    });
    if (completed.status !== 200) throw new Error(await completed.text());
    await completed.text();
  };

  // The floor: two write transactions of one 600-byte row each.
  floor.exec("CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const row = "x".repeat(600);
  const floorCycle = () => {
    for (let index = 0; index < 2; index++) {
      floor.transaction(() => floor.run("INSERT INTO rows (body) VALUES (?)", row));
    }
  };

  const result = await compareAlternating(
    { store: storeCycle, app: appCycle, floor: floorCycle },
    { iterations: 300, rounds: 7 },
  );
  console.log("| per claim-next → complete cycle, in process | median |\n| --- | ---: |");
  console.log(
    `| app.request over the store (Hono, auth, validation, JSON) | ${microseconds(result.app)} |`,
  );
  console.log(`| SqlStore claim + complete alone | ${microseconds(result.store)} |`);
  console.log(
    `| two SQLite write transactions of one 600-byte row (the floor) | ${microseconds(result.floor)} |`,
  );
} finally {
  database.close();
  floor.close();
  rmSync(folder, { recursive: true, force: true });
}
