import { createHash } from "node:crypto";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { CONTEXT_VIEW_PRESETS, ContextViewEmptyError, selectContextView } from "@task-context/core";
import { CONTEXT_MD_TEMPLATE } from "@task-context/protocols/context-md";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnWithViews } from "../examples/views.ts";
import { functionRunner } from "./function-runner.ts";
import { spawnSubagents } from "./spawn-subagents.ts";
import type { SubagentInvocation } from "./subagent-runner.ts";
import type { SubagentTask } from "./subagent-task.ts";
import { createFixture, entries, type Fixture, success } from "./test-support/fixtures.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The CONTEXT.md template: the four sections the system prompt teaches, under their headings. */
const CONTEXT_MD = CONTEXT_MD_TEMPLATE.trim();

/** The brief preset's sections of it (core's selection, tested there). */
const BRIEF = selectContextView(CONTEXT_MD, CONTEXT_VIEW_PRESETS.brief).content;

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture({ "CONTEXT.md": CONTEXT_MD });
});
afterEach(async () => {
  await fixture.cleanup();
});

/** Spawns `tasks` with a runner that reads the subagent's CONTEXT.md and records its invocation. */
async function spawn(tasks: SubagentTask[]) {
  const seen = new Map<string, { context: string; invocation: SubagentInvocation }>();
  const runner = functionRunner(async (invocation) => {
    const context = await readFile(join(invocation.directory, "CONTEXT.md"), "utf8");
    seen.set(invocation.id, { context, invocation });
    return success();
  });
  const results = await spawnSubagents(fixture.parent, tasks, {
    runner,
    workspacesRoot: fixture.workspacesRoot,
  });
  return { results, seen };
}

describe("spawnSubagents with views", () => {
  it("the read-only copy of CONTEXT.md is the task's view; the result says what the child received", async () => {
    const { results, seen } = await spawn([
      {
        id: "review-1",
        subagentType: "review",
        prompt: "Review.",
        view: CONTEXT_VIEW_PRESETS.brief,
      },
      { id: "build-1", prompt: "Build." },
    ]);
    expect(seen.get("review-1")?.context).toBe(BRIEF);
    expect(seen.get("build-1")?.context).toBe(CONTEXT_MD);
    expect((await stat(join(fixture.workspacesRoot, "review-1", "CONTEXT.md"))).mode & 0o777).toBe(
      0o444,
    );
    expect(seen.get("review-1")?.invocation.contextSha256).toBe(sha256(BRIEF));
    expect(results[0]).toMatchObject({
      id: "review-1",
      status: "success",
      contextIntegrity: "intact",
      contextSha256: sha256(BRIEF),
      view: {
        name: "brief",
        sections: ["What we are building", "Key terminology"],
        sha256: sha256(BRIEF),
        fileSha256: sha256(CONTEXT_MD),
      },
    });
    expect(results[0]).not.toHaveProperty("warning");
    expect(results[1]).toMatchObject({ contextSha256: sha256(CONTEXT_MD) });
    expect(results[1]).not.toHaveProperty("view");
  });

  it("a view's own budget cuts the copy, and the warning names the view", async () => {
    const view = { name: "short", include: ["What we are building"] };
    const building = selectContextView(CONTEXT_MD, view).content;
    const { results, seen } = await spawn([
      {
        id: "short",
        prompt: "Go.",
        view: { ...view, maxChars: 23 },
      },
    ]);
    expect(seen.get("short")?.context).toBe("## What we are building");
    expect(results[0]?.warning).toBe(
      `CONTEXT.md's view "short" was truncated from ${building.length} to 23 characters (limit 23). Consider shortening its sections.`,
    );
  });

  it("a view that selects nothing refuses the whole spawn before anything is created", async () => {
    const error = await spawn([
      { id: "a", prompt: "Go." },
      { id: "ops", prompt: "Deploy.", view: { name: "ops", include: ["Deployment"] } },
    ]).catch((reason: unknown) => reason);
    expect(ContextViewEmptyError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "CONTEXT_VIEW_EMPTY", view: "ops" });
    expect(await entries(fixture.workspacesRoot)).toBeUndefined();
  });

  it("a parent that edits a section outside the view does not make the child's context stale; inside it does", async () => {
    const rewrite = (text: string) => writeFile(join(fixture.parent, "CONTEXT.md"), text);
    const runner = (text: string) =>
      functionRunner(async () => {
        await rewrite(text);
        return success();
      });
    const options = { workspacesRoot: fixture.workspacesRoot };
    const [outside] = await spawnSubagents(
      fixture.parent,
      [{ id: "outside", prompt: "Go.", view: CONTEXT_VIEW_PRESETS.brief }],
      { ...options, runner: runner(`${CONTEXT_MD}\nAnd lint.`) },
    );
    expect(outside).not.toHaveProperty("warning");
    await rewrite(CONTEXT_MD);
    const [inside] = await spawnSubagents(
      fixture.parent,
      [{ id: "inside", prompt: "Go.", view: CONTEXT_VIEW_PRESETS.brief }],
      { ...options, runner: runner(CONTEXT_MD.replace("<Term>", "Vault")) },
    );
    expect(inside?.warning).toMatch(/^Your CONTEXT\.md changed while subagent "inside" ran: /);
  });

  it("refuses an invalid view and a token budget without the load's tokenizer", async () => {
    await expect(spawn([{ id: "a", prompt: "Go.", view: { name: "" } }])).rejects.toThrow(
      "Invalid tasks[0].view.name: expected the view's name, a non-empty string, got the empty string.",
    );
    await expect(
      spawn([{ id: "a", prompt: "Go.", view: { name: "t", maxTokens: 3 } }]),
    ).rejects.toThrow(
      'Invalid tasks[0].view.maxTokens: view "t" has a token budget, which needs a tokenizer: pass `load: { tokenizer }` in the spawn options (approximateTokenizer, or o200kTokenizer from "@task-context/core/o200k").',
    );
  });
});

describe("the views example", () => {
  it("the reviewer's copy is the brief view; the implementer's the whole file", async () => {
    const copies = new Map<string, string>();
    const runner = functionRunner(async ({ id, directory }) => {
      copies.set(id, await readFile(join(directory, "CONTEXT.md"), "utf8"));
      return success();
    });
    const { reviewer, implementer } = await spawnWithViews(fixture.parent, runner);
    // The example leaves the subagents' directories in a new temporary folder: remove it.
    if (reviewer !== undefined)
      await rm(dirname(reviewer.directory), { recursive: true, force: true });
    expect(copies.get("review-1")).toBe(BRIEF);
    expect(copies.get("build-1")).toBe(CONTEXT_MD);
    expect(reviewer?.view).toStrictEqual({
      name: "brief",
      sections: ["What we are building", "Key terminology"],
      sha256: sha256(BRIEF),
      fileSha256: sha256(CONTEXT_MD),
    });
    expect(reviewer?.contextSha256).toBe(sha256(BRIEF));
    expect(implementer?.view).toBeUndefined();
  });
});
