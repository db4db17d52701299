import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadTaskContext } from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { runContextSha256 } from "@task-context/protocols";
import { afterAll, describe, expect, it } from "vitest";
import { NO_CONTEXT_MD, noSuchFolder } from "./context-md-refusals.ts";
import { runCli, temporaryFolder } from "./run-cli.ts";

const folder = temporaryFolder();
afterAll(folder.remove);
const cwd = folder.path;
const write = (name: string, text: string) => {
  mkdirSync(join(cwd, name, ".."), { recursive: true });
  writeFileSync(join(cwd, name), text);
};

const CONTEXT = "# Task context\n\n## What we are building\nThe launch of Lumen, a notes app.\n";
write("CONTEXT.md", CONTEXT);
write("big/CONTEXT.md", `# Big\n${"x".repeat(12_000)}\n`);
write(
  "task.json",
  JSON.stringify({ description: "Add a health route", filesToModify: ["src/app.ts"] }),
);
write("bad-task.json", JSON.stringify({ descr: "typo" }));
write(
  "context.yaml",
  "project:\n  path: /srv/lumen\n  stack: hono\nconventions:\n  summary: ESM only.\n",
);
write(
  "run.json",
  JSON.stringify({
    goal: "Launch Lumen",
    constraints: ["Say Lumen"],
    stages: [
      {
        id: "draft",
        stage_description: "Write",
        expected_output: "Markdown",
        available_skills: ["write"],
      },
      {
        id: "review",
        kind: "review",
        reviews: "draft",
        review_criteria: ["clarity"],
        stage_description: "Review",
        expected_output: "Feedback",
        available_skills: [],
      },
    ],
  }),
);

/** The sha256 of the CONTEXT.md these tests write, spelled out. */
const CONTEXT_SHA256 = "a386ef2520b9a62c50b4eebc879b613767d1215509e968c84b1e92b14d8280a4";

