// Runs docs/examples/first-injected-call.ts — step 3 of docs/getting-started.md — as a user would:
// a Node process in a directory holding the CONTEXT.md of step 2, calling a local stand-in for an
// OpenAI-compatible Chat Completions endpoint over HTTP. The stand-in answers from what it
// received, so the test sees exactly what reached the model.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markdownFences } from "./markdown-fences.ts";
import { type OpenAiStandIn, startOpenAiStandIn } from "./openai-stand-in.ts";

const run = promisify(execFile);
const example = fileURLToPath(new URL("../first-injected-call.ts", import.meta.url));
const gettingStarted = fileURLToPath(new URL("../../getting-started.md", import.meta.url));
const fences = markdownFences(gettingStarted, "docs/getting-started.md");
const contextMd = `${fences.find((fence) => fence.check === "context-md")?.body}\n`;
const shownPrompt = fences.find((fence) => fence.check === "same-as injected-prompt")?.body;

let standIn: OpenAiStandIn;

beforeAll(async () => {
  standIn = await startOpenAiStandIn();
});

afterAll(async () => {
  await standIn.close();
});

/** Runs the example in a new directory holding `files`; returns its output and the requests. */
async function runExample(files: Record<string, string>) {
  const directory = await mkdtemp(join(tmpdir(), "task-context-docs-"));
  try {
    for (const [name, text] of Object.entries(files)) await writeFile(join(directory, name), text);
    standIn.received.length = 0;
    const result = await run(
      process.execPath,
      ["--conditions=@task-context/source", "--no-warnings", example],
      {
        cwd: directory,
        env: {
          PATH: process.env.PATH,
          OPENAI_BASE_URL: standIn.baseUrl,
          OPENAI_API_KEY: "sk-docs-test",
        },
      },
    ).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    return { code: result.code, stdout: result.stdout, stderr: result.stderr };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe("getting started, step 3: the first injected call", () => {
  it("sends the CONTEXT.md of step 2 and the request, exactly as the page shows", async () => {
    const result = await runExample({ "CONTEXT.md": contextMd });
    expect(standIn.received).toEqual([
      {
        method: "POST",
        url: "/v1/chat/completions",
        authorization: "Bearer sk-docs-test",
        body: { model: "gpt-5-mini", messages: [{ role: "user", content: shownPrompt }] },
      },
    ]);
    expect(shownPrompt).toBe(
      `[Task Context]\n${contextMd.trim()}\n\n[Request]\nSuggest three headlines for the store listing.`,
    );
    expect(result).toEqual({
      code: 0,
      stdout: `Received ${contextMd.trim().length} characters of task context.\n`,
      stderr: "",
    });
  });

  it("warns on stderr when CONTEXT.md is over 10 000 characters, and sends the first 10 000", async () => {
    const long = `${contextMd}\n${"More detail. ".repeat(1000)}`;
    const result = await runExample({ "CONTEXT.md": long });
    expect(result.stderr).toBe(
      `CONTEXT.md was truncated from ${long.trim().length} to 10000 characters (limit 10000). Consider shortening it.\n`,
    );
    expect(result.stdout).toBe("Received 10000 characters of task context.\n");
    expect(standIn.received).toHaveLength(1);
  });

  it("sends nothing and fails with the guiding message when there is no CONTEXT.md", async () => {
    const result = await runExample({});
    expect(standIn.received).toEqual([]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "CONTEXT.md not found in workspace. Before using multimodal tools or spawning subagents, create a CONTEXT.md file with task context. See system prompt for instructions.\nThere is no CONTEXT.md at the workspace root.",
    );
  });
});
