import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, temporaryFolder } from "./run-cli.ts";

const folder = temporaryFolder();
afterAll(folder.remove);
const cwd = folder.path;
mkdirSync(cwd, { recursive: true });

const CONTEXT = `# Task context

## What we are building
Lumen, a notes app.

## Key terminology
- Vault: a user's notes.

## Visual and brand guidelines
Deep teal.

## Other details
Run pnpm test.
`;
writeFileSync(join(cwd, "CONTEXT.md"), CONTEXT);

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const MEDIA =
  "## What we are building\nLumen, a notes app.\n\n## Key terminology\n- Vault: a user's notes.\n\n## Visual and brand guidelines\nDeep teal.";
const FILE_SHA256 = sha256(CONTEXT.trim());

describe("task-context render with a view", () => {
  it("--view media shows the image model's view, its sections and both hashes", async () => {
    const run = await runCli(
      ["render", "--for", "image-tool", "--view", "media", "--prompt", "A poster."],
      { cwd },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`== prompt sent to the image model (43 tokens) ==
[Task Context]
${MEDIA}

[Request]
A poster.
-- CONTEXT.md's view "media": 131 characters, delivered 131, limit 10000; sha256 ${sha256(MEDIA)}
-- not truncated
-- view "media": What we are building, Key terminology, Visual and brand guidelines; the whole CONTEXT.md has sha256 ${FILE_SHA256}

receipt: sha256 ${sha256(MEDIA)} (view "media"; the whole CONTEXT.md: sha256 ${FILE_SHA256}), CONTEXT.md's as delivered: the tool result's contextSha256
`);
  });

  it("--include, --exclude and --view-max-chars make a custom view; --json names it", async () => {
    const run = await runCli(
      [
        "render",
        "--for",
        "subagent",
        "--include",
        "Task context",
        "--exclude",
        "Visual and brand guidelines",
        "--exclude",
        "Other details",
        "--view-max-chars",
        "40",
        "--json",
      ],
      { cwd },
    );
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as {
      contextSha256: string;
      view: unknown;
      parts: Array<{ title: string; text: string; notes: string[] }>;
    };
    const copy = "# Task context\n\n## What we are building";
    expect(json.contextSha256).toBe(sha256(copy));
    expect(json.view).toStrictEqual({
      name: "custom",
      sections: ["Task context", "What we are building", "Key terminology"],
      fileSha256: FILE_SHA256,
    });
    expect(json.parts[0]?.title).toBe('CONTEXT.md (CONTEXT.md, view "custom", copied read-only)');
    expect(json.parts[0]?.text).toBe(copy);
    expect(json.parts[0]?.notes[1]).toBe(
      `-- truncated: CONTEXT.md's view "custom" was truncated from 104 to 39 characters (limit 40). Consider shortening its sections.`,
    );
  });

  it("a view that selects nothing exits 1 and names the file's headings", async () => {
    const run = await runCli(["render", "--for", "image-tool", "--include", "Deployment"], { cwd });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      `View "custom" selects nothing of CONTEXT.md: it includes "Deployment" and excludes nothing. CONTEXT.md's headings are "Task context", "What we are building", "Key terminology", "Visual and brand guidelines", "Other details"`,
    );
  });

  it("refuses --view with --include, --view-max-chars alone, and a view for a remote agent", async () => {
    const both = await runCli(
      ["render", "--for", "image-tool", "--view", "media", "--include", "A"],
      { cwd },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      "--view takes a preset; --include and --exclude make a view of their own",
    );
    const alone = await runCli(["render", "--for", "image-tool", "--view-max-chars", "10"], {
      cwd,
    });
    expect(alone.stderr).toContain("--view-max-chars bounds a view, and none was given");
    const remote = await runCli(["render", "--for", "remote-agent", "--view", "media"], { cwd });
    expect(remote.stderr).toContain("--for remote-agent has no CONTEXT.md to take a view of");
    const unknown = await runCli(["render", "--for", "image-tool", "--view", "tests"], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Allowed choices are media, brief");
  });
});
