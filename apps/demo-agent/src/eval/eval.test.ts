// `task-context eval` on the demo's recipients (eval/eval.yaml), as `pnpm eval` runs it: the built
// command in a subprocess, offline (the stand-in models), its table and its HTML report.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAUNCH_CONTEXT_MD } from "../launch-task.ts";

const packageRoot = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const cliBin = join(
  dirname(createRequire(import.meta.url).resolve("@task-context/cli/package.json")),
  "dist/cli.js",
);

/** The environment without a model provider: the recipients use the stand-in. */
function offlineEnvironment(): NodeJS.ProcessEnv {
  const { OPENAI_API_KEY, OPENAI_BASE_URL, ...rest } = process.env;
  return { ...rest, NO_COLOR: "1" };
}

/** Runs the command with `args` in the demo's folder; never rejects. */
function taskContext(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliBin, ...args],
      { cwd: packageRoot, env: offlineEnvironment() },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
      },
    );
  });
}

/** The table's rows as [recipient, condition, pass rate, verdict] (time and tokens left out). */
function verdicts(stdout: string): string[][] {
  return stdout
    .split("\n")
    .filter((line) => /^(vision|image|brand-check) /.test(line))
    .map((line) => {
      const cells = line.split(/ {2,}/);
      return [cells[0], cells[1], cells[2], cells.at(-1)] as string[];
    });
}

let folder: string;
let run: { code: number; stdout: string; stderr: string };
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "task-context-demo-eval-"));
  run = await taskContext([
    "eval",
    "eval/eval.yaml",
    "--results",
    join(folder, "results.jsonl"),
    "--report",
    join(folder, "report.html"),
  ]);
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("task-context eval on the demo's recipients", () => {
  it("prints per recipient and condition whether the context helps, and exits 0", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const helps = "helps (p = 0.00016)";
    const same = "no measurable difference (p = 1; same pass rate)";
    expect(verdicts(run.stdout)).toEqual([
      ["vision", "none", "0% (0/8)", "baseline"],
      ["vision", "full", "100% (8/8)", helps],
      ["vision", "view:media", "100% (8/8)", helps],
      ["vision", "view:brief", "100% (8/8)", helps],
      ["image", "none", "0% (0/8)", "baseline"],
      ["image", "full", "100% (8/8)", helps],
      ["image", "view:media", "100% (8/8)", helps],
      // The brief view leaves the brand's colours out: the image is grey, as without context.
      ["image", "view:brief", "0% (0/8)", same],
      ["brand-check", "none", "0% (0/8)", "baseline"],
      ["brand-check", "full", "100% (8/8)", helps],
      ["brand-check", "view:media", "100% (8/8)", helps],
      // ...and the "never write" rules: the reviewer approves the draft that says "hospital".
      ["brand-check", "view:brief", "0% (0/8)", same],
    ]);
    expect(run.stdout).toContain("96 of 96 trials recorded (96 run now, 0 resumed)");
  });

  it("records what each recipient answered: the misreading without context, the wordmark with it", async () => {
    const records = (await readFile(join(folder, "results.jsonl"), "utf8"))
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { recipient: string; condition: string; answer: string });
    const answer = (recipient: string, condition: string) =>
      records.find((record) => record.recipient === recipient && record.condition === condition)
        ?.answer;
    expect(answer("vision", "none")).toBe(
      'The large text reads "LUMEN": most likely the name of a hospital or a clinic (in anatomy, a lumen is the inside space of a blood vessel). The smaller text reads "THREADS FOR EVERY VAULT".',
    );
    expect(answer("vision", "full")).toBe(
      'The large text reads "LUMEN". The task context I received says: Lumen: the product. "LUMEN" in capitals on a screenshot is the product\'s wordmark, not a hospital, a clinic or a lighting brand. The smaller text reads "THREADS FOR EVERY VAULT".',
    );
    expect(answer("image", "none")).toBe("#808080");
    expect(answer("image", "full")).toBe("#0F4C5C");
    expect(JSON.parse(answer("brand-check", "full") ?? "").verdict).toBe("request_changes");
    expect(JSON.parse(answer("brand-check", "view:brief") ?? "").verdict).toBe("approve");
  });

  it("writes the HTML report with the table and the chart", async () => {
    const html = await readFile(join(folder, "report.html"), "utf8");
    expect(run.stdout).toContain(`report: ${join(folder, "report.html")}\n`);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("<td>brand-check</td><td>view:brief</td><td>0% (0/8)</td>");
    expect(html).toContain('<td class="helps">helps (p = 0.00016)</td>');
    expect(html).toContain(
      'aria-label="Pass rate per recipient and condition, with 95% intervals"',
    );
  });

  it("evaluates the CONTEXT.md the demo's main agent writes", async () => {
    expect(await readFile(join(packageRoot, "eval/workspace/CONTEXT.md"), "utf8")).toBe(
      LAUNCH_CONTEXT_MD,
    );
  });
});
