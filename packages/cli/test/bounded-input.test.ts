import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { HANG_GUARD_MS, runCli, SLOW_TEST_MS, temporaryFolder } from "./run-cli.ts";

/** The documented input limit: 16 MiB. */
const LIMIT = 16 * 1024 * 1024;

const folder = temporaryFolder();
const cwd = folder.path;
afterAll(folder.remove);
writeFileSync(join(cwd, "CONTEXT.md"), "# Task context\n\n## What we are building\nLumen.\n");

const HINT =
  "hint: pass the file you meant: context files, Sage XML, work items and run bodies are kilobytes\n";
const overLimit = (name: string, size: number) =>
  `task-context: ${name} is over the 16 MiB input limit: it has ${size} bytes, at most ${LIMIT} are read\n${HINT}`;
const stoppedAtLimit = (name: string) =>
  `task-context: ${name} is over the 16 MiB input limit: reading stopped after ${LIMIT} bytes\n${HINT}`;

/** Every command that reads a file the user names, with `path` in that place. */
const readers = (path: string): string[][] => [
  ["validate", path, "--schema", "work-item"],
  ["render", "--for", "subagent", "--input", path],
  ["render", "--for", "subagent", "--project", path],
  ["render", "--for", "remote-agent", "--run", path],
  ["sage", "generate", "--task", "T1", "--type", "implement", "--input", path],
  ["run", "create", path, "--url", "http://127.0.0.1:9"],
];

describe("a file named on the command line", () => {
  it("is read at the limit, and refused from its size one byte over it (or 4 GiB over it), exit 2", {
    timeout: SLOW_TEST_MS,
  }, async () => {
    writeFileSync(join(cwd, "at.json"), `{"kind":"task"}`.padEnd(LIMIT, " "));
    const at = await runCli(["validate", "at.json", "--schema", "work-item"], {
      cwd,
      guardMs: HANG_GUARD_MS,
    });
    expect({ code: at.code, stderr: at.stderr, last: at.stdout.split("\n").at(-2) }).toEqual({
      code: 1,
      stderr: "",
      last: "at.json: invalid work-item.v1, 9 issues",
    });
    writeFileSync(join(cwd, "over.json"), `{"kind":"task"}`.padEnd(LIMIT + 1, " "));
    // Sparse: a disk image's size without its blocks.
    writeFileSync(join(cwd, "image.json"), "");
    truncateSync(join(cwd, "image.json"), 4 * 1024 ** 3);
    // Every command that reads a named file applies the same bound.
    for (const args of readers("over.json")) {
      expect(await runCli(args, { cwd, guardMs: HANG_GUARD_MS })).toEqual({
        stdout: "",
        stderr: overLimit("over.json", LIMIT + 1),
        code: 2,
      });
    }
    expect(
      await runCli(["validate", "image.json", "--schema", "work-item"], {
        cwd,
        guardMs: HANG_GUARD_MS,
      }),
    ).toEqual({ stdout: "", stderr: overLimit("image.json", 4 * 1024 ** 3), code: 2 });
  });

  it("is refused at once when it is a device, named directly or through a symbolic link, exit 2", {
    timeout: SLOW_TEST_MS,
  }, async () => {
    symlinkSync("/dev/zero", join(cwd, "zero.json"));
    const refused = (path: string) => ({
      stdout: "",
      stderr: `task-context: cannot read ${path}: it is a character device, not a file\nhint: pass a file, or pipe the input in with -\n`,
      code: 2,
    });
    for (const args of readers("zero.json")) {
      expect(await runCli(args, { cwd, guardMs: HANG_GUARD_MS })).toEqual(refused("zero.json"));
    }
    for (const path of ["/dev/zero", "/dev/urandom"]) {
      expect(
        await runCli(["validate", path, "--schema", "work-item"], { cwd, guardMs: HANG_GUARD_MS }),
      ).toEqual(refused(path));
    }
  });
});

describe("stdin (-)", () => {
  it("stops at the limit when it never ends (< /dev/zero), exit 2", {
    timeout: SLOW_TEST_MS,
  }, async () => {
    for (const args of [
      ["validate", "-", "--schema", "work-item"],
      ["lint", "-"],
      ["run", "create", "-", "--url", "http://127.0.0.1:9"],
    ]) {
      const zero = openSync("/dev/zero", "r");
      try {
        expect(await runCli(args, { cwd, stdinFd: zero, guardMs: HANG_GUARD_MS })).toEqual({
          stdout: "",
          stderr: stoppedAtLimit("<stdin>"),
          code: 2,
        });
      } finally {
        closeSync(zero);
      }
    }
  });
});

describe("a FIFO named on the command line", () => {
  const writers: ChildProcess[] = [];
  afterEach(() => {
    for (const writer of writers.splice(0)) writer.kill("SIGKILL");
  });
  /** A new FIFO in the folder. */
  const fifo = (name: string) => {
    spawnSync("mkfifo", [join(cwd, name)]);
    return name;
  };
  /** A program that opens `name` for writing after `delay` seconds, writes `text` and closes it. */
  const writeLater = (name: string, text: string, delay = 0) => {
    const writer = spawn(
      "sh",
      ["-c", 'sleep "$1"; printf "%s" "$2" > "$0"', name, `${delay}`, text],
      {
        cwd,
        stdio: "ignore",
      },
    );
    writers.push(writer);
  };

  it("is read once a program writes to it and closes it, and refused when none opens it within 5 s", {
    timeout: SLOW_TEST_MS,
  }, async () => {
    const json = '{"kind":"task"}';
    writeLater(fifo("ready.json"), json);
    writeLater(fifo("later.json"), json, 1);
    for (const name of ["ready.json", "later.json"]) {
      const result = await runCli(["validate", name, "--schema", "work-item"], {
        cwd,
        guardMs: HANG_GUARD_MS,
      });
      expect({
        code: result.code,
        stderr: result.stderr,
        last: result.stdout.split("\n").at(-2),
      }).toEqual({
        code: 1,
        stderr: "",
        last: `${name}: invalid work-item.v1, 9 issues`,
      });
    }
    expect(
      await runCli(["validate", fifo("nobody.json"), "--schema", "work-item"], {
        cwd,
        guardMs: HANG_GUARD_MS,
      }),
    ).toEqual({
      stdout: "",
      stderr:
        "task-context: cannot read nobody.json: it is a FIFO that no program opened for writing within 5 s\nhint: start the program that writes to it first, or pipe its output in with -\n",
      code: 2,
    });
  });

  it("stops at the limit when its writer never ends, and the writer sees the pipe closed", async () => {
    const name = fifo("endless.json");
    const writer = spawn("sh", ["-c", 'cat /dev/zero > "$0"', name], { cwd, stdio: "ignore" });
    writers.push(writer);
    const writerEnded = new Promise((resolve) => writer.once("exit", resolve));
    expect(
      await runCli(["validate", name, "--schema", "work-item"], { cwd, guardMs: HANG_GUARD_MS }),
    ).toEqual({ stdout: "", stderr: stoppedAtLimit(name), code: 2 });
    // cat was ended by SIGPIPE: its shell reports 128 + 13.
    expect(await writerEnded).toBe(141);
  });
});
