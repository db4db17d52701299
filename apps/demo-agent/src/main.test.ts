// The demo's command line: --help, and a one-line error for an output folder it must not empty.
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const packageRoot = dirname(dirname(fileURLToPath(import.meta.url)));

/** Runs src/main.ts with `args`; resolves with its exit code and output (never rejects). */
function demo(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["src/main.ts", ...args],
      { cwd: packageRoot },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr });
      },
    );
  });
}

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(
    folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })),
  );
});

describe("the demo's command line", () => {
  it("prints its help with the options and the model variables, and exits 0", async () => {
    const { code, stdout, stderr } = await demo(["--help"]);
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(stdout).toMatch(
      /^Usage: demo-agent \[--output <folder>\] \[--stand-in\] \[--keep-serving\]\n/,
    );
    for (const text of [
      "--output <folder>",
      "--stand-in",
      "--keep-serving",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "TASK_CONTEXT_DEMO_CHAT_MODEL",
    ]) {
      expect(stdout).toContain(text);
    }
  });

  it("takes its options after the -- that pnpm start passes on", async () => {
    const { code, stdout } = await demo(["--", "--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: demo-agent /);
  });

  it("refuses to empty a folder it did not write, in one line, and leaves its files alone", async () => {
    const folder = await mkdtemp(join(tmpdir(), "task-context-demo-refuse-"));
    folders.push(folder);
    await writeFile(join(folder, "mine.txt"), "keep me");
    const { code, stdout, stderr } = await demo(["--output", folder, "--stand-in"]);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      `demo failed: The output folder ${folder} is not empty and was not written by the demo. Choose another folder with --output, or empty it.\n`,
    );
    expect(await readFile(join(folder, "mine.txt"), "utf8")).toBe("keep me");
  });

  it("with --keep-serving, serves the run page after the demo until Ctrl-C, then exits 0", async () => {
    const folder = await mkdtemp(join(tmpdir(), "task-context-demo-serve-"));
    folders.push(folder);
    const child = spawn(
      process.execPath,
      ["src/main.ts", "--output", join(folder, "out"), "--stand-in", "--keep-serving"],
      { cwd: packageRoot, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const serving = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const link = /keeps serving the run page: (\S+)\nPress Ctrl-C to stop it\.\n$/.exec(stdout);
        if (link?.[1] !== undefined) resolve(link[1]);
      });
      void exited.then((code) => reject(new Error(`exited ${code} before serving: ${stderr}`)));
    });
    expect(stdout).toContain(`watch the run: ${serving}\n`);
    const page = await fetch(serving);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")?.toLowerCase()).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("run.completed");
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stdout.endsWith("SIGINT: the delivery service stopped.\n")).toBe(true);
    expect(stderr).toBe("");
    await expect(fetch(serving)).rejects.toThrow();
  });

  it("rejects an unknown option in one line", async () => {
    const { code, stderr } = await demo(["--colour"]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      "demo failed: Unknown option '--colour'. Run it with --help for the options.\n",
    );
  });
});
