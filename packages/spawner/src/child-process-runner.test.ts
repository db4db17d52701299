import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { ArgumentError } from "@task-context/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ChildProcessRunnerOptions, childProcessRunner } from "./child-process-runner.ts";
import { SubagentProcessError } from "./errors/subagent-process-error.ts";
import type { SpawnOptions } from "./spawn-options.ts";
import { spawnSubagents } from "./spawn-subagents.ts";
import type { SubagentTask } from "./subagent-task.ts";
import {
  CONTEXT,
  createFixture,
  type Fixture,
  isRunning,
  stopWhenReady,
  waitFor,
} from "./test-support/fixtures.ts";

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fixture.cleanup();
});

const task = (id: string, overrides: Partial<SubagentTask> = {}): SubagentTask => ({
  id,
  subagentType: "implement",
  prompt: `Do ${id}.`,
  ...overrides,
});

/** A runner of `node -e script` (CommonJS), as the subagent process. */
const node = (script: string, options: Partial<ChildProcessRunnerOptions> = {}) =>
  childProcessRunner({ command: process.execPath, args: ["-e", script], ...options });

/** True once `process.kill(pid, 0)` fails with ESRCH: the process is gone and reaped. */
function reaped(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === "ESRCH";
  }
}

const pidIn = async (id: string, file: string) =>
  Number(await readFile(join(fixture.workspacesRoot, id, file), "utf8"));

const spawn = (tasks: SubagentTask[], options: Partial<SpawnOptions>) =>
  spawnSubagents(fixture.parent, tasks, {
    runner: node("process.exit(1)"),
    workspacesRoot: fixture.workspacesRoot,
    ...options,
  });

const ANSWER = `
let prompt = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { prompt += chunk; });
process.stdin.on("end", () => {
  const fs = require("node:fs");
  const context = fs.readFileSync(process.env.TASK_CONTEXT_CONTEXT_FILE, "utf8");
  process.stdout.write(JSON.stringify({
    status: "success",
    summary: prompt,
    "files-modified": [],
    "context-sha256": process.env.TASK_CONTEXT_SHA256,
    notes: JSON.stringify({
      cwd: process.cwd(),
      workspace: process.env.TASK_CONTEXT_WORKSPACE,
      id: process.env.TASK_CONTEXT_TASK_ID,
      type: process.env.TASK_CONTEXT_SUBAGENT_TYPE,
      contextFile: process.env.TASK_CONTEXT_CONTEXT_FILE,
      inherited: fs.readFileSync("CONTEXT.md", "utf8"),
      extra: process.env.EXTRA ?? null,
      removed: process.env.HOME ?? null,
      hasXml: context.includes("<subagent-context"),
    }),
  }));
});
`;

