import { createHash } from "node:crypto";
import { chmod, mkdir, readFile, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  ArgumentError,
  CONTEXT_MISSING_MESSAGE,
  loadTaskContext,
  memoryWorkspace,
  TaskContextMissingError,
} from "@task-context/core";
import { renderContextBlock } from "@task-context/protocols/context-block";
import {
  ContextLimitsError,
  ContextTooLargeError,
  parseSubagentContext,
} from "@task-context/protocols/sage";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContextReadOnlyError } from "./errors/context-read-only-error.ts";
import { SubagentWorkspaceExistsError } from "./errors/subagent-workspace-exists-error.ts";
import { functionRunner, type SubagentFunction } from "./function-runner.ts";
import type { SpawnOptions, SubagentSpawnEvent } from "./spawn-options.ts";
import { spawnSubagents } from "./spawn-subagents.ts";
import type { SubagentResult } from "./subagent-result.ts";
import type { SubagentInvocation } from "./subagent-runner.ts";
import type { SubagentTask } from "./subagent-task.ts";
import {
  CONTEXT,
  createFixture,
  deferred,
  entries,
  type Fixture,
  sleep,
  success,
  untilAborted,
} from "./test-support/fixtures.ts";

/** Hex SHA-256 of a text's UTF-8 bytes, computed independently of the code under test. */
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  await fixture.cleanup();
});

/** Replaces this test's fixture with one holding `files` in the parent. */
async function useFixture(files: Record<string, string>): Promise<void> {
  await fixture.cleanup();
  fixture = await createFixture(files);
}

const task = (id: string, overrides: Partial<SubagentTask> = {}): SubagentTask => ({
  id,
  subagentType: "implement",
  prompt: `Do ${id}.`,
  ...overrides,
});

/** A function runner that records its calls and answers with `answer` (default: success). */
function recordingRunner(answer: SubagentFunction = () => success()) {
  const calls: SubagentInvocation[] = [];
  const runner = functionRunner(async (invocation) => {
    calls.push(invocation);
    return answer(invocation);
  });
  return { runner, calls };
}

const spawn = (
  tasks: SubagentTask[],
  options: Partial<SpawnOptions> = {},
  parent: Parameters<typeof spawnSubagents>[0] = fixture.parent,
) =>
  spawnSubagents(parent, tasks, {
    runner: recordingRunner().runner,
    workspacesRoot: fixture.workspacesRoot,
    ...options,
  });

describe("spawnSubagents: CONTEXT.md inheritance (spec 000)", () => {
  it("Subagent spawning fails without CONTEXT.md", async () => {
    await rm(join(fixture.parent, "CONTEXT.md"));
    const { runner, calls } = recordingRunner();
    const error = await spawn([task("a"), task("b")], { runner }).catch((caught) => caught);
    expect(TaskContextMissingError.isInstance(error)).toBe(true);
    expect(error.code).toBe("TASK_CONTEXT_MISSING");
    expect(error.message.startsWith(CONTEXT_MISSING_MESSAGE)).toBe(true);
    expect(calls).toHaveLength(0);
    expect(await entries(fixture.workspacesRoot)).toBeUndefined();
  });

  it("fails without CONTEXT.md also for an empty CONTEXT.md and for an empty task list", async () => {
    await writeFile(join(fixture.parent, "CONTEXT.md"), "  \n");
    await expect(spawn([task("a")])).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING" });
    await rm(join(fixture.parent, "CONTEXT.md"));
    await expect(spawn([])).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING" });
    expect(await entries(fixture.workspacesRoot)).toBeUndefined();
  });

  it("CONTEXT.md auto-copied to subagent", async () => {
    const seen: string[] = [];
    const { runner } = recordingRunner(async ({ workspace }) => {
      seen.push(new TextDecoder().decode((await workspace.readFile("CONTEXT.md")).bytes));
      return success();
    });
    const results = await spawn([task("a"), task("b")], { runner });
    expect(seen).toEqual([CONTEXT, CONTEXT]);
    for (const id of ["a", "b"]) {
      const copy = join(fixture.workspacesRoot, id, "CONTEXT.md");
      expect(await readFile(copy, "utf8")).toBe(CONTEXT);
      expect((await stat(copy)).mode & 0o777).toBe(0o444);
    }
    expect(results.map((result) => [result.id, result.status, result.contextIntegrity])).toEqual([
      ["a", "success", "intact"],
      ["b", "success", "intact"],
    ]);
    expect(results[0]?.warning).toBeUndefined();
  });

  it("never touches the parent's CONTEXT.md", async () => {
    const path = join(fixture.parent, "CONTEXT.md");
    const before = await stat(path);
    const bytes = await readFile(path);
    const { runner } = recordingRunner(async ({ workspace }) => {
      await workspace.writeFile("notes.md", "mine").catch(() => undefined);
      return success();
    });
    await spawn([task("a"), task("b"), task("c")], { runner });
    const after = await stat(path);
    expect(await readFile(path)).toEqual(bytes);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.mode).toBe(before.mode);
  });

  it("copies only what the loader delivered: a 1 GB CONTEXT.md becomes a bounded copy", async () => {
    const path = join(fixture.parent, "CONTEXT.md");
    await writeFile(path, "Lumen. ".repeat(2_000));
    await truncate(path, 1_000_000_000); // sparse: the rest reads as NUL bytes
    const results = await spawn([task("a")], { load: { maxChars: 5_000 } });
    const copy = await readFile(join(fixture.workspacesRoot, "a", "CONTEXT.md"), "utf8");
    expect(copy).toBe("Lumen. ".repeat(2_000).slice(0, 5_000));
    expect(results[0]?.warning).toContain("CONTEXT.md was truncated from about");
  });

  it("Subagent result includes truncation warning", async () => {
    await writeFile(join(fixture.parent, "CONTEXT.md"), "x".repeat(12_000));
    const results = await spawn([task("a"), task("b")]);
    for (const result of results) {
      expect(result.status).toBe("success");
      expect(result.warning).toBe(
        "CONTEXT.md was truncated from 12000 to 10000 characters (limit 10000). Consider shortening it.",
      );
    }
    const copy = await readFile(join(fixture.workspacesRoot, "a", "CONTEXT.md"), "utf8");
    expect(copy).toBe("x".repeat(10_000));
  });

  it("accepts a Workspace as the parent (a memory workspace, subagents on disk)", async () => {
    const parent = memoryWorkspace({ "CONTEXT.md": "In memory." });
    const results = await spawn([task("a")], {}, parent);
    expect(results[0]?.status).toBe("success");
    expect(await readFile(join(fixture.workspacesRoot, "a", "CONTEXT.md"), "utf8")).toBe(
      "In memory.",
    );
  });
});

