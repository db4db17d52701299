// get_task_context over stdio and over Streamable HTTP against a bare MCP server on the same SDK
// whose tool returns a constant string of the same size, in alternating rounds of the same run;
// and the memory of the stdio server at rest, after 10 000 calls and after 40 000. Against the built package
// (dist/): `pnpm run bench` here after `pnpm run build` (or `node_modules/.bin/pnpm --filter
// @task-context/mcp run bench` at the root after a build). Prints a markdown table.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { compareAlternating, microseconds } from "@task-context/bench-kit";
import { memoryWorkspace } from "@task-context/core";
import { createTaskContextServer } from "@task-context/mcp";
import { serveFetch } from "../src/test-support/fetch-server.ts";
import { createBareServer } from "./bare-server.ts";

const paragraph =
  "We are building Lumen, a note-taking app for researchers. LUMEN on screenshots is the wordmark, never a hospital. Deep teal, warm white, Inter. ";
/** A realistic CONTEXT.md: 4 000 characters. */
const context = paragraph.repeat(Math.ceil(4_000 / paragraph.length)).slice(0, 4_000);
const directory = mkdtempSync(join(tmpdir(), "task-context-mcp-bench-"));
writeFileSync(join(directory, "CONTEXT.md"), context);
const bin = new URL("../dist/bin.js", import.meta.url).pathname;
const bare = new URL("./bare-server.ts", import.meta.url).pathname;

async function stdioClient(args: string[]) {
  const transport = new StdioClientTransport({ command: process.execPath, args });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

async function httpClient(url: URL) {
  const client = new Client(
    { name: "bench", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

/** The resident set of a process, in MiB (Linux). */
function residentMiB(pid: number | null): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  return kib / 1024;
}

const call = (client: Client) => () => client.callTool({ name: "get_task_context", arguments: {} });
const rows: string[] = [];
function row(name: string, result: { candidate: number; baseline: number }) {
  const ratio = result.candidate / result.baseline;
  rows.push(
    `| ${name} | ${microseconds(result.candidate)} | bare server: ${microseconds(result.baseline)} | ${ratio.toFixed(2)}× | ≤ 1.5× |`,
  );
}

// 1. Streamable HTTP (2026-07-28, one instance per request) on loopback sockets.
const workspace = memoryWorkspace({ "CONTEXT.md": context });
const ourHandler = createMcpHandler(() => createTaskContextServer({ workspace }));
const bareHandler = createMcpHandler(() => createBareServer(context.length));
const ourHttp = await serveFetch((request) => ourHandler.fetch(request));
const bareHttp = await serveFetch((request) => bareHandler.fetch(request));
const ourHttpClient = await httpClient(ourHttp.url);
const bareHttpClient = await httpClient(bareHttp.url);
row(
  "get_task_context over Streamable HTTP",
  await compareAlternating(
    { candidate: call(ourHttpClient), baseline: call(bareHttpClient) },
    { iterations: 100, rounds: 7 },
  ),
);

// 2. stdio: the built bin on a directory against the bare server script, each its own process.
// CONTEXT.md was written over two seconds ago by now (section 1 takes longer), so the server
// reuses its load of the unchanged file, as it does for any CONTEXT.md not just edited.
await sleep(2_100);
const ours = await stdioClient([bin, directory]);
const theirs = await stdioClient([bare, String(context.length)]);
row(
  "get_task_context over stdio",
  await compareAlternating(
    { candidate: call(ours.client), baseline: call(theirs.client) },
    { iterations: 200, rounds: 7 },
  ),
);

// 3. Memory of the stdio servers: at rest after one call, then after 10 000 more.
const fresh = await stdioClient([bin, directory]);
const freshBare = await stdioClient([bare, String(context.length)]);
await call(fresh.client)();
await call(freshBare.client)();
await sleep(1_000);
const atRest = [residentMiB(fresh.transport.pid), residentMiB(freshBare.transport.pid)];
/** Calls both servers `count` times, lets them settle, and returns their resident sets. */
async function afterMoreCalls(count: number) {
  for (let index = 0; index < count; index++) {
    await call(fresh.client)();
    await call(freshBare.client)();
  }
  await sleep(1_000);
  return [residentMiB(fresh.transport.pid), residentMiB(freshBare.transport.pid)];
}
const afterCalls = await afterMoreCalls(10_000);
// A leak keeps growing; a heap that sized itself to the load levels off.
const afterMany = await afterMoreCalls(30_000);

for (const client of [
  ours.client,
  theirs.client,
  ourHttpClient,
  bareHttpClient,
  fresh.client,
  freshBare.client,
]) {
  await client.close();
}
await Promise.all([ourHandler.close(), bareHandler.close(), ourHttp.close(), bareHttp.close()]);
rmSync(directory, { recursive: true, force: true });

console.log(
  `Node ${process.version}; CONTEXT.md of ${context.length} characters; the bare server's tool returns a constant string of the same size; medians of 7 alternating rounds.`,
);
console.log("");
console.log("| benchmark | result | baseline (same run) | ratio | target |");
console.log("| --- | --- | --- | --- | --- |");
for (const line of rows) console.log(line);
console.log("");
console.log("| stdio server memory (resident set) | task-context-mcp | bare server |");
console.log("| --- | --- | --- |");
console.log(
  `| at rest, after 1 call | ${atRest[0]?.toFixed(1)} MiB | ${atRest[1]?.toFixed(1)} MiB |`,
);
console.log(
  `| after 10 000 more calls | ${afterCalls[0]?.toFixed(1)} MiB | ${afterCalls[1]?.toFixed(1)} MiB |`,
);
console.log(
  `| after 40 000 more calls | ${afterMany[0]?.toFixed(1)} MiB | ${afterMany[1]?.toFixed(1)} MiB |`,
);