describe("task-context render", () => {
  it("shows the image tool's injected prompt with its tokens and the truncation report", async () => {
    expect(
      await runCli(["render", "--for", "image-tool", "--prompt", "A poster."], { cwd }),
    ).toEqual({
      stdout: `== prompt sent to the image model (30 tokens) ==
[Task Context]
# Task context

## What we are building
The launch of Lumen, a notes app.

[Request]
A poster.
-- CONTEXT.md: 73 characters, delivered 73, limit 10000; sha256 a386ef2520b9a62c50b4eebc879b613767d1215509e968c84b1e92b14d8280a4
-- not truncated

receipt: sha256 a386ef2520b9a62c50b4eebc879b613767d1215509e968c84b1e92b14d8280a4, CONTEXT.md's as delivered: the tool result's contextSha256
`,
      stderr: "",
      code: 0,
    });
  });

  it("reports a truncated CONTEXT.md with both lengths and the warning", async () => {
    const { stdout, code } = await runCli(["render", "--for", "image-tool", "big"], { cwd });
    expect(code).toBe(0);
    expect(stdout).toContain(
      "-- CONTEXT.md: 12006 characters, delivered 10000, limit 10000; sha256 ",
    );
    expect(stdout).toContain(
      "-- truncated: CONTEXT.md was truncated from 12006 to 10000 characters (limit 10000). Consider shortening it.\n",
    );
  });

  it("shows a subagent's CONTEXT.md, Sage XML, prompt with its context block, and instructions; writes nothing", async () => {
    const { stdout, stderr, code } = await runCli(
      [
        "render",
        "--for",
        "subagent",
        "--input",
        "task.json",
        "--project",
        "context.yaml",
        "--task",
        "T1",
      ],
      { cwd },
    );
    expect({ stderr, code }).toEqual({ stderr: "", code: 0 });
    const headings = stdout.split("\n").filter((line) => line.startsWith("== "));
    expect(headings.map((line) => line.replace(/\(\d+ tokens\)/, "(N tokens)"))).toEqual([
      "== CONTEXT.md (CONTEXT.md, copied read-only) (N tokens) ==",
      "== Sage context .sage/context/T1.xml (N tokens) ==",
      "== prompt (N tokens) ==",
      "== system prompt: receiver instructions (N tokens) ==",
    ]);
    expect(stdout).toContain("    <type>implement</type>\n");
    expect(stdout).toContain(
      "== prompt (39 tokens) ==\n<context>\nversion: 1\nproject:\n  path: /srv/lumen\n  stack: hono\nconventions:\n  summary: ESM only.\n</context>\n\nAdd a health route\n-- starts with the Context Protocol v1 block\n",
    );
    expect(stdout).toContain("-- limit 8000 tokens for implement");
    expect(
      stdout.endsWith(
        `\nreceipt: sha256 ${CONTEXT_SHA256}, CONTEXT.md's as delivered: the result's contextSha256, and the context-sha256 the subagent may quote\n`,
      ),
    ).toBe(true);
    expect(existsSync(join(cwd, ".sage"))).toBe(false);
  });

  it("prints the same receipt for every recipient of CONTEXT.md, in --json too", async () => {
    const { sha256 } = await loadTaskContext(nodeWorkspace(cwd));
    expect(sha256).toBe(CONTEXT_SHA256);
    for (const recipient of ["image-tool", "subagent", "reviewer"]) {
      const { stdout, code } = await runCli(["render", "--for", recipient, "--json"], { cwd });
      expect(code).toBe(0);
      const printed = JSON.parse(stdout);
      expect(Object.keys(printed)).toEqual(["recipient", "contextSha256", "parts"]);
      expect(printed).toMatchObject({ recipient, contextSha256: CONTEXT_SHA256 });
      expect(Object.keys(printed.parts[0])).toEqual(["title", "tokens", "text", "notes"]);
    }
    const image = JSON.parse(
      (await runCli(["render", "--for", "image-tool", "--prompt", "A poster.", "--json"], { cwd }))
        .stdout,
    );
    expect(image.parts).toEqual([
      {
        title: "prompt sent to the image model",
        tokens: 30,
        text: "[Task Context]\n# Task context\n\n## What we are building\nThe launch of Lumen, a notes app.\n\n[Request]\nA poster.",
        notes: [
          `-- CONTEXT.md: 73 characters, delivered 73, limit 10000; sha256 ${CONTEXT_SHA256}`,
          "-- not truncated",
        ],
      },
    ]);
  });

  it("shows a reviewer the Sage type review, and refuses another --type", async () => {
    const { stdout, code } = await runCli(["render", "--for", "reviewer", "--input", "task.json"], {
      cwd,
    });
    expect(code).toBe(0);
    expect(stdout).toContain("    <type>review</type>\n");
    expect(await runCli(["render", "--for", "reviewer", "--type", "fix"], { cwd })).toEqual({
      stdout: "",
      stderr:
        'task-context: --for reviewer is the subagent type "review", not "fix"\nhint: drop --type, or use --for subagent\n',
      code: 2,
    });
  });

  it("shows the work item the service delivers for a later stage, built by the service", async () => {
    const { stdout, stderr, code } = await runCli(
      ["render", "--for", "remote-agent", "--run", "run.json", "--stage", "review"],
      { cwd },
    );
    expect({ stderr, code }).toEqual({ stderr: "", code: 0 });
    const [heading = "", ...rest] = stdout.split("\n");
    expect(heading).toMatch(
      /^== work item of stage review \(review\), as polled by a remote agent \(\d+ tokens\) ==$/,
    );
    const json = rest.slice(0, rest.indexOf("}") + 1).join("\n");
    const item = JSON.parse(json);
    expect(item).toMatchObject({
      kind: "review",
      stage_id: "review",
      goal: "Launch Lumen",
      constraints: ["Say Lumen"],
      review_context: { target_author_tag: "render-author", review_criteria: ["clarity"] },
    });
    // The receipt is the item's run-context hash, runContextSha256's, in --json too.
    const receipt = await runContextSha256(item);
    expect(item.context_sha256).toBe(receipt);
    expect(
      stdout.endsWith(
        `\nreceipt: sha256 ${receipt}, the run context's: the work item's context_sha256, which its completion may quote back\n`,
      ),
    ).toBe(true);
    const printed = await runCli(
      ["render", "--for", "remote-agent", "--run", "run.json", "--stage", "review", "--json"],
      { cwd },
    );
    expect(JSON.parse(printed.stdout)).toMatchObject({
      recipient: "remote-agent",
      contextSha256: receipt,
    });
  });

  it("fails with the guiding message and a hint when there is no CONTEXT.md, exit 2", async () => {
    mkdirSync(join(cwd, "empty"), { recursive: true });
    expect(await runCli(["render", "--for", "image-tool", "empty"], { cwd })).toEqual({
      stdout: "",
      stderr: NO_CONTEXT_MD,
      code: 2,
    });
  });

  it("says that a folder does not exist, rather than that it has no CONTEXT.md, exit 2", async () => {
    expect(await runCli(["render", "--for", "image-tool", "nowhere"], { cwd })).toEqual({
      stdout: "",
      stderr: noSuchFolder("nowhere"),
      code: 2,
    });
  });

  it("needs --for, and --run for remote-agent, exit 2", async () => {
    expect(await runCli(["render"], { cwd })).toEqual({
      stdout: "",
      stderr:
        "task-context: required option '--for <recipient>' not specified\nhint: run `task-context render --help` to see the usage\n",
      code: 2,
    });
    expect(await runCli(["render", "--for", "remote-agent"], { cwd })).toEqual({
      stdout: "",
      stderr:
        "task-context: --for remote-agent needs --run <run.json>\nhint: pass the run (a POST /v1/runs body) with --run\n",
      code: 2,
    });
    expect((await runCli(["render", "--for", "robot"], { cwd })).stderr).toBe(
      "task-context: option '--for <recipient>' argument 'robot' is invalid. Allowed choices are image-tool, subagent, reviewer, remote-agent\nhint: run `task-context render --help` to see the usage\n",
    );
  });
});

