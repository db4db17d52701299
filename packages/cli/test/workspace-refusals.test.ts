import { spawnSync } from "node:child_process";
import { linkSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { CONTEXT_LIMITS_PATH } from "@task-context/protocols/sage";
import { afterAll, describe, expect, it } from "vitest";
import { NOT_A_PLAIN_CONTEXT_MD } from "./context-md-refusals.ts";
import { CLI, HANG_GUARD_MS, runCli, SLOW_TEST_MS, temporaryFolder } from "./run-cli.ts";

const folder = temporaryFolder();
const cwd = folder.path;
afterAll(folder.remove);

const CONTEXT = "# Task context\n\n## What we are building\nLumen.\n";
writeFileSync(join(cwd, "outside.md"), CONTEXT);
writeFileSync(join(cwd, "task.json"), JSON.stringify({ description: "Write the hero copy" }));

/** A workspace folder `name` whose CONTEXT.md is made by `make(path)`. */
function workspace(name: string, make: (path: string) => void): string {
  mkdirSync(join(cwd, name));
  make(join(cwd, name, "CONTEXT.md"));
  return name;
}

const fifo = workspace("fifo", (path) => spawnSync("mkfifo", [path]));
const zero = workspace("zero", (path) => symlinkSync("/dev/zero", path));
const linkOut = workspace("link-out", (path) => symlinkSync(join(cwd, "outside.md"), path));

/** Every command that reads a workspace's CONTEXT.md, on folder `dir`. */
const contextReaders = (dir: string): string[][] => [
  ["lint", dir],
  ["render", "--for", "image-tool", dir],
  ["render", "--for", "subagent", "--input", "task.json", dir],
];

describe("a workspace's CONTEXT.md", () => {
  it("is refused, never read, when it is a FIFO or a symbolic link (to /dev/zero, to a file outside), exit 2", {
    timeout: SLOW_TEST_MS,
  }, async () => {
    for (const dir of [fifo, zero, linkOut]) {
      for (const args of contextReaders(dir)) {
        expect({ args, run: await runCli(args, { cwd, guardMs: HANG_GUARD_MS }) }).toEqual({
          args,
          run: { stdout: "", stderr: NOT_A_PLAIN_CONTEXT_MD, code: 2 },
        });
      }
    }
  });

  it("is refused when it is a hard link: it may be a file outside the folder, exit 2", async () => {
    const dir = workspace("hard-link", (path) => linkSync(join(cwd, "outside.md"), path));
    expect(await runCli(["lint", dir], { cwd, guardMs: HANG_GUARD_MS })).toEqual({
      stdout: "",
      stderr:
        'task-context: Refused "CONTEXT.md": it is a hard link (the file has more than one name), so it may be a file outside the workspace under another name. Copy the file into the workspace instead, or open the workspace with `allowHardLinks: true` if you trust every name the file has\nhint: keep the folder\'s files as plain files inside it, not links to files elsewhere (copy them in)\n',
      code: 2,
    });
  });

  it("is refused by lint past the 16 MiB input limit, after reading at most the limit, exit 2", async () => {
    const dir = workspace("huge", (path) => {
      writeFileSync(path, CONTEXT);
      truncateSync(path, 16 * 1024 * 1024 + 1);
    });
    expect(await runCli(["lint", dir], { cwd, guardMs: HANG_GUARD_MS })).toEqual({
      stdout: "",
      stderr: `task-context: huge/CONTEXT.md is over the 16 MiB input limit: it has ${16 * 1024 * 1024 + 1} bytes, at most ${16 * 1024 * 1024} are read\nhint: pass the file you meant: context files, Sage XML, work items and run bodies are kilobytes\n`,
      code: 2,
    });
  });

  it("gets from lint the refusal the MCP server gives on the same folder", async () => {
    const client = new Client({ name: "task-context-cli-tests", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", linkOut], cwd }),
    );
    let served: string;
    try {
      const result = await client.callTool({ name: "lint_context_md", arguments: {} });
      expect(result.isError).toBe(true);
      expect((result.content as Array<{ text: string }>)[0]?.text).toMatch(
        /^TASK_CONTEXT_MISSING: /,
      );
      served = (result._meta as { "task-context/error": { error: string } })["task-context/error"]
        .error;
    } finally {
      await client.close();
    }
    const linted = await runCli(["lint", linkOut], { cwd, guardMs: HANG_GUARD_MS });
    // The CLI prints a message on one line: each line break becomes ". ", the final stop goes.
    const oneLine = served.replace(/\.?\s*\n\s*/g, ". ").replace(/\.$/, "");
    expect(linted.stderr.split("\n")[0]).toBe(`task-context: ${oneLine}`);
  });
});

describe("a workspace's Sage limits file", () => {
  it("is refused by sage generate and render when it is a FIFO, never read, exit 2", async () => {
    const dir = workspace("limits-fifo", (path) => writeFileSync(path, CONTEXT));
    mkdirSync(join(cwd, dir, ".sage/config"), { recursive: true });
    spawnSync("mkfifo", [join(cwd, dir, CONTEXT_LIMITS_PATH)]);
    const refused = {
      stdout: "",
      stderr: `task-context: Refused "${CONTEXT_LIMITS_PATH}": it is a fifo, not a regular file. Workspaces read and write regular files only and do not follow symbolic links\nhint: make it a plain file inside the folder: workspace files are never symbolic links, FIFOs or devices\n`,
      code: 2,
    };
    for (const args of [
      ["sage", "generate", "--task", "T1", "--type", "implement", "--input", "task.json", dir],
      ["render", "--for", "subagent", "--input", "task.json", dir],
    ]) {
      expect({ args, run: await runCli(args, { cwd, guardMs: HANG_GUARD_MS }) }).toEqual({
        args,
        run: refused,
      });
    }
  });
});
