// Benchmarks of @task-context/spawner's built output against baselines measured in the same run.
// Run: `pnpm run build && pnpm run bench` here (Node 24 from the root devDependency).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, microseconds, milliseconds } from "@task-context/bench-kit";
import {
  childProcessRunner,
  functionRunner,
  type SubagentOutput,
  type SubagentRunner,
  spawnSubagents,
} from "@task-context/spawner";

const paragraph =
  "We are building Lumen, a note-taking app for researchers. LUMEN on screenshots is the wordmark, never a hospital. Deep teal, warm white, Inter. ";
const textOf = (length: number) =>
  paragraph.repeat(Math.ceil(length / paragraph.length)).slice(0, length);

/** Runs `work(index)` for every index, at most `concurrency` at a time. */
async function pool(count: number, concurrency: number, work: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(count, concurrency) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** Nanoseconds `run(root)` takes, with a fresh, not yet existing `root` each call. */
async function timed(directory: string, run: (root: string) => Promise<void>): Promise<number> {
  const root = join(directory, `round-${crypto.randomUUID()}`);
  const start = process.hrtime.bigint();
  await run(root);
  const elapsed = Number(process.hrtime.bigint() - start);
  await rm(root, { recursive: true, force: true });
  return elapsed;
}

/** Alternates candidate and baseline rounds; returns the medians per subagent and their ratio. */
async function compare(
  directory: string,
  perRound: number,
  rounds: number,
  candidate: (root: string) => Promise<void>,
  baseline: (root: string) => Promise<void>,
) {
  for (let warm = 0; warm < 3; warm++) {
    await timed(directory, candidate);
    await timed(directory, baseline);
  }
  const candidateTimes: number[] = [];
  const baselineTimes: number[] = [];
  // Alternate which goes first, so that neither always runs right after the other's cleanup.
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      baselineTimes.push((await timed(directory, baseline)) / perRound);
      candidateTimes.push((await timed(directory, candidate)) / perRound);
    } else {
      candidateTimes.push((await timed(directory, candidate)) / perRound);
      baselineTimes.push((await timed(directory, baseline)) / perRound);
    }
  }
  const result = { candidate: median(candidateTimes), baseline: median(baselineTimes) };
  return { ...result, ratio: result.candidate / result.baseline };
}

const directory = await mkdtemp(join(tmpdir(), "task-context-spawner-bench-"));
const rows: string[] = [];