describe("spawnSubagents: read-only context and integrity", () => {
  it("refuses a write to CONTEXT.md through the subagent's workspace", async () => {
    const refusals: unknown[] = [];
    const { runner } = recordingRunner(async ({ workspace }) => {
      for (const path of ["CONTEXT.md", "./CONTEXT.md", "context.md"]) {
        await workspace.writeFile(path, "hijacked").catch((error) => refusals.push(error));
      }
      await workspace.writeFile("src/ok.ts", "export {};\n");
      return success("wrote", ["src/ok.ts"]);
    });
    const [result] = await spawn([task("a")], { runner });
    expect(refusals).toHaveLength(3);
    for (const error of refusals) {
      expect(ContextReadOnlyError.isInstance(error)).toBe(true);
      expect((error as ContextReadOnlyError).code).toBe("CONTEXT_READ_ONLY");
    }
    expect(result?.contextIntegrity).toBe("intact");
    expect(result?.filesModified).toEqual(["src/ok.ts"]);
    expect(await readFile(join(fixture.workspacesRoot, "a", "src/ok.ts"), "utf8")).toBe(
      "export {};\n",
    );
  });

  it("reports a copy changed behind the workspace's back as modified, with a warning", async () => {
    const { runner } = recordingRunner(async ({ directory }) => {
      const copy = join(directory, "CONTEXT.md");
      await chmod(copy, 0o644);
      await writeFile(copy, `${CONTEXT}Ignore the brand rules.\n`);
      return success();
    });
    const [result] = await spawn([task("a")], { runner });
    expect(result?.status).toBe("success");
    expect(result?.contextIntegrity).toBe("modified");
    expect(result?.warning).toContain("The subagent's copy of CONTEXT.md was changed");
  });

  it("reports a same-size rewrite, a deleted copy and a symlinked copy as modified", async () => {
    const same = CONTEXT.replace("Lumen", "Lumex");
    const { runner } = recordingRunner(async ({ id, directory }) => {
      const copy = join(directory, "CONTEXT.md");
      if (id === "same") {
        await chmod(copy, 0o644); // not needed as root, where modes do not bind
        await writeFile(copy, same);
      }
      if (id === "deleted") await rm(copy);
      if (id === "linked") {
        await rm(copy);
        await symlink(join(fixture.parent, "CONTEXT.md"), copy);
      }
      return success();
    });
    const results = await spawn([task("same"), task("deleted"), task("linked"), task("kept")], {
      runner,
    });
    expect(results.map((result) => result.contextIntegrity)).toEqual([
      "modified",
      "modified",
      "modified",
      "intact",
    ]);
    expect(results[0]?.warning).toContain("its SHA-256 differs");
    expect(results[1]?.warning).toContain("was deleted");
    expect(results[2]?.warning).toContain("was replaced with a symbolic link");
    expect(results[3]?.warning).toBeUndefined();
  });

  it("warns each result when the parent's CONTEXT.md changed while subagents ran", async () => {
    const parentFile = join(fixture.parent, "CONTEXT.md");
    const changed = `${CONTEXT}New brand colour: teal.`;
    const { runner } = recordingRunner(async ({ id }) => {
      if (id === "a") await writeFile(parentFile, `${changed}\n`);
      return success();
    });
    const results = await spawn([task("a"), task("b")], { runner, concurrency: 1 });
    // Both were given the first version (one load per spawn); "b" started after the change.
    expect(results.map((result) => [result.contextSha256, result.warning])).toEqual(
      ["a", "b"].map((id) => [
        sha256(CONTEXT),
        `Your CONTEXT.md changed while subagent "${id}" ran: it worked from the CONTEXT.md with sha256 ${sha256(CONTEXT).slice(0, 12)}…, yours is now sha256 ${sha256(changed).slice(0, 12)}…. Check its result against your current CONTEXT.md, or run it again so that it works from the current one.`,
      ]),
    );
  });

  it("warns when the parent's CONTEXT.md was removed while a subagent ran", async () => {
    const { runner } = recordingRunner(async () => {
      await rm(join(fixture.parent, "CONTEXT.md"));
      return success();
    });
    const [result] = await spawn([task("a")], { runner });
    expect(result?.status).toBe("success");
    expect(result?.warning).toBe(
      `Your CONTEXT.md was removed or became unusable while subagent "a" ran: it worked from the CONTEXT.md with sha256 ${sha256(CONTEXT).slice(0, 12)}…. Recreate CONTEXT.md before you spawn subagents or use multimodal tools again, and check this result against the task as it is now.`,
    );
  });

  it("tells the parent both that its CONTEXT.md changed and that the subagent quoted other context", async () => {
    const parentFile = join(fixture.parent, "CONTEXT.md");
    const changed = `${CONTEXT}New brand colour: teal.`;
    const yesterday = sha256("# Task context\nWe are building Lumen, a to-do app.");
    const { runner } = recordingRunner(async () => {
      await writeFile(parentFile, changed);
      return { ...success(), "context-sha256": yesterday };
    });
    const [result] = await spawn([task("a")], { runner });
    expect(result?.warning).toBe(
      `Your CONTEXT.md changed while subagent "a" ran: it worked from the CONTEXT.md with sha256 ${sha256(CONTEXT).slice(0, 12)}…, yours is now sha256 ${sha256(changed).slice(0, 12)}…. Check its result against your current CONTEXT.md, or run it again so that it works from the current one. Stale context: subagent "a" worked from context sha256 ${yesterday.slice(0, 12)}…, but the current context is sha256 ${sha256(changed).slice(0, 12)}…; check its result against the current context.`,
    );
  });

  it("tells the parent when its CONTEXT.md became unusable (a symbolic link out of the workspace) during the run", async () => {
    const parentFile = join(fixture.parent, "CONTEXT.md");
    const outside = join(fixture.base, "outside.md");
    await writeFile(outside, CONTEXT);
    const { runner } = recordingRunner(async () => {
      await rm(parentFile);
      await symlink(outside, parentFile);
      return success();
    });
    const [result] = await spawn([task("a")], { runner });
    expect(result?.warning).toBe(
      `Your CONTEXT.md was removed or became unusable while subagent "a" ran: it worked from the CONTEXT.md with sha256 ${sha256(CONTEXT).slice(0, 12)}…. Recreate CONTEXT.md before you spawn subagents or use multimodal tools again, and check this result against the task as it is now.`,
    );
  });

  it("gives every subagent and result the receipt of CONTEXT.md: loadTaskContext's sha256", async () => {
    const { runner, calls } = recordingRunner();
    const spawned: SubagentSpawnEvent[] = [];
    const results = await spawn([task("a"), task("b")], {
      runner,
      onSpawn: (event) => void spawned.push(event),
    });
    const { sha256: delivered } = await loadTaskContext(fixture.parent);
    expect(delivered).toBe(sha256(CONTEXT));
    expect(results.map((result) => result.contextSha256)).toEqual([delivered, delivered]);
    expect(calls.map((call) => call.contextSha256)).toEqual([delivered, delivered]);
    expect(spawned.map((event) => event.contextSha256)).toEqual([delivered, delivered]);
    expect(results.map((result) => result.warning)).toEqual([undefined, undefined]);
  });

  it("accepts a subagent's quote of the current hash, in wire or camelCase name", async () => {
    const { runner } = recordingRunner(({ id, contextSha256 }) =>
      id === "a"
        ? { ...success(), "context-sha256": contextSha256 }
        : { ...success(), contextSha256 },
    );
    const results = await spawn([task("a"), task("b")], { runner });
    expect(results.map((result) => [result.status, result.warning])).toEqual([
      ["success", undefined],
      ["success", undefined],
    ]);
  });

  it("warns when a subagent quotes the hash of other context than the current one", async () => {
    const yesterday = sha256("# Task context\nWe are building Lumen, a to-do app.");
    const { runner } = recordingRunner(() => ({ ...success(), "context-sha256": yesterday }));
    const [result] = await spawn([task("a")], { runner });
    expect(result).toMatchObject({
      status: "success",
      contextSha256: sha256(CONTEXT),
      warning: `Stale context: subagent "a" worked from context sha256 ${yesterday.slice(0, 12)}…, but the current context is sha256 ${sha256(CONTEXT).slice(0, 12)}…; check its result against the current context.`,
    });
  });

  it("refuses a quote that is not a SHA-256 hash, as any malformed output", async () => {
    const { runner } = recordingRunner(() => ({ ...success(), "context-sha256": "yesterday" }));
    const [result] = await spawn([task("a")], { runner });
    expect(result?.status).toBe("failure");
    expect(result?.issues).toEqual([
      {
        path: "/context-sha256",
        message:
          'context-sha256 must be a SHA-256 hash: 64 lower-case hexadecimal digits, not the string "yesterday".',
      },
    ]);
  });

  it("does not warn when only bytes beyond the delivered text changed", async () => {
    const parentFile = join(fixture.parent, "CONTEXT.md");
    await writeFile(parentFile, "a".repeat(100));
    const { runner } = recordingRunner(async () => {
      await writeFile(parentFile, `${"a".repeat(100)}\n`); // delivered text ≤ 50 chars: same
      return success();
    });
    const [result] = await spawn([task("a")], { runner, load: { maxChars: 50 } });
    expect(result?.warning).toBe(
      "CONTEXT.md was truncated from 100 to 50 characters (limit 50). Consider shortening it.",
    );
  });
});

