// Loaded into a service's process (`node --import=…/lock-hold-probe.ts`) by postgres.bench.ts:
// keeps every group commit's lock hold that PostgresStore publishes (its diagnostics channel
// `task-context:postgres:lock-hold`), and on SIGUSR2 writes those kept since the last signal to
// `${TASK_CONTEXT_LOCK_HOLDS}.${pid}` (JSON) and forgets them. Nothing is measured without it.
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";

const file = process.env.TASK_CONTEXT_LOCK_HOLDS;
if (file !== undefined) {
  let holds: unknown[] = [];
  subscribe("task-context:postgres:lock-hold", (hold) => holds.push(hold));
  process.on("SIGUSR2", () => {
    writeFileSync(`${file}.${process.pid}`, JSON.stringify(holds));
    holds = [];
  });
}

/** How the benchmark reads what the probe kept: signals the processes, then reads their files. */
export async function takeLockHolds(
  file: string,
  pids: number[],
): Promise<Array<{ holdMs: number; operations: number }>> {
  const { existsSync, readFileSync, rmSync } = await import("node:fs");
  const holds: Array<{ holdMs: number; operations: number }> = [];
  for (const pid of pids) {
    const written = `${file}.${pid}`;
    rmSync(written, { force: true });
    process.kill(pid, "SIGUSR2");
    const deadline = Date.now() + 10_000;
    while (!existsSync(written)) {
      if (Date.now() > deadline) throw new Error(`process ${pid} wrote no lock holds in 10 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Written at once by writeFileSync; read when complete (parse again if caught mid-write).
    for (;;) {
      try {
        holds.push(...JSON.parse(readFileSync(written, "utf8")));
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    rmSync(written, { force: true });
  }
  return holds;
}