try {
  const parent = join(directory, "parent");
  await mkdir(parent);
  await writeFile(join(parent, "CONTEXT.md"), textOf(10_000));
  const success: SubagentOutput = { status: "success", summary: "done", "files-modified": [] };

  // 1. 100 in-process subagents (a trivial function) against mkdir + copyFile of the same files.
  const count = 100;
  const tasks = Array.from({ length: count }, (_, index) => ({
    id: `task-${index}`,
    subagentType: "implement" as const,
    prompt: `Add Markdown export to menu ${index}; keep the existing keyboard shortcuts.`,
  }));
  const sample = join(directory, "sample");
  await spawnSubagents(parent, tasks.slice(0, 1), {
    runner: functionRunner(() => success),
    workspacesRoot: sample,
  });
  const xml = join(sample, "task-0", ".sage/context/task-0.xml");
  const xmlBytes = (await readFile(xml)).length;
  const runInProcess = async (root: string) => {
    await spawnSubagents(parent, tasks, {
      runner: functionRunner(() => success),
      workspacesRoot: root,
    });
  };
  // The same tree the spawner writes: {id}/CONTEXT.md and {id}/.sage/context/{id}.xml.
  const sameTree = async (root: string) => {
    await mkdir(root);
    await pool(count, 4, async (index) => {
      const target = join(root, `task-${index}`);
      await mkdir(join(target, ".sage/context"), { recursive: true });
      await copyFile(join(parent, "CONTEXT.md"), join(target, "CONTEXT.md"));
      await copyFile(xml, join(target, `.sage/context/task-${index}.xml`));
    });
  };
  // The least a copy needs: one directory, both files in it.
  const flat = async (root: string) => {
    await mkdir(root);
    await pool(count, 4, async (index) => {
      const target = join(root, `task-${index}`);
      await mkdir(target);
      await copyFile(join(parent, "CONTEXT.md"), join(target, "CONTEXT.md"));
      await copyFile(xml, join(target, "task.xml"));
    });
  };
  const label = `${count} in-process subagents, 10 KB CONTEXT.md, ${xmlBytes} B context XML, per subagent`;
  const inProcess = await compare(directory, count, 21, runInProcess, sameTree);
  rows.push(
    `| ${label} | ${microseconds(inProcess.candidate)} | same tree with fs.mkdir + 2 × fs.copyFile, 4 at a time: ${microseconds(inProcess.baseline)} | ${inProcess.ratio.toFixed(2)}× | ≤ 3× |`,
  );
  const inProcessFlat = await compare(directory, count, 21, runInProcess, flat);
  rows.push(
    `| ${label} | ${microseconds(inProcessFlat.candidate)} | one fs.mkdir + 2 × fs.copyFile (no .sage/context), 4 at a time: ${microseconds(inProcessFlat.baseline)} | ${inProcessFlat.ratio.toFixed(2)}× | (information) |`,
  );

  // 2. Child processes: `node -e` printing a result, against a bare child_process.spawn of it.
  const script = `process.stdout.write(${JSON.stringify(JSON.stringify(success))})`;
  const processes = 24;
  const childTasks = tasks.slice(0, processes);
  const work = join(directory, "work");
  await mkdir(work);
  const bareSpawn = (detached: boolean) => async () => {
    await pool(processes, 4, async () => {
      const output = await new Promise<string>((resolve, reject) => {
        const started = spawn(process.execPath, ["-e", script], { cwd: work, detached });
        const chunks: Buffer[] = [];
        started.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
        started.stdin.on("error", () => {}); // the script does not read its stdin
        started.stdin.end("Add Markdown export.");
        started.on("error", reject);
        started.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
      });
      JSON.parse(output);
    });
  };
  const runChildren = async (root: string) => {
    const results = await spawnSubagents(parent, childTasks, {
      runner: childProcessRunner({ command: process.execPath, args: ["-e", script] }),
      workspacesRoot: root,
    });
    if (results.some((result) => result.status !== "success")) throw new Error("a run failed");
  };
  for (const detached of [false, true]) {
    const child = await compare(directory, processes, 11, runChildren, bareSpawn(detached));
    rows.push(
      `| ${processes} child-process subagents (\`node -e\`), 4 at a time, per subagent | ${milliseconds(child.candidate)} | child_process.spawn of the same command${detached ? ", `detached: true` as the runner spawns" : ", default options"}: ${milliseconds(child.baseline)} | ${child.ratio.toFixed(2)}× | ≤ 1.2× |`,
    );
  }

  // 3. Stopping: how long after its timeout a subagent's result arrives. The test suite asserts
  // what happens (status "timeout", the process group gone); this measures how soon.
  const stopped = async (
    root: string,
    runner: SubagentRunner,
    timeoutMs: number,
  ): Promise<void> => {
    const [result] = await spawnSubagents(
      parent,
      [{ id: "stop", subagentType: "implement", prompt: "Hang.", timeoutMs }],
      { runner, workspacesRoot: root },
    );
    if (result?.status !== "timeout") throw new Error(`expected a timeout, got ${result?.status}`);
  };
  const until = async (file: string) => {
    while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 5));
  };
  /**
   * Spawns `args` as its own process group, as the runner does, and ends the group after `ms`
   * (and once it wrote `readyFile`, when given).
   */
  const bareStop =
    (args: string[], ms: number, graceMs: number, readyFile?: string) => async (root: string) => {
      await mkdir(root);
      const child: ChildProcess = spawn(args[0] as string, args.slice(1), {
        cwd: root,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      });
      const closed = new Promise((resolve) => child.on("close", resolve));
      await new Promise((resolve) => setTimeout(resolve, ms));
      if (readyFile !== undefined) await until(join(root, readyFile));
      const group = -(child.pid as number);
      process.kill(group, "SIGTERM");
      const kill = setTimeout(() => {
        try {
          process.kill(group, "SIGKILL");
        } catch {
          // Already gone.
        }
      }, graceMs);
      await closed;
      clearTimeout(kill);
    };
  const grandchild = ["/bin/sh", "-c", "sleep 60 & wait"];
  const groupStop = await compare(
    directory,
    1,
    7,
    (root) =>
      stopped(root, childProcessRunner({ command: "/bin/sh", args: grandchild.slice(1) }), 300),
    bareStop(grandchild, 300, 2_000),
  );
  rows.push(
    `| a child process and its grandchild, stopped on a 300 ms timeout, until the result | ${milliseconds(groupStop.candidate)} | spawn detached, SIGTERM to the group after 300 ms, until \`close\`: ${milliseconds(groupStop.baseline)} | ${groupStop.ratio.toFixed(2)}× | ≤ 1.2× |`,
  );
  const stubbornScript = join(directory, "stubborn.cjs");
  await writeFile(
    stubbornScript,
    'process.on("SIGTERM", () => {}); require("node:fs").writeFileSync("ready", ""); setInterval(() => {}, 1000);\n',
  );
  const stubborn = [process.execPath, stubbornScript];
  // Stopped only once it ignores SIGTERM, so that SIGKILL after the grace is what ends it.
  const whenReady = (runner: SubagentRunner): SubagentRunner => ({
    name: "stubborn",
    stopGraceMs: (runner.stopGraceMs ?? 0) + 5_000,
    run(invocation) {
      const controller = new AbortController();
      invocation.signal.addEventListener("abort", async () => {
        await until(join(invocation.directory, "ready"));
        controller.abort();
      });
      return runner.run({ ...invocation, signal: controller.signal });
    },
  });
  const killStop = await compare(
    directory,
    1,
    7,
    (root) =>
      stopped(
        root,
        whenReady(
          childProcessRunner({
            command: process.execPath,
            args: [stubbornScript],
            killGraceMs: 200,
          }),
        ),
        300,
      ),
    bareStop(stubborn, 300, 200, "ready"),
  );
  rows.push(
    `| a process that ignores SIGTERM, 300 ms timeout, SIGKILL 200 ms later, until the result | ${milliseconds(killStop.candidate)} | the same signals sent by hand to a detached spawn: ${milliseconds(killStop.baseline)} | ${killStop.ratio.toFixed(2)}× | ≤ 1.2× |`,
  );
  const ignoring = functionRunner(() => new Promise<SubagentOutput>(() => {}));
  const functionStop = await compare(
    directory,
    1,
    9,
    (root) => stopped(root, ignoring, 50),
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    },
  );
  rows.push(
    `| a function that ignores its signal, 50 ms timeout, until the result | ${milliseconds(functionStop.candidate)} | \`setTimeout\` of 50 ms: ${milliseconds(functionStop.baseline)} | ${functionStop.ratio.toFixed(2)}× | ≤ 1.2× |`,
  );
} finally {
  await rm(directory, { recursive: true, force: true });
}

console.log(
  `@task-context/spawner on Node ${process.version} (${process.platform}/${process.arch})\n`,
);
console.log("| measurement | spawner | baseline (same run) | ratio | target |");
console.log("| --- | --- | --- | --- | --- |");
for (const row of rows) console.log(row);
