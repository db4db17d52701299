// `task-context init --service workers|node`: the delivery service's project as a user deploys it.
// Its files are kept once, in templates/; apps/edge holds the same Worker, wrangler.jsonc and Node
// entry, and this test fails when the two differ. scripts/check-install.mjs installs the packed
// packages into the projects it writes, bundles the Worker with wrangler and starts the Node one.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli, temporaryFolder } from "./run-cli.ts";

const repository = new URL("../../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, repository), "utf8");
const manifest = (path: string) => JSON.parse(read(path));
const server = manifest("packages/server/package.json");
const edge = manifest("apps/edge/package.json");
const core = manifest("packages/core/package.json");
const template = (runtime: string, path: string) =>
  read(`packages/cli/templates/service-${runtime}/${path}`);

let folder: ReturnType<typeof temporaryFolder>;
beforeEach(() => {
  folder = temporaryFolder();
});
afterEach(() => folder.remove());

/** Every file under `directory`, relative to it, sorted. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)))
    .sort();
}

describe("task-context init --service workers", () => {
  it("writes the Worker's project, says what it wrote and what to run next", async () => {
    expect(
      await runCli(["init", "--service", "workers", "my-service"], { cwd: folder.path }),
    ).toEqual({
      stdout: `Wrote a Cloudflare Workers project for the delivery service:
  my-service/package.json
  my-service/src/worker.ts
  my-service/wrangler.jsonc
  my-service/README.md
Next (my-service/README.md says more):
  cd my-service
  npm install
  npx wrangler dev --var TASK_CONTEXT_ADMIN_TOKEN:change-me   # locally, no account needed
  npx wrangler deploy                                         # to your Cloudflare account
  npx wrangler secret put TASK_CONTEXT_ADMIN_TOKEN            # the deployed service's admin token
`,
      stderr: "",
      code: 0,
    });
    const project = join(folder.path, "my-service");
    expect(filesUnder(project)).toEqual([
      "README.md",
      "package.json",
      "src/worker.ts",
      "wrangler.jsonc",
    ]);
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8"))).toEqual({
      name: "task-context-service",
      private: true,
      type: "module",
      description:
        "The task-context delivery service on Cloudflare Workers: a Durable Object per run.",
      scripts: { dev: "wrangler dev", deploy: "wrangler deploy" },
      dependencies: {
        "@task-context/server": `^${server.version}`,
        hono: "^4.13.19",
        zod: "^4.6.7",
      },
      devDependencies: { "gpt-tokenizer": "^4.0.0", wrangler: "4.164.0" },
    });
    expect(readFileSync(join(project, "src/worker.ts"), "utf8")).toBe(
      '// The delivery service on Cloudflare Workers: the router Worker and the Durable Object class that\n// holds each run (wrangler.jsonc binds RUNS to it), and the runs directory (RUN_DIRECTORY).\nexport { default, RunDirectory, RunObject } from "@task-context/server/workers";\n',
    );
    expect(readFileSync(join(project, "README.md"), "utf8")).toBe(template("workers", "README.md"));
  });

  it("is apps/edge: the same src/worker.ts and wrangler.jsonc, byte for byte", async () => {
    await runCli(["init", "--service", "workers"], { cwd: folder.path });
    for (const [written, edgeFile] of [
      ["src/worker.ts", "apps/edge/src/worker.ts"],
      ["wrangler.jsonc", "apps/edge/wrangler.jsonc"],
    ] as const) {
      expect(
        readFileSync(join(folder.path, written), "utf8"),
        `${edgeFile} and packages/cli/templates/service-workers/${written} are one file: change both`,
      ).toBe(read(edgeFile));
    }
  });

  it("writes nothing when any of its files is there, a dangling symbolic link included", async () => {
    mkdirSync(join(folder.path, "taken"));
    writeFileSync(join(folder.path, "taken/README.md"), "mine\n");
    symlinkSync(join(folder.path, "nowhere"), join(folder.path, "taken/wrangler.jsonc"));
    expect(await runCli(["init", "--service", "workers", "taken"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr:
        "task-context: taken/wrangler.jsonc, taken/README.md already exist\nhint: nothing was written: run `task-context init --service workers <new folder>`, or move them out of the way\n",
      code: 1,
    });
    expect(filesUnder(join(folder.path, "taken"))).toEqual(["README.md", "wrangler.jsonc"]);
    expect(readFileSync(join(folder.path, "taken/README.md"), "utf8")).toBe("mine\n");
  });

  it("removes what it wrote when a later file cannot be written", async () => {
    mkdirSync(join(folder.path, "blocked"));
    writeFileSync(join(folder.path, "blocked/src"), "a file where the folder goes\n");
    expect(await runCli(["init", "--service", "workers", "blocked"], { cwd: folder.path })).toEqual(
      {
        stdout: "",
        stderr:
          "task-context: cannot write blocked/src/worker.ts: blocked/src is not a folder\nhint: nothing was written: move what is in the way, or check that the folder is writable\n",
        code: 1,
      },
    );
    expect(filesUnder(join(folder.path, "blocked"))).toEqual(["src"]);
  });
});

describe("task-context init --service node", () => {
  it("writes the Node project into the current folder, and what to run next", async () => {
    expect(await runCli(["init", "--service", "node"], { cwd: folder.path })).toEqual({
      stdout: `Wrote a Node project for the delivery service:
  package.json
  src/server.ts
  README.md
Next (README.md says more):
  npm install
  TASK_CONTEXT_ADMIN_TOKEN=change-me npm start   # Node ≥ 22.18, on http://127.0.0.1:8787
`,
      stderr: "",
      code: 0,
    });
    expect(filesUnder(folder.path)).toEqual(["README.md", "package.json", "src/server.ts"]);
    expect(JSON.parse(readFileSync(join(folder.path, "package.json"), "utf8"))).toEqual({
      name: "task-context-service",
      private: true,
      type: "module",
      description: "The task-context delivery service on Node, with embedded SQLite.",
      engines: { node: ">=22.18" },
      scripts: { start: "node src/server.ts" },
      dependencies: {
        "@task-context/server": `^${server.version}`,
        hono: "^4.13.19",
        zod: "^4.6.7",
      },
    });
    expect(
      readFileSync(join(folder.path, "src/server.ts"), "utf8"),
      "apps/edge/src/node.ts and packages/cli/templates/service-node/src/server.ts are one file: change both",
    ).toBe(read("apps/edge/src/node.ts"));
    expect(read("apps/edge/src/node.ts")).toContain("await runFromEnv(process.env);\n");
  });

  it("refuses --force (exit 2), and a runtime it does not know", async () => {
    expect(await runCli(["init", "--service", "node", "--force"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr:
        "task-context: --force replaces CONTEXT.md only: the service's project is never written over a file\nhint: leave out --force, and write the project into a new folder\n",
      code: 2,
    });
    expect(await runCli(["init", "--service", "deno"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr:
        "task-context: option '--service <runtime>' argument 'deno' is invalid. Allowed choices are workers, node\nhint: run `task-context init --help` to see the usage\n",
      code: 2,
    });
    expect(filesUnder(folder.path)).toEqual([]);
  });
});

describe("the service templates", () => {
  it("ask for the versions this repository builds and tests with", () => {
    for (const runtime of ["workers", "node"]) {
      const { dependencies, devDependencies } = JSON.parse(template(runtime, "package.json"));
      // Written as within the repository; the CLI writes ^<version> of the installed package.
      expect(dependencies["@task-context/server"]).toBe("workspace:^");
      // The package's peer ranges, which apps/edge pins.
      expect(dependencies.hono).toBe(server.peerDependencies.hono);
      expect(dependencies.zod).toBe(server.peerDependencies.zod);
      expect(dependencies.hono).toBe(`^${edge.dependencies.hono}`);
      expect(dependencies.zod).toBe(`^${edge.dependencies.zod}`);
      if (runtime === "workers") {
        // The wrangler apps/edge and the package's own tests bundle and run the Worker with.
        expect(devDependencies.wrangler).toBe(edge.devDependencies.wrangler);
        expect(devDependencies.wrangler).toBe(server.devDependencies.wrangler);
        // wrangler resolves core's optional import of the exact tokenizer, unused as it is.
        expect(devDependencies["gpt-tokenizer"]).toBe(core.peerDependencies["gpt-tokenizer"]);
      }
    }
  });

  it("have READMEs that give the commands init prints", async () => {
    for (const runtime of ["workers", "node"]) {
      const { stdout } = await runCli(["init", "--service", runtime], { cwd: folder.path });
      const readme = template(runtime, "README.md");
      const commands = stdout
        .split("Next")[1]
        ?.split("\n")
        .slice(1)
        .map((line) => line.replace(/#.*$/, "").trim())
        .filter((line) => line !== "");
      expect(commands?.length).toBeGreaterThan(1);
      for (const command of commands ?? []) expect(readme, runtime).toContain(command);
      expect(existsSync(join(folder.path, "README.md"))).toBe(true);
      folder.remove();
      folder = temporaryFolder();
    }
  });
});
