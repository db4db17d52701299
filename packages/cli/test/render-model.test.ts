// `task-context render --for image-tool --model`: the prompt as the media tools send it to a
// profiled model (fitted to its limit), on the built binary.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, temporaryFolder } from "./run-cli.ts";

// The root script that finds the machine's own Node (Node 20 here), as the runtime tests use it.
const systemNodeScript: string = new URL("../../../scripts/system-node.mjs", import.meta.url).href;
const { systemNode } = (await import(systemNodeScript)) as { systemNode: () => string };

const folder = temporaryFolder();
afterAll(folder.remove);
const cwd = folder.path;

const TOP = "# Task context\n\n## What we are building\nLumen, a notes app for teams.";
const TERMS = "## Key terminology\n- Vault: a user's notes.";
const LONG = `${TOP}\n\n## Other details\n${"Run pnpm test before each commit. ".repeat(40).trim()}\n\n${TERMS}\n`;
writeFileSync(join(cwd, "CONTEXT.md"), LONG);
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const render = (...args: string[]) =>
  runCli(["render", "--for", "image-tool", "--prompt", "A poster.", ...args], { cwd });

describe("task-context render --for image-tool --model", () => {
  it("fits CONTEXT.md to dall-e-2's 1 000 characters: the goal and key terms kept, the rest named", async () => {
    const run = await render("--model", "openai/dall-e-2");
    expect([run.stderr, run.code]).toEqual(["", 0]);
    const fitted = `${TOP}\n\n${TERMS}`;
    const prompt = `[Task Context]\n${fitted}\n\n[Request]\nA poster.`;
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^== prompt sent to openai\/dall-e-2 \(\d+ tokens\) ==$/);
    expect(lines.slice(1, 1 + prompt.split("\n").length).join("\n")).toBe(prompt);
    expect(run.stdout).toContain(
      '\n-- profile openai/dall-e-2: prompt limit 1000 characters (rejects)\n-- The task context was fitted to openai/dall-e-2\'s prompt limit (1000 characters; it refuses longer prompts): kept "Task context", "What we are building", "Key terminology"; left out "Other details". Put what every model must know first in CONTEXT.md, under "What we are building" and "Key terminology".\n',
    );
    expect(run.stdout).toMatch(
      new RegExp(
        `\\nreceipt: sha256 ${sha256(fitted)}, the fitted context's: the tool result's contextSha256 \\(CONTEXT\\.md as loaded: sha256 ${sha256(LONG.trim())}, contextFit\\.loadedSha256\\)\\n$`,
      ),
    );
  });

  it("sends a context that fits whole, and says so; a model with no profile gets it whole too", async () => {
    const whole = `[Task Context]\n${LONG.trim()}\n\n[Request]\nA poster.`;
    const fits = await render("--model", "openai/gpt-image-1");
    expect([fits.stderr, fits.code]).toEqual(["", 0]);
    expect(fits.stdout).toContain(`\n${whole}\n`);
    expect(fits.stdout).toContain(
      "\n-- profile openai/gpt-image-1: prompt limit 32000 characters (rejects)\n-- fits: the context is sent whole\n",
    );
    expect(fits.stdout).toContain(
      `\nreceipt: sha256 ${sha256(LONG.trim())}, CONTEXT.md's as delivered: the tool result's contextSha256\n`,
    );
    const unknown = await render("--model", "acme/painter-9");
    expect([unknown.stderr, unknown.code]).toEqual(["", 0]);
    expect(unknown.stdout).toContain(`\n${whole}\n`);
    expect(unknown.stdout).toContain(
      "\n-- no profile for acme/painter-9: the context is sent whole, as for any model the profiles do not name (docs/model-profiles.md says how to add one)\n",
    );
  });

  it("refuses --model for another recipient, exit 2", async () => {
    expect(
      await runCli(["render", "--for", "subagent", "--model", "openai/dall-e-2"], { cwd }),
    ).toEqual({
      stdout: "",
      stderr:
        "task-context: --model is for --for image-tool, not --for subagent\nhint: drop --model: the profiles fit the prompt of a media tool's model call\n",
      code: 2,
    });
  });

  it("on Node 20, where the media tools do not run, says what they need", async () => {
    const run = await runCli(["render", "--for", "image-tool", "--model", "openai/dall-e-2"], {
      cwd,
      node: systemNode(),
    });
    expect(run.stdout).toBe("");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^task-context: @task-context\/media-tools needs Node 22 or later/);
    expect(run.stderr).toMatch(
      /\nhint: run the command on Node 22 or later \(the media tools' AI SDK needs it\)\n$/,
    );
  });
});
