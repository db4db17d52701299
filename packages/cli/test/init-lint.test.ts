import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CONTEXT_MD_TEMPLATE } from "@task-context/protocols/context-md";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NO_CONTEXT_MD, noSuchFolder } from "./context-md-refusals.ts";
import { runCli, temporaryFolder } from "./run-cli.ts";

let folder: ReturnType<typeof temporaryFolder>;
beforeEach(() => {
  folder = temporaryFolder();
});
afterEach(() => folder.remove());

const GOOD = `# Task context

## What we are building
The launch page of Lumen, a note-taking app for teams.

## Key terminology
- Lumen: the product (never "Lumen App").
`;

describe("task-context init", () => {
  it("writes the template to CONTEXT.md", async () => {
    expect(await runCli(["init"], { cwd: folder.path })).toEqual({
      stdout: "Wrote CONTEXT.md. Fill in its sections, then check it with `task-context lint`.\n",
      stderr: "",
      code: 0,
    });
    expect(readFileSync(join(folder.path, "CONTEXT.md"), "utf8")).toBe(CONTEXT_MD_TEMPLATE);
  });

  it("creates the folder it is given", async () => {
    const result = await runCli(["init", "agents/launch"], { cwd: folder.path });
    expect(result.stdout).toBe(
      "Wrote agents/launch/CONTEXT.md. Fill in its sections, then check it with `task-context lint agents/launch`.\n",
    );
    expect(readFileSync(join(folder.path, "agents/launch/CONTEXT.md"), "utf8")).toBe(
      CONTEXT_MD_TEMPLATE,
    );
  });

  it("never overwrites an existing CONTEXT.md without --force", async () => {
    writeFileSync(join(folder.path, "CONTEXT.md"), GOOD);
    expect(await runCli(["init"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr:
        "task-context: CONTEXT.md already exists\nhint: edit it, or pass --force to replace it with the template\n",
      code: 1,
    });
    expect(readFileSync(join(folder.path, "CONTEXT.md"), "utf8")).toBe(GOOD);
    const forced = await runCli(["init", "--force"], { cwd: folder.path });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(folder.path, "CONTEXT.md"), "utf8")).toBe(CONTEXT_MD_TEMPLATE);
  });

  it("--force replaces a symbolic link without writing through it, and refuses a folder in the way", async () => {
    mkdirSync(join(folder.path, "linked"));
    writeFileSync(join(folder.path, "outside.md"), GOOD);
    symlinkSync(join(folder.path, "outside.md"), join(folder.path, "linked/CONTEXT.md"));
    expect((await runCli(["init", "linked", "--force"], { cwd: folder.path })).code).toBe(0);
    expect(lstatSync(join(folder.path, "linked/CONTEXT.md")).isFile()).toBe(true);
    expect(readFileSync(join(folder.path, "outside.md"), "utf8")).toBe(GOOD);
    mkdirSync(join(folder.path, "blocked/CONTEXT.md"), { recursive: true });
    expect(await runCli(["init", "blocked", "--force"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr:
        "task-context: cannot write blocked/CONTEXT.md: it is a directory\nhint: move it out of the way, then run `task-context init` again\n",
      code: 1,
    });
  });

  it("has --help with examples", async () => {
    const { stdout, code } = await runCli(["init", "--help"], { cwd: folder.path });
    expect(code).toBe(0);
    expect(stdout).toMatchInlineSnapshot(`
      "Usage: task-context init [options] [dir]

      write a CONTEXT.md from the template (never over one without --force), or the delivery service's
      project (--service)

      Arguments:
        dir                  the workspace folder, or the project's (default: the current folder)

      Options:
        -f, --force          overwrite an existing CONTEXT.md
        --service <runtime>  write the delivery service's project instead, never over a file (choices:
                             "workers", "node")
        -h, --help           display help for command

      Examples:
        $ task-context init
        $ task-context init agents/launch
        $ task-context init --force
        $ task-context init --service workers my-service
        $ task-context init --service node my-service

      "
    `);
  });
});

