import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HANG_GUARD_MS, runCli, runCliClosingStdout, temporaryFolder } from "./run-cli.ts";

const folder = temporaryFolder();
const cwd = folder.path;
afterAll(folder.remove);

// A work item with 60 unknown fields: the 50 issues validate lists, about 9 KB of lines. Named 400
// times, megabytes: far more than a pipe buffers, so the reader goes away while the command writes.
const fields = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`f${index}`, index]));
writeFileSync(join(cwd, "many-issues.json"), JSON.stringify({ kind: "task", ...fields }));
const files: string[] = Array.from({ length: 400 }, () => "many-issues.json");

describe("a closed pipe (task-context … | head -1)", () => {
  it("ends the command quietly with exit 141, as SIGPIPE ends git log | head -1", async () => {
    for (const [command, args] of [
      ["validate (a line per issue)", ["validate", ...files, "--schema", "work-item"]],
      ["validate --json (one write)", ["validate", ...files, "--schema", "work-item", "--json"]],
    ] as const) {
      const run = await runCliClosingStdout(args, { cwd, guardMs: HANG_GUARD_MS });
      expect({ command, stderr: run.stderr, code: run.code }).toEqual({
        command,
        stderr: "",
        code: 141,
      });
    }
  });

  it("is told from a failed write: stdout on a full disk is one line and exit 1", async () => {
    const full = openSync("/dev/full", "w");
    try {
      expect(
        await runCli(["validate", ...files, "--schema", "work-item"], {
          cwd,
          stdoutFd: full,
          guardMs: HANG_GUARD_MS,
        }),
      ).toEqual({
        stdout: "",
        stderr:
          "task-context: cannot write to stdout (ENOSPC)\nhint: check where the output goes: a full disk, a file or terminal that was closed\n",
        code: 1,
      });
    } finally {
      closeSync(full);
    }
  });
});
