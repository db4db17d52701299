// Memory of the service under a flood of made-up bearer tokens from one address: 25 000
// requests, each with a distinct 8 KB token (all but the address's limit answered 429), against
// the same number of requests with one valid token, each on a fresh server process with the
// default rate limit (1200 per minute), in alternating rounds. The figure is what the server
// still holds after the requests (RSS and V8 heap after a full garbage collection): a limiter
// that keeps every token it sees grows by the tokens' size.
// Run: `pnpm --filter ./packages/server run bench`.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "@task-context/bench-kit";
import { benchAdminToken } from "./cycle.ts";
import { httpClient } from "./http-client.ts";

const REQUESTS = 25_000;
const CONNECTIONS = 16;
const ROUNDS = 3;
const TOKEN_BYTES = 8192;
const entry = fileURLToPath(new URL("./memory-server.ts", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "task-context-edge-flood-"));

interface Memory {
  rss: number;
  heapUsed: number;
}

/** A fresh service process with the default rate limit. */
async function startService(database: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=@task-context/source", "--expose-gc", entry],
    {
      env: {
        ...process.env,
        PORT: "0",
        HOST: "127.0.0.1",
        TASK_CONTEXT_DB: database,
        TASK_CONTEXT_ADMIN_TOKEN: benchAdminToken,
        TASK_CONTEXT_RATE_LIMIT: "",
      },
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the service exited (${code}): ${output}`)));
  });
  return {
    url,
    memory: () =>
      new Promise<Memory>((resolve) => {
        child.once("message", (message) => resolve(message as Memory));
        child.send("memory");
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Sends `count` requests over `CONNECTIONS` connections, each with `tokenOf(index)`. */
async function send(url: string, tokenOf: (index: number) => string, count = REQUESTS) {
  const client = httpClient(url, CONNECTIONS);
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let index = next++; index < count; index = next++) {
        const { status } = await client.send(
          "GET",
          "/v1/runs/run_00000000000000000000000000",
          tokenOf(index),
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  client.close();
  return statuses;
}

const scenarios = {
  "one valid token": () => benchAdminToken,
  [`${REQUESTS} distinct ${TOKEN_BYTES / 1024} KB made-up tokens`]: () =>
    randomBytes((TOKEN_BYTES * 3) / 4).toString("base64url"),
} as Record<string, (index: number) => string>;

const growth = new Map<string, { rss: number[]; heap: number[]; statuses: string }>();
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, tokenOf] of Object.entries(scenarios)) {
      const service = await startService(join(folder, `${round}-${growth.size}.db`));
      // One request first, so that what loads on the first request is in the baseline.
      await send(service.url, () => benchAdminToken, 1);
      const before = await service.memory();
      const statuses = await send(service.url, tokenOf);
      const after = await service.memory();
      await service.stop();
      const entry = growth.get(name) ?? { rss: [], heap: [], statuses: "" };
      entry.rss.push(after.rss - before.rss);
      entry.heap.push(after.heapUsed - before.heapUsed);
      entry.statuses = [...statuses]
        .sort()
        .map(([status, count]) => `${count} × ${status}`)
        .join(", ");
      growth.set(name, entry);
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const baseline = growth.get("one valid token");
console.log(
  `\n${REQUESTS} requests from one address over ${CONNECTIONS} connections, a fresh server each; medians of ${ROUNDS} alternating rounds; growth after a full GC.\n`,
);
console.log("| requests | answers | RSS growth | RSS growth ÷ baseline | heap growth |");
console.log("| --- | --- | ---: | ---: | ---: |");
for (const [name, entry] of growth) {
  const rss = median(entry.rss);
  const ratio = baseline === undefined ? "" : `${(rss / median(baseline.rss)).toFixed(2)}×`;
  console.log(
    `| ${name} | ${entry.statuses} | ${mib(rss)} | ${ratio} | ${mib(median(entry.heap))} |`,
  );
}
