import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { noSuchFolder } from "./context-md-refusals.ts";
import { runCli, temporaryFolder } from "./run-cli.ts";

const folder = temporaryFolder();
afterAll(folder.remove);
const cwd = folder.path;
// The root script that finds the machine's own Node (Node 20 here), as the runtime tests use it.
const systemNodeScript: string = new URL("../../../scripts/system-node.mjs", import.meta.url).href;
const { systemNode } = (await import(systemNodeScript)) as { systemNode: () => string };
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

describe("task-context", () => {
  it("prints its version with --version and -V", async () => {
    expect(await runCli(["--version"], { cwd })).toEqual({
      stdout: `${version}\n`,
      stderr: "",
      code: 0,
    });
    expect(await runCli(["-V"], { cwd })).toEqual({ stdout: `${version}\n`, stderr: "", code: 0 });
  });

  it("lists every command with examples in --help", async () => {
    const { stdout, stderr, code } = await runCli(["--help"], { cwd });
    expect({ stderr, code }).toEqual({ stderr: "", code: 0 });
    expect(stdout).toMatchInlineSnapshot(`
      "Usage: task-context [options] [command]

      Carry an agent's task context to every tool, subagent and remote agent it delegates to.

      Options:
        -V, --version                 print the version
        --debug                       print the stack trace of an error
        -h, --help                    show help for a command

      Commands:
        init [options] [dir]          write a CONTEXT.md from the template (never over one without
                                      --force), or the delivery service's project (--service)
        lint [options] [dir]          check CONTEXT.md: sections, size, template placeholders, secrets
                                      (exit 1 on an error)
        validate [options] <file...>  validate context blocks, Sage XML, limits files, work items and
                                      artifacts against the published schemas
        render [options] [dir]        print exactly what a recipient receives, with token counts and a
                                      truncation report (writes nothing)
        sage                          Sage subagent context files
        serve [options]               start the delivery service with embedded SQLite (Node ≥ 22.13), or
                                      on PostgreSQL
        run                           create a run, add agents, show its status, follow its events, cancel
                                      it on a running delivery service
        mcp [options] [dir]           serve the folder's task context to MCP clients over stdio (Claude
                                      Code, Codex, Cursor)
        eval [options] <spec>         measure per recipient whether the task context (or a view) helps,
                                      hurts or makes no difference
        doctor [options]              check that the task context reaches every recipient

      Examples:
        $ task-context init
        $ task-context lint
        $ task-context validate prompt.md .sage/context/T1.xml
        $ task-context render --for subagent --input task.json
        $ task-context serve --db :memory:
        $ task-context mcp .

      Docs: https://github.com/task-context/task-context/blob/main/docs/cli.md

      "
    `);
  });

  it("prints the help on stderr and exits 2 when no command is given", async () => {
    const { stdout, stderr, code } = await runCli([], { cwd });
    expect(stdout).toBe("");
    expect(stderr.startsWith("Usage: task-context [options] [command]\n")).toBe(true);
    expect(code).toBe(2);
  });

  it("answers an unknown command with one line, a hint and exit 2", async () => {
    expect(await runCli(["lnit"], { cwd })).toEqual({
      stdout: "",
      stderr:
        "task-context: unknown command 'lnit'\nhint: did you mean one of init, lint? run `task-context --help` to see the commands\n",
      code: 2,
    });
  });

  it("answers an unknown option with one line, the command's help as hint and exit 2", async () => {
    expect(await runCli(["validate", "--bogus", "x.json"], { cwd })).toEqual({
      stdout: "",
      stderr:
        "task-context: unknown option '--bogus'\nhint: run `task-context validate --help` to see the usage\n",
      code: 2,
    });
  });

  it("prints a stack trace only with --debug", async () => {
    const plain = await runCli(["lint", "missing"], { cwd });
    expect(plain.stderr).toBe(noSuchFolder("missing"));
    const debug = await runCli(["lint", "missing", "--debug"], { cwd });
    expect(debug.code).toBe(2);
    expect(debug.stderr.startsWith(plain.stderr)).toBe(true);
    expect(debug.stderr).toMatch(/\n\s+at .+\n/);
  });

  it("runs on the machine's Node (Node 20 here), not only the toolchain's", async () => {
    const node = systemNode();
    const result = await runCli(["validate", "-"], {
      cwd,
      node,
      stdin: "project:\n  path: /srv/app\n  stack: hono\nconventions:\n  summary: ESM only.\n",
    });
    expect(result).toEqual({ stdout: "<stdin>: valid context-block.v1\n", stderr: "", code: 0 });
  });
});

describe("colour", () => {
  const invalid = "version: 2\n";
  it("is off in a pipe, even with CI set", async () => {
    const { stdout } = await runCli(["validate", "-"], {
      cwd,
      stdin: invalid,
      env: { CI: "true" },
    });
    expect(stdout).not.toContain("\u001b[");
  });

  it("is on with FORCE_COLOR, and NO_COLOR wins over it", async () => {
    const forced = await runCli(["validate", "-"], {
      cwd,
      stdin: invalid,
      env: { FORCE_COLOR: "1" },
    });
    expect(forced.stdout).toContain("\u001b[31minvalid\u001b[39m");
    const none = await runCli(["validate", "-"], {
      cwd,
      stdin: invalid,
      env: { FORCE_COLOR: "1", NO_COLOR: "1" },
    });
    expect(none.stdout).not.toContain("\u001b[");
    expect(none.code).toBe(1);
  });
});