describe("task-context sage generate", () => {
  it("writes .sage/context/<id>.xml and prints its o200k token count", async () => {
    expect(
      await runCli(
        ["sage", "generate", "--task", "T1", "--type", "implement", "--input", "task.json"],
        { cwd },
      ),
    ).toEqual({
      stdout:
        "Context generated for T1: 251 tokens\nwrote .sage/context/T1.xml (limit 8000 tokens for implement)\n",
      stderr: "",
      code: 0,
    });
    expect(readFileSync(join(cwd, ".sage/context/T1.xml"), "utf8")).toContain("<id>T1</id>");
    const check = await runCli(["validate", ".sage/context/T1.xml"], { cwd });
    expect(check).toEqual({
      stdout: ".sage/context/T1.xml: valid subagent-context.v1\n",
      stderr: "",
      code: 0,
    });
  });

  it("refuses a task id that would leave .sage/context/, exit 2", async () => {
    const result = await runCli(
      ["sage", "generate", "--task", "../x", "--type", "plan", "--input", "task.json"],
      {
        cwd,
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^task-context: Invalid task id "\.\.\/x": /);
    expect(result.stderr).toMatch(
      /\nhint: use letters, digits, '\.', '_' and '-', starting with a letter or digit\n$/,
    );
  });

  it("says what is wrong with the task data, exit 1", async () => {
    const result = await runCli(
      ["sage", "generate", "--task", "T2", "--type", "plan", "--input", "-"],
      { cwd, stdin: '{"descr":"typo"}' },
    );
    expect(result).toEqual({
      stdout: "",
      stderr:
        'task-context: Invalid taskData: description is required: a string. Unknown field "descr" in taskData. Allowed: description, storyRef, instructions, filesToModify, filesToRead, filesForbidden, context, outputFormat\nhint: check the input file against the shape in docs/cli.md\n',
      code: 1,
    });
  });

  it("needs --task, --type and --input, exit 2", async () => {
    expect(
      await runCli(["sage", "generate", "--type", "plan", "--input", "task.json"], { cwd }),
    ).toEqual({
      stdout: "",
      stderr:
        "task-context: required option '--task <id>' not specified\nhint: run `task-context sage generate --help` to see the usage\n",
      code: 2,
    });
  });
});

describe("--help", () => {
  it.each([["render"], ["sage"], ["sage", "generate"]])(
    "task-context %s %s --help",
    async (...command) => {
      const { stdout, stderr, code } = await runCli([...command, "--help"], { cwd });
      expect({ stderr, code }).toEqual({ stderr: "", code: 0 });
      expect(stdout).toMatchSnapshot();
    },
  );
});
