// The deployable app as a user copies it: wrangler bundles src/worker.ts from the installed
// @task-context/server (no aliases, no nodejs_compat), and `node src/node.ts` serves, prints its
// address and stops cleanly on SIGTERM.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const app = fileURLToPath(new URL("..", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "task-context-edge-app-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("apps/edge", () => {
  it("bundles for Workers with wrangler from the package's ./workers entry, no node:* module in it", () => {
    const outdir = join(folder, "bundle");
    const result = spawnSync(
      process.execPath,
      [
        join(app, "node_modules/wrangler/bin/wrangler.js"),
        "deploy",
        "--dry-run",
        `--outdir=${outdir}`,
      ],
      {
        cwd: app,
        env: { ...process.env, WRANGLER_SEND_METRICS: "false", NO_COLOR: "1", CI: "1" },
        encoding: "utf8",
      },
    );
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/env\.RUNS \(RunObject\)\s+Durable Object/);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/WARNING/);
    const bundle = readFileSync(join(outdir, "worker.js"), "utf8");
    expect(readdirSync(outdir)).toContain("worker.js");
    expect(bundle).toMatch(/RunObject = class extends DurableObject/);
    expect(bundle).not.toMatch(/from "node:/);
  });

  it("serves on Node: `node src/node.ts` prints its address, answers, and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, ["src/node.ts"], {
      cwd: app,
      env: {
        ...process.env,
        PORT: "0",
        TASK_CONTEXT_DB: join(folder, "edge.db"),
        TASK_CONTEXT_ADMIN_TOKEN: "edge-app-admin-token-0123456789",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address in: ${output}`)), 30_000);
      child.stdout.on("data", () => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (match?.[1] !== undefined) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
    });
    const health = await fetch(`${url}/healthz`);
    expect(await health.json()).toEqual({ status: "ok" });
    const created = await fetch(`${url}/v1/runs`, {
      method: "POST",
      headers: {
        Authorization: "Bearer edge-app-admin-token-0123456789",
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        goal: "g",
        constraints: [],
        stages: [{ id: "s", stage_description: "d", expected_output: "o", available_skills: [] }],
      }),
    });
    expect(created.status).toBe(201);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain("SIGTERM: stopping");
  });
});
