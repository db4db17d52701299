import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, temporaryFolder } from "./run-cli.ts";

const folder = temporaryFolder();
afterAll(folder.remove);
const cwd = folder.path;
const write = (name: string, text: string) => writeFileSync(join(cwd, name), text);

write(
  "prompt.md",
  "<context>\nversion: 1\nproject:\n  path: /srv/app\n  stak: hono\nconventions: {}\n</context>\n\nAdd a health route.\n",
);
write(
  "good.yaml",
  "project:\n  path: /srv/app\n  stack: hono\nconventions:\n  summary: ESM only.\n",
);
write("context-limits.yaml", "defaults:\n  max_total: -1\n");
write("bad.xml", '<subagent-context version="2.0"/>\n');
write("unknown.json", '{\n  "hello": 1\n}\n');
write("broken.json", '{\n  "kind": "task",\n}\n');
write("notes.json", "not json {\n");
write("broken.yaml", "a: [1\n");
write(
  "output.json",
  '{\n  "status": "success",\n  "summary": "Done.",\n  "files-modified": "src/a.ts"\n}\n',
);

describe("task-context validate", () => {
  it("places every issue of a prompt's context block at file:line:column, exit 1", async () => {
    expect(await runCli(["validate", "prompt.md"], { cwd })).toEqual({
      stdout: `prompt.md:3:1: error project.stack is required: non-empty text, the stack identifier from project.json, e.g. nextjs-prisma. (/project/stack)
prompt.md:5:3: error Unknown field "stak" in project. Allowed: path, stack, commands. (/project/stak)
prompt.md:6:1: error conventions.summary is required: non-empty text, a 2-5 sentence summary of the key conventions (target 50-100 tokens, at most 200). (/conventions/summary)
prompt.md: invalid context-block.v1, 3 issues
`,
      stderr: "",
      code: 1,
    });
  });

  it("accepts bare YAML with the block's keys, exit 0", async () => {
    expect(await runCli(["validate", "good.yaml"], { cwd })).toEqual({
      stdout: "good.yaml: valid context-block.v1\n",
      stderr: "",
      code: 0,
    });
  });

  it("checks a limits file and a JSON document by their shape, with --json", async () => {
    const result = await runCli(["validate", "context-limits.yaml", "output.json", "--json"], {
      cwd,
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      files: [
        {
          file: "context-limits.yaml",
          schema: "context-limits.v1",
          valid: false,
          issues: [
            {
              path: "/defaults/max_total",
              message: "defaults.max_total must be more than 0, not the number -1.",
              line: 2,
              column: 3,
            },
          ],
        },
        {
          file: "output.json",
          schema: "subagent-output.v1",
          valid: false,
          issues: [
            {
              path: "/files-modified",
              message: 'files-modified must be an array, not the string "src/a.ts".',
              line: 4,
              column: 3,
            },
          ],
        },
      ],
    });
  });

  it("checks Sage XML with the parser's positions", async () => {
    const { stdout, code } = await runCli(["validate", "bad.xml"], { cwd });
    expect(code).toBe(1);
    expect(stdout.split("\n")[0]).toBe(
      'bad.xml:1:34: error version must be "1.0", not the string "2.0". (/version)',
    );
    expect(stdout.endsWith("bad.xml: invalid subagent-context.v1, 6 issues\n")).toBe(true);
  });

  it("reports JSON syntax errors with their position", async () => {
    expect(await runCli(["validate", "broken.json", "--schema", "work-item"], { cwd })).toEqual({
      stdout:
        "broken.json:3:1: error JSON syntax error: property name expected.\nbroken.json: invalid, could not be parsed as JSON\n",
      stderr: "",
      code: 1,
    });
  });

  it("names the file and the parse error of a file that is not JSON (or YAML), exit 1", async () => {
    expect(await runCli(["validate", "notes.json", "broken.yaml"], { cwd })).toEqual({
      stdout:
        "notes.json:1:1: error JSON syntax error: invalid symbol.\nnotes.json: invalid, could not be parsed as JSON\nbroken.yaml:2:1: error YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]\nbroken.yaml: invalid, could not be parsed as YAML\n",
      stderr: "",
      code: 1,
    });
    const json = await runCli(["validate", "notes.json", "--json"], { cwd });
    expect(JSON.parse(json.stdout)).toEqual({
      files: [
        {
          file: "notes.json",
          schema: null,
          valid: false,
          issues: [{ path: "", line: 1, column: 1, message: "JSON syntax error: invalid symbol." }],
          unparsable: "JSON",
        },
      ],
    });
  });

  it("says which --schema to pass when it cannot tell, exit 1", async () => {
    expect(await runCli(["validate", "unknown.json"], { cwd })).toEqual({
      stdout: "",
      stderr:
        "task-context: cannot tell which schema unknown.json follows: it has the required keys of no published schema\nhint: pass --schema with one of: context-block, subagent-context, context-limits, subagent-output, work-item, stage-context, review-context, artifact, artifact-reference, review-feedback, collaboration-event\n",
      code: 1,
    });
  });

  it("gives each file its verdict and exits with the worst: 2 for a file it cannot read", async () => {
    expect(
      await runCli(["validate", "good.yaml", "missing.json", "prompt.md"], { cwd }),
    ).toMatchObject({
      stderr:
        "task-context: cannot read missing.json: no such file\nhint: check the path, or pass - to read from stdin\n",
      code: 2,
    });
  });

  it("reads stdin with - and shows it as <stdin>", async () => {
    expect(
      await runCli(["validate", "-", "--schema", "context-block.v1"], {
        cwd,
        stdin: "version: 1\n",
      }),
    ).toEqual({
      stdout:
        "<stdin>:1:1: error project is required: a mapping with path, stack and, optionally, commands. (/project)\n<stdin>:1:1: error conventions is required: a mapping with summary and, optionally, fullPath. (/conventions)\n<stdin>: invalid context-block.v1, 2 issues\n",
      stderr: "",
      code: 1,
    });
  });

  it("refuses an unknown --schema with the choices, exit 2", async () => {
    expect(await runCli(["validate", "good.yaml", "--schema", "nope"], { cwd })).toEqual({
      stdout: "",
      stderr:
        'task-context: unknown schema "nope"\nhint: pass --schema with one of: context-block, subagent-context, context-limits, subagent-output, work-item, stage-context, review-context, artifact, artifact-reference, review-feedback, collaboration-event\n',
      code: 2,
    });
  });

  it("needs at least one file, exit 2", async () => {
    expect(await runCli(["validate"], { cwd })).toEqual({
      stdout: "",
      stderr:
        "task-context: missing required argument 'file'\nhint: run `task-context validate --help` to see the usage\n",
      code: 2,
    });
  });

  it("has --help with detection rules, exit codes and examples", async () => {
    const { stdout, code } = await runCli(["validate", "--help"], { cwd });
    expect(code).toBe(0);
    expect(stdout).toMatchInlineSnapshot(`
      "Usage: task-context validate [options] <file...>

      validate context blocks, Sage XML, limits files, work items and artifacts against the published
      schemas

      Arguments:
        file             files to check; - reads stdin

      Options:
        --schema <name>  the schema, when not detected: context-block, subagent-context, context-limits,
                         subagent-output, work-item, stage-context, review-context, artifact,
                         artifact-reference, review-feedback, collaboration-event
        --json           print { files: [{ file, schema, valid, issues }] } as JSON
        -h, --help       display help for command

      Detection: a .xml file or one starting with <subagent-context> is Sage XML; a prompt with a
      <context> block, or YAML with its keys (project, conventions), is a context block; YAML named
      context-limits.yaml or with defaults/overrides is a limits file; JSON is the schema whose
      required keys it has.

      Exit codes: 0 every file valid, 1 a file invalid, 2 a file could not be read.

      Examples:
        $ task-context validate prompt.md
        $ task-context validate .sage/context/*.xml .sage/config/context-limits.yaml
        $ task-context validate item.json --schema work-item --json
        $ pbpaste | task-context validate -

      "
    `);
  });
});
