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

/**
 * The modules of a bundle that wrangler (esbuild, no code splitting) wrapped in a lazy
 * initializer — `var init_x = __esm({ "<path>"() { <the module's body> } })`, evaluated by the
 * first call `init_x()` — and whether each runs when the Worker starts. A module with a top-level
 * await (core's tracing on Workers, and every module that imports it) gets an `async`
 * initializer. Each call of an initializer is a dynamic import (`Promise.resolve().then(() =>
 * (init_x(), …))`, or `init_x().then(() => x_exports)` for an async one: lazy), or in the body
 * of another wrapped module (it runs when that one does), or in top-level code (it runs at
 * startup).
 */
function lazyInitializers(bundle: string) {
  const modules = [
    ...bundle.matchAll(/^var (init_[\w$]+) = __esm\(\{\n {2}(?:async )?"([^"]+)"\(\) \{$/gm),
  ].map((match) => ({
    init: match[1] as string,
    path: match[2] as string,
    start: match.index,
    end: bundle.indexOf("\n});\n", match.index),
  }));
  const evaluatedAtStartup = (init: string, seen = new Set<string>()): boolean => {
    seen.add(init);
    const call = new RegExp(`(?<![\\w$])${init.replace(/\$/g, "\\$")}\\(\\)`, "g");
    return [...bundle.matchAll(call)].some(({ index }) => {
      if (bundle.slice(index - 30, index).endsWith("Promise.resolve().then(() => (")) return false;
      if (/^[\w$]+\(\)\.then\(\(\) => [\w$]+_exports\)/.test(bundle.slice(index, index + 200)))
        return false;
      const caller = modules.find((module) => module.start < index && index < module.end);
      if (caller === undefined) return true;
      return !seen.has(caller.init) && evaluatedAtStartup(caller.init, seen);
    });
  };
  return { modules, evaluatedAtStartup };
}

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

    // /mcp loads the MCP SDK and the service's MCP modules on its first request: every module of
    // the SDK, and the chunk of @task-context/server that imports it, sits in a lazy initializer
    // that only a dynamic import() calls, so an isolate's startup does not evaluate them.
    const { modules, evaluatedAtStartup } = lazyInitializers(bundle);
    const sdk = modules.filter(({ path }) => path.includes("/@modelcontextprotocol/"));
    const sdkFiles = bundle.match(/^\/\/ \S*\/@modelcontextprotocol\/\S*$/gm) ?? [];
    expect(sdk.map(({ path }) => path)).toContainEqual(
      expect.stringMatching(/\/@modelcontextprotocol\/server\/dist\/index\.mjs$/),
    );
    expect(sdk.length).toBe(sdkFiles.length);
    const endpoint = modules.find(({ path }) => /\/dist\/mcp-endpoint-[\w-]+\.js$/.test(path));
    expect(endpoint).toBeDefined();
    expect(bundle).toMatch(
      new RegExp(
        `${endpoint?.init.replace(/\$/g, "\\$")}\\(\\)\\.then\\(\\(\\) => [\\w$]+_exports\\)`,
      ),
    );
    const lazy = [...sdk, ...(endpoint === undefined ? [] : [endpoint])];
    expect(lazy.filter(({ init }) => evaluatedAtStartup(init)).map(({ path }) => path)).toEqual([]);
    // The same check does find the modules that startup evaluates.
    expect(modules.some(({ init }) => evaluatedAtStartup(init))).toBe(true);
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
      // Bounds a hang, asserts no speed.
      const timer = setTimeout(() => reject(new Error(`no address in: ${output}`)), 100_000);
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
