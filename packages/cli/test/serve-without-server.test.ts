// The CLI as installed without its optional peer @task-context/server: the built binary in a
// folder whose node_modules holds every dependency of the CLI but the server. `serve` and
// `render --for remote-agent` say what to install; the other commands do not need it.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { temporaryFolder } from "./run-cli.ts";

const packageDirectory = dirname(dirname(fileURLToPath(import.meta.url)));
const run = promisify(execFile);

/** Runs the copied binary; never rejects: its exit code and output. */
async function cliWithoutServer(cli: string, args: string[], cwd: string) {
  return run(process.execPath, [cli, ...args], { cwd, encoding: "utf8" }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

/** A port on 127.0.0.1 that was free a moment ago and that nothing listens on now. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe("the CLI without @task-context/server installed", () => {
  const folder = temporaryFolder();
  const cli = join(folder.path, "cli", "dist", "cli.js");

  beforeAll(() => {
    const installed = join(folder.path, "cli");
    cpSync(join(packageDirectory, "dist"), join(installed, "dist"), { recursive: true });
    cpSync(join(packageDirectory, "package.json"), join(installed, "package.json"));
    const modules = join(packageDirectory, "node_modules");
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith(".")) continue;
      const names = entry.startsWith("@")
        ? readdirSync(join(modules, entry)).map((name) => `${entry}/${name}`)
        : [entry];
      for (const name of names) {
        if (name === "@task-context/server") continue;
        mkdirSync(dirname(join(installed, "node_modules", name)), { recursive: true });
        symlinkSync(join(modules, name), join(installed, "node_modules", name));
      }
    }
    writeFileSync(join(folder.path, "CONTEXT.md"), "# Task context\n\nLumen.\n");
    writeFileSync(join(folder.path, "run.json"), JSON.stringify({ goal: "Launch Lumen" }));
  });
  afterAll(() => folder.remove());

  it("serve says what to install, exit 1", async () => {
    expect(await cliWithoutServer(cli, ["serve", "--port", "0"], folder.path)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "task-context: serve runs the delivery service, @task-context/server, which is not installed\n" +
        "hint: install it beside the CLI: npm install @task-context/server (with npx: npx -p @task-context/cli -p @task-context/server task-context serve …)\n",
    });
  });

  it("render --for remote-agent says what to install, exit 1", async () => {
    const rendered = await cliWithoutServer(
      cli,
      ["render", "--for", "remote-agent", "--run", "run.json"],
      folder.path,
    );
    expect(rendered.code).toBe(1);
    expect(rendered.stderr.split("\n")[0]).toBe(
      "task-context: render --for remote-agent runs the delivery service, @task-context/server, which is not installed",
    );
  });

  it("the run commands reach the service with the client alone", async () => {
    // A port nothing listens on: the client's refusal, not a missing package.
    const url = `http://127.0.0.1:${await closedPort()}`;
    const created = await cliWithoutServer(
      cli,
      ["run", "create", "run.json", "--url", url, "--token", "t"],
      folder.path,
    );
    expect(created.code).toBe(1);
    expect(created.stderr.split("\n")[0]).toBe(
      `task-context: cannot reach the delivery service at ${url} (ECONNREFUSED)`,
    );
  });
});