describe("childProcessRunner", () => {
  it("hands over the prompt on stdin and the workspace in cwd and the environment", async () => {
    const runner = node(ANSWER, { env: { EXTRA: "yes", HOME: undefined } });
    const [result] = await spawn([task("a", { subagentType: "test", prompt: "Write tests ✓" })], {
      runner,
    });
    expect(result?.status).toBe("success");
    expect(result?.summary).toBe("Write tests ✓");
    // It quoted TASK_CONTEXT_SHA256 back: the receipt of what it was given, and current.
    expect(result?.contextSha256).toBe(createHash("sha256").update(CONTEXT).digest("hex"));
    expect(result?.warning).toBeUndefined();
    const directory = join(fixture.workspacesRoot, "a");
    expect(JSON.parse(result?.notes ?? "")).toEqual({
      cwd: directory,
      workspace: directory,
      id: "a",
      type: "test",
      contextFile: ".sage/context/a.xml",
      inherited: CONTEXT,
      extra: "yes",
      removed: null,
      hasXml: true,
    });
  });

  it("turns stdout that is not JSON into a failure with issues", async () => {
    const [result] = await spawn([task("a")], {
      runner: node('console.log("All done, boss!")'),
    });
    expect(result?.status).toBe("failure");
    expect(result?.summary).toBe(
      'Subagent "a" returned an unusable result: its output is not JSON (see issues).',
    );
    expect(result?.issues).toEqual([{ path: "", message: expect.stringMatching(/^not JSON: /) }]);
  });

  it("turns a non-zero exit into a failure with the end of stderr in notes", async () => {
    const [result] = await spawn([task("a")], {
      runner: node('console.error("boom: missing API key"); process.exit(3)'),
    });
    expect(result).toMatchObject({
      status: "failure",
      summary: "Subagent process exited with code 3.",
      notes: "Subagent stderr (end):\nboom: missing API key",
    });
  });

  it("keeps only the end of a long stderr, and adds it to the subagent's own notes", async () => {
    const script = `
      process.stderr.write("x".repeat(100000) + "THE END\\n");
      process.stdout.write(JSON.stringify({ status: "success", summary: "ok", "files-modified": [], notes: "mine" }));
    `;
    const [result] = await spawn([task("a")], { runner: node(script, { maxLogBytes: 64 }) });
    expect(result?.status).toBe("success");
    // The last 64 bytes: 56 × "x", "THE END" and the newline, which is trimmed.
    expect(result?.notes).toBe(`mine\n\nSubagent stderr (end):\n…${"x".repeat(56)}THE END`);
  });

  it("stops a process that writes more than maxOutputBytes to stdout", async () => {
    const script =
      'const chunk = "y".repeat(65536); setInterval(() => process.stdout.write(chunk), 1);';
    const [result] = await spawn([task("a")], {
      runner: node(script, { maxOutputBytes: 200_000 }),
    });
    expect(result).toMatchObject({
      status: "failure",
      summary: "Subagent process wrote more than 200000 bytes to stdout; it was stopped.",
    });
  });

  it("turns a command that cannot start into a failure", async () => {
    const [result] = await spawn([task("a")], {
      runner: childProcessRunner({ command: join(fixture.base, "no-such-agent") }),
    });
    expect(result?.status).toBe("failure");
    expect(result?.summary).toBe(
      `Could not start subagent process ${JSON.stringify(join(fixture.base, "no-such-agent"))}: the program does not exist (ENOENT). Check the command's path.`,
    );
  });

  it("no orphans: a timeout kills the whole process group, grandchildren included", async () => {
    const runner = stopWhenReady(
      childProcessRunner({
        command: "/bin/sh",
        args: ["-c", "sleep 60 & echo $! > grandchild.pid; wait"],
        killGraceMs: 500,
      }),
      "grandchild.pid",
    );
    const results = await spawn([task("hung", { timeoutMs: 300 }), task("fine")], {
      runner: {
        name: "mixed",
        stopGraceMs: runner.stopGraceMs ?? 0,
        run: (invocation) =>
          invocation.id === "hung" ? runner.run(invocation) : node(ANSWER).run(invocation),
      },
    });
    expect(results[0]).toMatchObject({
      status: "timeout",
      summary: 'Subagent "hung" did not finish within 300 ms and was stopped.',
    });
    expect(results[1]?.status).toBe("success");
    const pid = await pidIn("hung", "grandchild.pid");
    expect(pid).toBeGreaterThan(1);
    // Dead when the result arrives; a zombie at most, until PID 1 reaps it.
    expect(isRunning(pid)).toBe(false);
    await waitFor(() => reaped(pid), `the reaping of grandchild ${pid}`);
  });

  it("sends SIGKILL after the grace period to a process that ignores SIGTERM", async () => {
    const script = `
      const fs = require("node:fs");
      process.on("SIGTERM", () => fs.writeFileSync("survived-sigterm", ""));
      fs.writeFileSync("child.pid", String(process.pid));
      setInterval(() => {}, 1000);
    `;
    // The grace starts when SIGTERM is sent, but a busy machine may run the child's handler later
    // than that: its SIGKILL waits for the handler too (the grace's length is not what is tested).
    const killGraceMs = 200;
    const survived = join(fixture.workspacesRoot, "stubborn", "survived-sigterm");
    const { setTimeout } = globalThis;
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((
      callback: (...values: unknown[]) => void,
      delay?: number,
      ...values: unknown[]
    ) =>
      setTimeout(
        delay === killGraceMs
          ? () =>
              void waitFor(() => existsSync(survived), "the child's SIGTERM handler").then(() =>
                callback(),
              )
          : callback,
        delay,
        ...values,
      )) as typeof globalThis.setTimeout);
    const [result] = await spawn([task("stubborn", { timeoutMs: 300 })], {
      runner: stopWhenReady(node(script, { killGraceMs }), "child.pid"),
    });
    expect(result).toMatchObject({
      status: "timeout",
      summary: 'Subagent "stubborn" did not finish within 300 ms and was stopped.',
    });
    // It got SIGTERM, lived on, and is gone: SIGKILL ended it.
    expect(existsSync(join(fixture.workspacesRoot, "stubborn", "survived-sigterm"))).toBe(true);
    expect(isRunning(await pidIn("stubborn", "child.pid"))).toBe(false);
  });

  it("kills the process group on abort and keeps the end of stderr", async () => {
    const controller = new AbortController();
    // stderr first: pipes are synchronous on POSIX, so it is written before the pid file exists.
    const script = `
      const { spawn } = require("node:child_process");
      const grandchild = spawn("sleep", ["60"], { stdio: "ignore" });
      console.error("working on it");
      require("node:fs").writeFileSync("grandchild.pid", String(grandchild.pid));
      setInterval(() => {}, 1000);
    `;
    const ready = ["a", "b"].map((id) => join(fixture.workspacesRoot, id, "grandchild.pid"));
    const results = await spawn([task("a"), task("b")], {
      runner: node(script, { killGraceMs: 300 }),
      signal: controller.signal,
      onSpawn: (event) => {
        if (event.id !== "b") return;
        void waitFor(() => ready.every((file) => existsSync(file)), "both pid files").then(() =>
          controller.abort(),
        );
      },
    });
    expect(results.map((result) => result.status)).toEqual(["aborted", "aborted"]);
    expect(results[0]?.notes).toBe("Subagent stderr (end):\nworking on it");
    for (const id of ["a", "b"]) expect(isRunning(await pidIn(id, "grandchild.pid"))).toBe(false);
  });

  it("stops what an exited process left running in its group", async () => {
    const script = `
      const { spawn } = require("node:child_process");
      const grandchild = spawn("sleep", ["60"], { stdio: "ignore" });
      require("node:fs").writeFileSync("grandchild.pid", String(grandchild.pid));
      grandchild.unref();
      process.stdout.write(JSON.stringify({ status: "success", summary: "ok", "files-modified": [] }));
    `;
    const [result] = await spawn([task("a")], { runner: node(script) });
    expect(result?.status).toBe("success");
    const pid = await pidIn("a", "grandchild.pid");
    await waitFor(() => !isRunning(pid), `the end of grandchild ${pid}`);
  });

  it("leaves CONTEXT.md read-only (mode 0444) for the process", async () => {
    const [result] = await spawn([task("a")], { runner: node(ANSWER) });
    expect(result?.contextIntegrity).toBe("intact");
    const mode = (await stat(join(fixture.workspacesRoot, "a", "CONTEXT.md"))).mode & 0o777;
    expect(mode).toBe(0o444);
  });

  it("refuses unusable options", () => {
    for (const options of [
      { command: "" },
      { command: "x", killGraceMs: -1 },
      { command: "x", maxOutputBytes: 0 },
      { command: "x", maxLogBytes: 1.5 },
    ]) {
      expect(() => childProcessRunner(options)).toThrow(ArgumentError);
    }
  });

  it("rejects with SubagentProcessError carrying the stderr tail", async () => {
    const runner = node('console.error("nope"); process.exit(2)');
    const error = await runner
      .run({
        id: "a",
        subagentType: "plan",
        prompt: "",
        directory: fixture.parent,
        workspace: undefined as never,
        contextFile: ".sage/context/a.xml",
        contextSha256: "0".repeat(64),
        signal: new AbortController().signal,
      })
      .catch((caught) => caught);
    expect(SubagentProcessError.isInstance(error)).toBe(true);
    expect(error.log).toBe("nope");
  });
});