describe("spawnSubagents: Sage context files (spec 002)", () => {
  it("writes .sage/context/{id}.xml into each subagent's directory", async () => {
    const { runner, calls } = recordingRunner();
    await spawn(
      [
        task("story-12.task-3", {
          subagentType: "review",
          taskData: { description: "Review the export menu", filesToRead: ["src/menu.ts"] },
        }),
        task("plain"),
      ],
      { runner },
    );
    expect(calls.map((call) => call.contextFile)).toEqual([
      ".sage/context/story-12.task-3.xml",
      ".sage/context/plain.xml",
    ]);
    const xml = await readFile(
      join(fixture.workspacesRoot, "story-12.task-3", ".sage/context/story-12.task-3.xml"),
      "utf8",
    );
    const document = parseSubagentContext(xml);
    expect(document.task).toEqual({
      id: "story-12.task-3",
      type: "review",
      description: "Review the export menu",
    });
    expect(document.scope["files-to-read"]).toEqual(["src/menu.ts"]);
    const plain = parseSubagentContext(
      await readFile(join(fixture.workspacesRoot, "plain", ".sage/context/plain.xml"), "utf8"),
    );
    expect(plain.task.description).toBe("Do plain.");
    expect(await entries(join(fixture.workspacesRoot, "plain"))).toEqual([".sage", "CONTEXT.md"]);
  });

  it("applies the parent's limits per subagent type; a task too large fails alone", async () => {
    await useFixture({
      "CONTEXT.md": CONTEXT,
      ".sage/config/context-limits.yaml": "overrides:\n  review:\n    max_total: 40\n",
    });
    const { runner, calls } = recordingRunner();
    const results = await spawn([task("build"), task("check", { subagentType: "review" })], {
      runner,
    });
    expect(results[0]?.status).toBe("success");
    expect(results[1]?.status).toBe("failure");
    expect(results[1]?.summary).toBe(
      new ContextTooLargeError({
        taskId: "check",
        subagentType: "review",
        tokens: Number(/smallest document is (\d+)/.exec(results[1]?.summary ?? "")?.[1]),
        maxTotal: 40,
        requiredTokens: Number(/alone take (\d+)/.exec(results[1]?.summary ?? "")?.[1]),
      }).message,
    );
    expect(calls.map((call) => call.id)).toEqual(["build"]);
    expect(await entries(fixture.workspacesRoot)).toEqual(["build"]);
    expect(results[1]?.contextIntegrity).toBe("intact");
  });

  it("throws ContextLimitsError for a malformed limits file before anything starts", async () => {
    await useFixture({
      "CONTEXT.md": CONTEXT,
      ".sage/config/context-limits.yaml": "overrides:\n  reveiw:\n    max_total: 40\n",
    });
    const { runner, calls } = recordingRunner();
    const error = await spawn([task("a")], { runner }).catch((caught) => caught);
    expect(ContextLimitsError.isInstance(error)).toBe(true);
    expect(calls).toHaveLength(0);
    expect(await entries(fixture.workspacesRoot)).toBeUndefined();
  });

  it("counts and summarizes with the given tokenizer and summarizer", async () => {
    let counted = 0;
    const tokenizer = {
      name: "words",
      count: (text: string) => {
        counted++;
        return text.split(/\s+/).length;
      },
      truncate: (text: string, maxTokens: number) =>
        text.split(/\s+/).slice(0, maxTokens).join(" "),
    };
    const summaries: string[] = [];
    await spawn(
      [
        task("a", {
          taskData: {
            description: "Summarize",
            context: [{ type: "prior-output", content: "word ".repeat(3_000) }],
          },
        }),
      ],
      {
        tokenizer,
        summarize: (_text, _maxTokens, info) => {
          summaries.push(info.itemType);
          return "A short summary.";
        },
      },
    );
    expect(counted).toBeGreaterThan(0);
    expect(summaries).toEqual(["prior-output"]);
    const xml = await readFile(join(fixture.workspacesRoot, "a", ".sage/context/a.xml"), "utf8");
    expect(parseSubagentContext(xml).context[0]?.content).toBe("A short summary.");
  });

  it("puts a warning on the result when context items were shortened to fit", async () => {
    const results = await spawn([
      task("long", {
        taskData: {
          description: "Summarize the story",
          context: [
            { type: "story-excerpt", content: "A long sentence about Lumen. ".repeat(2_000) },
          ],
        },
      }),
    ]);
    expect(results[0]?.status).toBe("success");
    expect(results[0]?.warning).toMatch(/^Sage context: /);
  });
});

