// Conformance of @task-context/spawner's built output on Node 20, Node 24, Bun and Deno: in-process
// and child-process subagents, the read-only CONTEXT.md copy and its integrity check.
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { memoryWorkspace } from "@task-context/core";
import {
  ContextReadOnlyError,
  childProcessRunner,
  functionRunner,
  protectInheritedContext,
  type SubagentOutput,
  spawnSubagents,
} from "@task-context/spawner";
import { describe, expect, it } from "vitest";
import { stopWhenReady } from "../src/test-support/fixtures.ts";

const CONTEXT = "# Task context\nWe are building Lumen, a note-taking app for researchers.";
const success = (summary: string): SubagentOutput => ({
  status: "success",
  summary,
  "files-modified": [],
});

async function withParent(run: (parent: string, root: string, base: string) => Promise<void>) {
  const base = await mkdtemp(join(tmpdir(), "task-context-spawner-conformance-"));
  const parent = join(base, "parent");
  await mkdir(parent);
  await writeFile(join(parent, "CONTEXT.md"), CONTEXT);
  try {
    await run(parent, join(base, "subagents"), base);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/** This runtime's own executable running `script` (a file): node, bun, or `deno run -A`. */
function runtimeCommand(script: string): { command: string; args: string[] } {
  const runtime = globalThis as { Deno?: unknown };
  if (runtime.Deno !== undefined) {
    return {
      command: process.execPath,
      args: ["run", "-A", "--no-config", "--no-lock", "--no-npm", "--no-remote", script],
    };
  }
  return { command: process.execPath, args: [script] };
}

const ANSWER_SCRIPT = `import process from "node:process";
import { readFileSync } from "node:fs";
let prompt = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) prompt += chunk;
const xml = readFileSync(process.env.TASK_CONTEXT_CONTEXT_FILE, "utf8");
process.stdout.write(JSON.stringify({
  status: "success",
  summary: prompt,
  "files-modified": [],
  notes: JSON.stringify({
    id: process.env.TASK_CONTEXT_TASK_ID,
    workspace: process.env.TASK_CONTEXT_WORKSPACE,
    cwd: process.cwd(),
    context: readFileSync("CONTEXT.md", "utf8"),
    hasXml: xml.includes("<subagent-context"),
  }),
}));
`;

describe("@task-context/spawner", () => {
  it("refuses to spawn without CONTEXT.md, before anything is created", () =>
    withParent(async (parent, root) => {
      await rm(join(parent, "CONTEXT.md"));
      let called = false;
      await expect(
        spawnSubagents(parent, [{ id: "a", subagentType: "plan", prompt: "Plan." }], {
          runner: functionRunner(() => {
            called = true;
            return success("x");
          }),
          workspacesRoot: root,
        }),
      ).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING" });
      expect(called).toBe(false);
      expect(await exists(root)).toBe(false);
    }));

  it("3 in-process subagents: read-only copies, integrity, Sage files, input order", () =>
    withParent(async (parent, root) => {
      const refusals: string[] = [];
      const runner = functionRunner(async ({ id, workspace, directory, contextFile }) => {
        const xml = new TextDecoder().decode((await workspace.readFile(contextFile)).bytes);
        expect(xml, "the Sage file names the task").toContain(`<id>${id}</id>`);
        if (id === "writer") {
          await workspace.writeFile("CONTEXT.md", "hijacked").catch((error: unknown) => {
            if (ContextReadOnlyError.isInstance(error)) refusals.push(error.code);
          });
          await workspace.writeFile("notes.md", "fine");
        }
        if (id === "tamperer") {
          const copy = join(directory, "CONTEXT.md");
          await chmod(copy, 0o644);
          await writeFile(copy, "Something else entirely.");
        }
        if (id === "writer") await new Promise((resolve) => setTimeout(resolve, 30));
        return success(id);
      });
      const results = await spawnSubagents(
        parent,
        [
          { id: "writer", subagentType: "implement", prompt: "Write." },
          { id: "tamperer", subagentType: "fix", prompt: "Fix." },
          { id: "reviewer", subagentType: "review", prompt: "Review." },
        ],
        { runner, workspacesRoot: root },
      );
      expect(results.map((result) => [result.id, result.status, result.summary])).toStrictEqual([
        ["writer", "success", "writer"],
        ["tamperer", "success", "tamperer"],
        ["reviewer", "success", "reviewer"],
      ]);
      expect(refusals).toStrictEqual(["CONTEXT_READ_ONLY"]);
      expect(results.map((result) => result.contextIntegrity)).toStrictEqual([
        "intact",
        "modified",
        "intact",
      ]);
      expect(results[1]?.warning).toContain("copy of CONTEXT.md was changed");
      for (const id of ["writer", "reviewer"]) {
        const copy = join(root, id, "CONTEXT.md");
        expect(await readFile(copy, "utf8")).toBe(CONTEXT);
        expect((await stat(copy)).mode & 0o777).toBe(0o444);
        expect(await exists(join(root, id, `.sage/context/${id}.xml`))).toBe(true);
      }
      expect(await readFile(join(root, "writer", "notes.md"), "utf8")).toBe("fine");
      expect(await readFile(join(parent, "CONTEXT.md"), "utf8")).toBe(CONTEXT);
    }));

  it("1 child-process subagent of this runtime: stdin prompt, environment, inherited context", () =>
    withParent(async (parent, root, base) => {
      const script = join(base, "answer.mjs");
      await writeFile(script, ANSWER_SCRIPT);
      const [result] = await spawnSubagents(
        parent,
        [{ id: "child", subagentType: "test", prompt: "Write the tests ✓" }],
        { runner: childProcessRunner(runtimeCommand(script)), workspacesRoot: root },
      );
      expect(result?.status, result?.summary).toBe("success");
      expect(result?.summary).toBe("Write the tests ✓");
      expect(result?.contextIntegrity).toBe("intact");
      const directory = join(root, "child");
      expect(JSON.parse(result?.notes ?? "{}")).toStrictEqual({
        id: "child",
        workspace: directory,
        cwd: directory,
        context: CONTEXT,
        hasXml: true,
      });
    }));

  it("stops a hung child process on timeout without holding up the others", () =>
    withParent(async (parent, root, base) => {
      const script = join(base, "hang.mjs");
      await writeFile(script, "setInterval(() => {}, 1000);\n");
      const hang = childProcessRunner({ ...runtimeCommand(script), killGraceMs: 500 });
      const results = await spawnSubagents(
        parent,
        [
          { id: "hung", subagentType: "plan", prompt: "Plan.", timeoutMs: 500 },
          { id: "quick", subagentType: "plan", prompt: "Plan." },
        ],
        {
          runner: {
            name: "mixed",
            stopGraceMs: hang.stopGraceMs ?? 0,
            run: (invocation) =>
              invocation.id === "hung"
                ? hang.run(invocation)
                : Promise.resolve({ output: success("quick") }),
          },
          workspacesRoot: root,
        },
      );
      expect(results.map((result) => result.status)).toStrictEqual(["timeout", "success"]);
    }));

  it("kills the whole process group on timeout: no orphaned grandchild", () =>
    withParent(async (parent, root) => {
      const [result] = await spawnSubagents(
        parent,
        [{ id: "hung", subagentType: "plan", prompt: "Plan.", timeoutMs: 300 }],
        {
          // Stopped once the grandchild's pid is written, however slowly the machine starts sh.
          runner: stopWhenReady(
            childProcessRunner({
              command: "/bin/sh",
              args: ["-c", "sleep 60 & echo $! > grandchild.pid; wait"],
              killGraceMs: 500,
            }),
            "grandchild.pid",
          ),
          workspacesRoot: root,
        },
      );
      expect(result?.status).toBe("timeout");
      const pid = (await readFile(join(root, "hung", "grandchild.pid"), "utf8")).trim();
      // Gone, or a zombie waiting for init to reap it: either way no longer running.
      const state = await readFile(`/proc/${pid}/stat`, "utf8").then(
        (stat) => stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3),
        () => "gone",
      );
      expect(["gone", "Z"], `grandchild ${pid} is in state ${state}`).toContain(state);
    }));

  it("turns a program that cannot start into a failure", () =>
    withParent(async (parent, root, base) => {
      const [result] = await spawnSubagents(
        parent,
        [{ id: "missing", subagentType: "plan", prompt: "Plan." }],
        {
          runner: childProcessRunner({ command: join(base, "no-such-agent") }),
          workspacesRoot: root,
        },
      );
      expect(result?.status).toBe("failure");
      expect(result?.summary.startsWith("Could not start subagent process"), result?.summary).toBe(
        true,
      );
    }));

  it("puts the truncation warning on every result", () =>
    withParent(async (parent, root) => {
      await writeFile(join(parent, "CONTEXT.md"), "x".repeat(12_000));
      const results = await spawnSubagents(
        parent,
        [
          { id: "a", subagentType: "implement", prompt: "A." },
          { id: "b", subagentType: "implement", prompt: "B." },
        ],
        { runner: functionRunner(() => success("ok")), workspacesRoot: root },
      );
      for (const result of results) {
        expect(result.warning).toBe(
          "CONTEXT.md was truncated from 12000 to 10000 characters (limit 10000). Consider shortening it.",
        );
      }
    }));

  it("protects CONTEXT.md in a memory workspace", async () => {
    const workspace = protectInheritedContext(memoryWorkspace({ "CONTEXT.md": CONTEXT }));
    await expect(workspace.writeFile("./context.md", "x")).rejects.toMatchObject({
      code: "CONTEXT_READ_ONLY",
    });
    await workspace.writeFile("notes.md", "fine");
    expect(new TextDecoder().decode((await workspace.readFile("CONTEXT.md")).bytes)).toBe(CONTEXT);
  });
});
