// What the run page costs to render, in one process: `GET /runs/{run_id}` (the whole page:
// stages, 100 items, 50 artifacts, 150 events) against `GET /v1/runs/{run_id}` (the run's JSON
// view, the cheapest read of the same run) and the events as one JSON page, through app.request
// on an in-memory store. Alternating rounds, medians.
// Run: `pnpm --filter ./packages/server run bench`.
import { compareAlternating, microseconds } from "@task-context/bench-kit";
import type { ClaimView } from "@task-context/contract";
import { createApp } from "../src/app.ts";
import { openNodeDatabase } from "../src/node-sqlite.ts";
import { SqlStore } from "../src/sql/sql-store.ts";
import {
  benchAdminHeaders as admin,
  benchAdminToken,
  benchRun,
  completeBody,
  createBenchRun,
} from "./cycle.ts";

const database = openNodeDatabase(":memory:");
try {
  const app = createApp({
    store: new SqlStore(database),
    auth: { adminToken: benchAdminToken },
    limits: { rateLimit: false },
  });
  const { runId: run_id, agentHeaders: headers } = await createBenchRun(app, benchRun(100));
  for (let completed = 0; completed < 50; completed++) {
    const claimed = await app.request("/v1/inbox/claim-next", { method: "POST", headers });
    const claim = (await claimed.json()) as ClaimView;
    await app.request(`/v1/work-items/${claim.work_item.id}/complete`, {
      method: "POST",
      headers,
      body: JSON.stringify(completeBody(claim.lease.attempt)),
    });
  }
  const read = (path: string, accept: string) => async () => {
    const response = await app.request(path, { headers: { ...admin, Accept: accept } });
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    await response.text();
  };
  const page = await app.request(`/runs/${run_id}`, { headers: admin });
  const size = (await page.text()).length;
  const result = await compareAlternating(
    {
      page: read(`/runs/${run_id}`, "text/html"),
      run: read(`/v1/runs/${run_id}`, "application/json"),
      events: read(`/v1/runs/${run_id}/events?limit=500`, "application/json"),
    },
    { iterations: 50, rounds: 7 },
  );
  console.log(
    `| run page: 100 items, 50 artifacts, 150 events (${Math.round(size / 1024)} KiB of HTML) | median | vs the run's JSON |\n| --- | ---: | ---: |`,
  );
  console.log(
    `| GET /runs/{run_id} (the page) | ${microseconds(result.page)} | ${(result.page / result.run).toFixed(2)}× |`,
  );
  console.log(`| GET /v1/runs/{run_id} (JSON) | ${microseconds(result.run)} | 1.00× |`);
  console.log(
    `| GET /v1/runs/{run_id}/events?limit=500 (JSON) | ${microseconds(result.events)} | ${(result.events / result.run).toFixed(2)}× |`,
  );
} finally {
  database.close();
}