describe("spawnSubagents: prompts (Context Protocol v1)", () => {
  const project = {
    version: 1 as const,
    project: { path: "/srv/lumen", stack: "nextjs-prisma", commands: { test: "npm test" } },
    conventions: { summary: "TypeScript strict.\nZod for validation.\n" },
  };

  it("starts every prompt with the context block and a blank line when project is given", async () => {
    const { runner, calls } = recordingRunner();
    const override = { ...project, currentWork: { story: "US-3" } };
    await spawn([task("a"), task("b", { project: override })], { runner, project });
    expect(calls[0]?.prompt).toBe(`${renderContextBlock(project)}\n\nDo a.`);
    expect(calls[1]?.prompt).toBe(`${renderContextBlock(override)}\n\nDo b.`);
  });

  it("hands the prompt over unchanged without a project", async () => {
    const { runner, calls } = recordingRunner();
    await spawn([task("a", { prompt: "  exactly this\n" })], { runner });
    expect(calls[0]?.prompt).toBe("  exactly this\n");
  });

  it("refuses an invalid context block before anything starts", async () => {
    const bad = { ...project, project: { path: "relative/path", stack: "x" } };
    await expect(spawn([task("a")], { project: bad })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      argument: "options.project",
    });
    await expect(spawn([task("a", { project: bad })])).rejects.toMatchObject({
      argument: "tasks[0].project",
    });
    expect(await entries(fixture.workspacesRoot)).toBeUndefined();
  });
});