describe("task-context lint", () => {
  it("passes a complete CONTEXT.md with exit 0", async () => {
    writeFileSync(join(folder.path, "CONTEXT.md"), GOOD);
    expect(await runCli(["lint"], { cwd: folder.path })).toEqual({
      stdout:
        'CONTEXT.md: info No "Visual and brand guidelines" section; add "## Visual and brand guidelines" if it is relevant to this task. (missing-section)\nCONTEXT.md: info No "Other details" section; add "## Other details" if it is relevant to this task. (missing-section)\nCONTEXT.md: 0 errors, 0 warnings, 2 info\n',
      stderr: "",
      code: 0,
    });
  });

  it("reports the template's placeholders as warnings with their lines, exit 0", async () => {
    await runCli(["init"], { cwd: folder.path });
    const { stdout, code } = await runCli(["lint"], { cwd: folder.path });
    expect(code).toBe(0);
    expect(stdout).toMatchInlineSnapshot(`
      "CONTEXT.md:4:1: warning A template placeholder is still here: replace it with the task's own details or delete the line. (placeholder)
      CONTEXT.md:7:1: warning A template placeholder is still here: replace it with the task's own details or delete the line. (placeholder)
      CONTEXT.md:10:1: warning A template placeholder is still here: replace it with the task's own details or delete the line. (placeholder)
      CONTEXT.md:13:1: warning A template placeholder is still here: replace it with the task's own details or delete the line. (placeholder)
      CONTEXT.md: 0 errors, 4 warnings, 0 info
      "
    `);
  });

  it("fails with exit 1 on a secret, and on a file over the limit", async () => {
    writeFileSync(join(folder.path, "CONTEXT.md"), `${GOOD}\napi_key = "abcdefghijklmnop1234"\n`);
    const secret = await runCli(["lint"], { cwd: folder.path });
    expect(secret.code).toBe(1);
    expect(secret.stdout).toContain(
      "CONTEXT.md:9:1: error This looks like a credential (abcd…34). CONTEXT.md is sent to every tool and subagent: remove it and pass credentials another way. (secret)\n",
    );
    const over = await runCli(["lint", "--max-chars", "50"], { cwd: folder.path });
    expect(over.code).toBe(1);
    expect(over.stdout).toContain("only 50 are delivered");
  });

  it("reads CONTEXT.md from stdin with -", async () => {
    const result = await runCli(["lint", "-", "--json"], { cwd: folder.path, stdin: "" });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      file: "<stdin>",
      ok: false,
      issues: [
        {
          rule: "empty",
          severity: "error",
          message:
            "CONTEXT.md is empty: write what we are building, key terminology and other details (see the template).",
        },
      ],
    });
  });

  it("exits 2 with the guiding message and a hint when there is no CONTEXT.md", async () => {
    expect(await runCli(["lint"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr: NO_CONTEXT_MD,
      code: 2,
    });
  });

  it("says that a folder does not exist, or is a file, rather than that it has no CONTEXT.md, exit 2", async () => {
    expect(await runCli(["lint", "nowhere"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr: noSuchFolder("nowhere"),
      code: 2,
    });
    writeFileSync(join(folder.path, "CONTEXT.md"), GOOD);
    expect(await runCli(["lint", "CONTEXT.md"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr:
        "task-context: CONTEXT.md is not a folder\nhint: give the workspace folder that holds CONTEXT.md (`task-context init` writes one)\n",
      code: 2,
    });
  });

  it("counts characters as render and the loader do: UTF-16 units, without a BOM and surrounding whitespace", async () => {
    // 500 characters delivered, in a file of 505 (a BOM, a leading and three trailing line feeds),
    // with a character outside the BMP that counts 2 UTF-16 units.
    const sections = `${GOOD.trim()}\n- Mark: 🔆\n\n## Visual and brand guidelines\nTeal.\n\n## Other details\n`;
    const text = `${sections}${"x".repeat(500 - sections.length)}`;
    expect(text.length).toBe(500);
    writeFileSync(join(folder.path, "CONTEXT.md"), `\uFEFF\n${text}\n\n\n`);
    expect(await runCli(["lint", "--max-chars", "500"], { cwd: folder.path })).toEqual({
      stdout: "CONTEXT.md: no problems (500 characters)\n",
      stderr: "",
      code: 0,
    });
    const rendered = await runCli(["render", "--for", "image-tool", "--max-chars", "500"], {
      cwd: folder.path,
    });
    expect(rendered.stdout).toContain("-- CONTEXT.md: 500 characters, delivered 500, limit 500;");
    expect(rendered.stdout).toContain("-- not truncated\n");
    const over = await runCli(["lint", "--max-chars", "499"], { cwd: folder.path });
    expect([over.stdout, over.code]).toEqual([
      "CONTEXT.md: error CONTEXT.md has 500 characters; only 499 are delivered, so the rest would be cut. Shorten it by 1 characters. (over-limit)\nCONTEXT.md: 1 error, 0 warnings, 0 info\n",
      1,
    ]);
    const renderedOver = await runCli(["render", "--for", "image-tool", "--max-chars", "499"], {
      cwd: folder.path,
    });
    expect(renderedOver.stdout).toContain(
      "-- CONTEXT.md: 500 characters, delivered 499, limit 499;",
    );
  });

  it("refuses a --max-chars that is not a whole number, exit 2", async () => {
    expect(await runCli(["lint", "--max-chars", "ten"], { cwd: folder.path })).toEqual({
      stdout: "",
      stderr:
        "task-context: option '--max-chars <n>' argument 'ten' is invalid. expected a whole number of at least 1\nhint: run `task-context lint --help` to see the usage\n",
      code: 2,
    });
  });

  it("has --help with examples", async () => {
    const { stdout, code } = await runCli(["lint", "--help"], { cwd: folder.path });
    expect(code).toBe(0);
    expect(stdout).toMatchInlineSnapshot(`
      "Usage: task-context lint [options] [dir]

      check CONTEXT.md: sections, size, template placeholders, secrets (exit 1 on an error)

      Arguments:
        dir              the workspace folder, or - to read CONTEXT.md from stdin

      Options:
        --max-chars <n>  the delivery limit in characters (default 10000)
        --json           print the result as JSON
        -h, --help       display help for command

      Examples:
        $ task-context lint
        $ task-context lint agents/launch --json
        $ cat CONTEXT.md | task-context lint -

      "
    `);
  });
});
