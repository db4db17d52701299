import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { ArgumentError } from "@task-context/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ChildProcessRunnerOptions, childProcessRunner } from "./child-process-runner.ts";
import { SubagentProcessError } from "./errors/subagent-process-error.ts";
import type { SpawnOptions } from "./spawn-options.ts";
import { spawnSubagents } from "./spawn-subagents.ts";
import type { SubagentTask } from "./subagent-task.ts";
import { CONTEXT, createFixture, type Fixture, isRunning, sleep } from "./test-support/fixtures.ts";

let fixture: Fixture;
beforeEach(async () => {
  fixture = await createFixture();
});
afterEach(async () => {
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

/** Polls `process.kill(pid, 0)` until it throws; returns its error code ("ESRCH") or "alive". */
async function waitForEsrch(pid: number, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
    if (Date.now() > deadline) return "alive";
    await sleep(50);
  }
}

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
    expect(result?.notes).toMatch(/^mine\n\nSubagent stderr \(end\):\n…x+THE END$/);
    expect((result?.notes ?? "").length).toBeLessThan(120);
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
    expect(result?.summary).toMatch(
      /^Could not start subagent process ".*no-such-agent": .*ENOENT/,
    );
  });

  it("no orphans: a timeout kills the whole process group, grandchildren included", async () => {
    const runner = childProcessRunner({
      command: "/bin/sh",
      args: ["-c", "sleep 60 & echo $! > grandchild.pid; wait"],
      killGraceMs: 500,
    });
    const started = performance.now();
    const results = await spawn([task("hung", { timeoutMs: 300 }), task("fine")], {
      runner: {
        name: "mixed",
        stopGraceMs: runner.stopGraceMs ?? 0,
        run: (invocation) =>
          invocation.id === "hung" ? runner.run(invocation) : node(ANSWER).run(invocation),
      },
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(results[0]).toMatchObject({
      status: "timeout",
      summary: 'Subagent "hung" did not finish within 300 ms and was stopped.',
    });
    expect(results[1]?.status).toBe("success");
    const pid = Number(
      await readFile(join(fixture.workspacesRoot, "hung", "grandchild.pid"), "utf8"),
    );
    expect(pid).toBeGreaterThan(1);
    // Dead at once; a zombie at most, until PID 1 reaps it (this machine's init does so every ~2 s).
    expect(isRunning(pid)).toBe(false);
    const reaped = await waitForEsrch(pid, 15_000);
    expect(reaped).toBe("ESRCH");
  });

  it("sends SIGKILL after the grace period to a process that ignores SIGTERM", async () => {
    const script = `
      process.on("SIGTERM", () => {});
      require("node:fs").writeFileSync("child.pid", String(process.pid));
      setInterval(() => {}, 1000);
    `;
    const started = performance.now();
    const [result] = await spawn([task("stubborn", { timeoutMs: 300 })], {
      runner: node(script, { killGraceMs: 200 }),
    });
    expect(result?.status).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(3_000);
    const pid = Number(
      await readFile(join(fixture.workspacesRoot, "stubborn", "child.pid"), "utf8"),
    );
    expect(isRunning(pid)).toBe(false);
  });

  it("kills the process group on abort and keeps the end of stderr", async () => {
    const controller = new AbortController();
    const script = `
      const { spawn } = require("node:child_process");
      const grandchild = spawn("sleep", ["60"], { stdio: "ignore" });
      require("node:fs").writeFileSync("grandchild.pid", String(grandchild.pid));
      console.error("working on it");
      setInterval(() => {}, 1000);
    `;
    const results = await spawn([task("a"), task("b")], {
      runner: node(script, { killGraceMs: 300 }),
      signal: controller.signal,
      onSpawn: (event) => {
        if (event.id === "b") setTimeout(() => controller.abort(), 400);
      },
    });
    expect(results.map((result) => result.status)).toEqual(["aborted", "aborted"]);
    expect(results[0]?.notes).toBe("Subagent stderr (end):\nworking on it");
    for (const id of ["a", "b"]) {
      const pid = Number(
        await readFile(join(fixture.workspacesRoot, id, "grandchild.pid"), "utf8"),
      );
      expect(isRunning(pid)).toBe(false);
    }
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
    const pid = Number(await readFile(join(fixture.workspacesRoot, "a", "grandchild.pid"), "utf8"));
    for (let attempt = 0; attempt < 50 && isRunning(pid); attempt++) await sleep(20);
    expect(isRunning(pid)).toBe(false);
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
        signal: new AbortController().signal,
      })
      .catch((caught) => caught);
    expect(SubagentProcessError.isInstance(error)).toBe(true);
    expect(error.log).toBe("nope");
  });
});