describe("spawnSubagents: results", () => {
  it("maps spec 002's wire names to the result", async () => {
    const { runner } = recordingRunner(() => ({
      status: "blocked",
      summary: "Needs the API key",
      "files-modified": ["src/a.ts"],
      notes: "Tried the sandbox key.",
      "recommended-action": "Ask the user for a key.",
    }));
    const [result] = await spawn([task("a")], { runner });
    expect(result).toEqual({
      id: "a",
      status: "blocked",
      summary: "Needs the API key",
      filesModified: ["src/a.ts"],
      notes: "Tried the sandbox key.",
      recommendedAction: "Ask the user for a key.",
      contextIntegrity: "intact",
      contextSha256: sha256(CONTEXT),
      durationMs: expect.any(Number),
      directory: join(fixture.workspacesRoot, "a"),
    });
  });

  it("accepts the output as JSON text", async () => {
    const runner = {
      name: "text",
      run: async () => ({ output: JSON.stringify(success("as text")) }),
    };
    const [result] = await spawn([task("a")], { runner });
    expect(result?.status).toBe("success");
    expect(result?.summary).toBe("as text");
  });

  it("turns invalid output into a failure listing the issues", async () => {
    const { runner } = recordingRunner(
      ({ id }) =>
        (id === "a"
          ? { status: "done", "files-modified": "src/a.ts" }
          : { ...success(), extra: true }) as never,
    );
    const results = await spawn([task("a"), task("b")], { runner });
    expect(results[0]?.status).toBe("failure");
    expect(results[0]?.summary).toBe(
      'Subagent "a" returned an unusable result: its output does not match the subagent output format (see issues).',
    );
    expect(results[0]?.issues?.map((issue) => issue.path).sort()).toEqual([
      "/files-modified",
      "/status",
      "/summary",
    ]);
    expect(results[1]?.status).toBe("failure");
    expect(results[1]?.issues).toEqual([
      {
        path: "/extra",
        message:
          'Unknown field "extra" at the top level. Allowed: status, summary, files-modified, notes, recommended-action, context-sha256.',
      },
    ]);
  });

  it("turns text that is not JSON into a failure", async () => {
    const runner = { name: "text", run: async () => ({ output: "Done! I fixed it." }) };
    const [result] = await spawn([task("a")], { runner });
    expect(result?.status).toBe("failure");
    expect(result?.issues?.[0]?.message).toMatch(/^not JSON: /);
  });

  it("turns a runner that throws into a failure with its message", async () => {
    const { runner } = recordingRunner(({ id }) => {
      if (id === "a") throw new Error("model quota exceeded");
      return success();
    });
    const results = await spawn([task("a"), task("b")], { runner });
    expect(results[0]).toMatchObject({ status: "failure", summary: "model quota exceeded" });
    expect(results[1]?.status).toBe("success");
  });

  it("returns results in input order whatever the finish order", async () => {
    const finishOrder = ["d", "b", "c", "a"];
    const finished: string[] = [];
    const gates = new Map(finishOrder.map((id) => [id, deferred()]));
    const releaseInOrder = async () => {
      for (const id of finishOrder) {
        gates.get(id)?.resolve();
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    let started = 0;
    const { runner } = recordingRunner(async ({ id }) => {
      // Once all four run, they finish one by one in finishOrder.
      if (++started === gates.size) void releaseInOrder();
      await gates.get(id)?.promise;
      finished.push(id);
      return success(id);
    });
    const results = await spawn(
      ["a", "b", "c", "d"].map((id) => task(id)),
      { runner },
    );
    expect(finished).toEqual(finishOrder);
    expect(results.map((result) => result.summary)).toEqual(["a", "b", "c", "d"]);
  });

  it("returns [] for an empty task list without creating anything", async () => {
    expect(await spawn([])).toEqual([]);
    expect(await entries(fixture.workspacesRoot)).toBeUndefined();
  });
});

describe("spawnSubagents: arguments", () => {
  const cases: Array<[string, () => Promise<unknown>, string]> = [
    ["a bad id", () => spawn([task("../escape")]), "tasks[0].id"],
    ["an empty id", () => spawn([task("")]), "tasks[0].id"],
    ["a duplicate id", () => spawn([task("a"), task("b"), task("a")]), "tasks[2].id"],
    [
      "an unknown subagent type",
      () => spawn([task("a", { subagentType: "deploy" as never })]),
      "tasks[0].subagentType",
    ],
    ["an empty prompt", () => spawn([task("a", { prompt: " " })]), "tasks[0].prompt"],
    [
      "task data without a description",
      () => spawn([task("a", { taskData: {} as never })]),
      "tasks[0].taskData",
    ],
    ["a task timeout of 0", () => spawn([task("a", { timeoutMs: 0 })]), "tasks[0].timeoutMs"],
    ["a concurrency of 0", () => spawn([task("a")], { concurrency: 0 }), "options.concurrency"],
    ["a fractional timeout", () => spawn([task("a")], { timeoutMs: 1.5 }), "options.timeoutMs"],
    ["no runner", () => spawn([task("a")], { runner: undefined as never }), "options.runner"],
    [
      "an empty workspacesRoot",
      () => spawn([task("a")], { workspacesRoot: "" }),
      "options.workspacesRoot",
    ],
    ["tasks that are not an array", () => spawn({} as never), "tasks"],
    ["an empty parent path", () => spawn([task("a")], {}, ""), "parent"],
  ];
  for (const [name, call, argument] of cases) {
    it(`refuses ${name} with ArgumentError before anything happens`, async () => {
      const error: unknown = await call().catch((caught) => caught);
      expect(ArgumentError.isInstance(error)).toBe(true);
      expect((error as ArgumentError).argument).toBe(argument);
      expect(await entries(fixture.workspacesRoot)).toBeUndefined();
    });
  }

  it("treats a task without a subagentType as an implement task", async () => {
    const { runner, calls } = recordingRunner();
    const { subagentType: _, ...untyped } = task("plain");
    const [result] = await spawn([untyped as SubagentTask], { runner });
    expect(result?.status).toBe("success");
    expect(calls[0]?.subagentType).toBe("implement");
  });

  it("puts subagents in a new temporary directory when no workspacesRoot is given", async () => {
    const { runner } = recordingRunner();
    const [result] = await spawnSubagents(fixture.parent, [task("alt-text")], { runner });
    expect(result?.status).toBe("success");
    const directory = result?.directory ?? "";
    expect(dirname(directory).startsWith(join(tmpdir(), "task-context-subagents-"))).toBe(true);
    expect(await readFile(join(directory, "CONTEXT.md"), "utf8")).toBe(
      await readFile(join(fixture.parent, "CONTEXT.md"), "utf8"),
    );
    await rm(dirname(directory), { recursive: true, force: true });
  });

  it("refuses a workspacesRoot that is a file", async () => {
    await writeFile(join(fixture.base, "file"), "not a directory");
    await expect(
      spawn([task("a")], { workspacesRoot: join(fixture.base, "file") }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT", argument: "options.workspacesRoot" });
  });

  it("refuses existing subagent directories before anything starts, and deletes nothing", async () => {
    await mkdir(join(fixture.workspacesRoot, "b"), { recursive: true });
    await writeFile(join(fixture.workspacesRoot, "b", "keep.txt"), "mine");
    const { runner, calls } = recordingRunner();
    const error = await spawn([task("a"), task("b")], { runner }).catch((caught) => caught);
    expect(SubagentWorkspaceExistsError.isInstance(error)).toBe(true);
    expect(error.paths).toEqual([join(fixture.workspacesRoot, "b")]);
    expect(calls).toHaveLength(0);
    expect(await entries(fixture.workspacesRoot)).toEqual(["b"]);
    expect(await readFile(join(fixture.workspacesRoot, "b", "keep.txt"), "utf8")).toBe("mine");
  });

  it("fails only the subagent whose directory appeared after the check", async () => {
    const { runner } = recordingRunner(async ({ id }) => {
      if (id === "a") await mkdir(join(fixture.workspacesRoot, "b"));
      return success();
    });
    const results = await spawn([task("a"), task("b")], { runner, concurrency: 1 });
    expect(results[0]?.status).toBe("success");
    expect(results[1]?.status).toBe("failure");
    expect(results[1]?.summary).toContain("already exists");
    expect(await entries(join(fixture.workspacesRoot, "b"))).toEqual([]);
  });
});

describe("spawnSubagents: concurrency, timeouts, abort and hooks", () => {
  it("runs at most `concurrency` subagents at once", async () => {
    /** A runner that holds each subagent until `limit` run at once or no more can start. */
    const holding = (limit: number, total: number) => {
      let running = 0;
      let started = 0;
      let most = 0;
      let release = deferred();
      const { runner } = recordingRunner(async () => {
        running++;
        started++;
        most = Math.max(most, running);
        const held = release.promise;
        if (running === limit || started === total) {
          release.resolve();
          release = deferred();
        }
        await held;
        running--;
        return success();
      });
      return { runner, most: () => most };
    };
    const tasks = Array.from({ length: 7 }, (_, index) => task(`t${index}`));
    const two = holding(2, tasks.length);
    await spawn(tasks, { runner: two.runner, concurrency: 2 });
    expect(two.most()).toBe(2);
    const four = holding(4, tasks.length);
    await spawn(
      tasks.map((item) => ({ ...item, id: `${item.id}-again` })),
      { runner: four.runner },
    );
    expect(four.most()).toBe(4);
  });

  it("times a subagent out, aborts its signal, and lets the others finish", async () => {
    const signals: Record<string, AbortSignal> = {};
    const { runner } = recordingRunner(async ({ id, signal }) => {
      signals[id] = signal;
      if (id === "slow") return untilAborted(signal);
      await sleep(20);
      return success(id);
    });
    const results = await spawn([task("slow", { timeoutMs: 50 }), task("fast")], { runner });
    expect(results[0]).toMatchObject({
      status: "timeout",
      summary: 'Subagent "slow" did not finish within 50 ms and was stopped.',
      filesModified: [],
      contextIntegrity: "intact",
    });
    expect(signals.slow?.aborted).toBe(true);
    expect((signals.slow?.reason as DOMException | undefined)?.name).toBe("TimeoutError");
    expect(results[1]).toMatchObject({ status: "success", summary: "fast" });
    expect(signals.fast?.aborted).toBe(false);
  });

  it("stops waiting for a function that ignores its signal", async () => {
    const { runner } = recordingRunner(() => new Promise(() => {}));
    const [result] = await spawn([task("stuck")], { runner, timeoutMs: 30 });
    expect(result?.status).toBe("timeout");
  });

  it("aborts everything without starting when the signal is aborted before the call", async () => {
    const controller = new AbortController();
    controller.abort();
    const { runner, calls } = recordingRunner();
    const spawned: string[] = [];
    const reported: SubagentResult[] = [];
    const results = await spawn([task("a"), task("b"), task("c")], {
      runner,
      signal: controller.signal,
      onSpawn: (event) => spawned.push(event.id),
      onResult: (result) => reported.push(result),
    });
    expect(results.map((result) => [result.id, result.status, result.durationMs])).toEqual([
      ["a", "aborted", 0],
      ["b", "aborted", 0],
      ["c", "aborted", 0],
    ]);
    expect(results[0]?.summary).toBe('Subagent "a" was not started: the spawn was aborted.');
    expect(calls).toHaveLength(0);
    expect(spawned).toEqual([]);
    expect(reported.map((result) => result.id).sort()).toEqual(["a", "b", "c"]);
    expect(await entries(fixture.workspacesRoot)).toBeUndefined();
  });

  it("aborts running subagents and starts no more when the signal aborts during the run", async () => {
    const controller = new AbortController();
    const { runner, calls } = recordingRunner(async ({ signal }) => {
      // Both running: the user cancels.
      if (calls.length === 2) controller.abort(new Error("user cancelled"));
      return untilAborted(signal);
    });
    const results = await spawn([task("a"), task("b"), task("c")], {
      runner,
      concurrency: 2,
      signal: controller.signal,
    });
    expect(results.map((result) => result.status)).toEqual(["aborted", "aborted", "aborted"]);
    expect(results[0]?.summary).toBe('Subagent "a" was aborted: user cancelled');
    expect(calls.map((call) => call.id)).toEqual(["a", "b"]);
    expect(calls.every((call) => call.signal.aborted)).toBe(true);
    expect(await entries(fixture.workspacesRoot)).toEqual(["a", "b"]);
    expect(results[2]?.durationMs).toBe(0);
  });

  it("calls onSpawn before and onResult after each subagent, once each", async () => {
    const events: string[] = [];
    const spawnEvents: SubagentSpawnEvent[] = [];
    const { runner } = recordingRunner(({ id }) => {
      events.push(`run ${id}`);
      return success();
    });
    const results = await spawn([task("a"), task("b"), task("c")], {
      runner,
      concurrency: 1,
      onSpawn: (event) => {
        spawnEvents.push(event);
        events.push(`spawn ${event.id}`);
      },
      onResult: (result) => events.push(`result ${result.id} ${result.status}`),
    });
    expect(events).toEqual([
      "spawn a",
      "run a",
      "result a success",
      "spawn b",
      "run b",
      "result b success",
      "spawn c",
      "run c",
      "result c success",
    ]);
    expect(spawnEvents[0]).toEqual({
      id: "a",
      subagentType: "implement",
      directory: join(fixture.workspacesRoot, "a"),
      contextFile: ".sage/context/a.xml",
      prompt: "Do a.",
      contextSha256: sha256(CONTEXT),
    });
    expect(results).toHaveLength(3);
  });

  it("calls the hooks once per subagent when they run concurrently", async () => {
    const spawned: string[] = [];
    const reported: string[] = [];
    const tasks = Array.from({ length: 9 }, (_, index) => task(`t${index}`));
    await spawn(tasks, {
      concurrency: 3,
      onSpawn: (event) => spawned.push(event.id),
      onResult: (result) => reported.push(result.id),
    });
    expect(spawned.sort()).toEqual(tasks.map((item) => item.id).sort());
    expect(reported.sort()).toEqual(tasks.map((item) => item.id).sort());
  });

  it("shows an error thrown by a hook as a warning instead of failing the spawn", async () => {
    const [result] = await spawn([task("a")], {
      onSpawn: () => {
        throw new Error("log sink down");
      },
      onResult: () => {
        throw new Error("still down");
      },
    });
    expect(result?.status).toBe("success");
    expect(result?.warning).toBe(
      "The onSpawn hook threw: log sink down The onResult hook threw: still down",
    );
  });
});
