// scripts/prepack-guard.mjs, every published package's `prepack`: no tarball without its build.
import { spawnSync } from "node:child_process";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { temporaryFolder } from "../node/services.ts";

const guard = fileURLToPath(new URL("../../../../scripts/prepack-guard.mjs", import.meta.url));

function examplePackage(root: string): void {
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "index.ts"), "export const answer = 42;\n");
  writeFileSync(
    join(root, "package.json"),
    JSON.stringify({
      name: "@example/lamp",
      version: "1.0.0",
      type: "module",
      exports: {
        ".": {
          "@task-context/source": "./src/index.ts",
          types: "./dist/index.d.ts",
          default: "./dist/index.js",
        },
        "./package.json": "./package.json",
      },
      bin: { lamp: "./dist/main.js" },
      files: ["dist"],
      scripts: { prepack: `node ${guard}` },
    }),
  );
}

function build(root: string, at: Date): void {
  mkdirSync(join(root, "dist"), { recursive: true });
  for (const file of ["index.js", "index.d.ts", "main.js"]) {
    writeFileSync(join(root, "dist", file), "export {};\n");
    utimesSync(join(root, "dist", file), at, at);
  }
}

const run = (command: string, args: string[], cwd: string) =>
  spawnSync(command, args, { cwd, encoding: "utf8" });

describe("the prepack guard", () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it("refuses a package without its build, naming the missing files and the command", () => {
    examplePackage(folder.path);
    const result = run(process.execPath, [guard], folder.path);
    expect([result.status, result.stderr]).toEqual([
      1,
      "prepack: @example/lamp cannot be packed: dist/index.d.ts, dist/index.js, dist/main.js do not exist. Build it first: pnpm --filter @example/lamp run build (or pnpm run build in the repository's root).\n",
    ]);
  });

  it("refuses a build older than the source, and lets a fresh one through", () => {
    examplePackage(folder.path);
    const source = new Date(Date.UTC(2026, 10, 20, 10, 0, 0));
    utimesSync(join(folder.path, "src", "index.ts"), source, source);
    build(folder.path, new Date(source.getTime() - 60_000));
    const stale = run(process.execPath, [guard], folder.path);
    expect([stale.status, stale.stderr]).toEqual([
      1,
      "prepack: @example/lamp cannot be packed: src/ changed after its last build. Build it first: pnpm --filter @example/lamp run build (or pnpm run build in the repository's root).\n",
    ]);
    build(folder.path, new Date(source.getTime() + 60_000));
    expect(run(process.execPath, [guard], folder.path).status).toBe(0);
  });

  it("stops npm pack itself before it writes a tarball", () => {
    examplePackage(folder.path);
    const packed = run("npm", ["pack", "--dry-run", "--json"], folder.path);
    expect(packed.status).not.toBe(0);
    expect(packed.stderr).toContain("prepack: @example/lamp cannot be packed: dist/index.d.ts");
  });
});
