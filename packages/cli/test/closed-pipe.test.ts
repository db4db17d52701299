import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCliClosingStdout, temporaryFolder } from "./run-cli.ts";

/** Generous: the command ends at its next write after the reader went away. */
const GUARD_MS = 20_000;

const folder = temporaryFolder();
const cwd = folder.path;
afterAll(folder.remove);

// A work item with 20 000 unknown fields: one issue line each, far more than a pipe buffers.
const fields = Object.fromEntries(
  Array.from({ length: 20_000 }, (_, index) => [`f${index}`, index]),
);
writeFileSync(join(cwd, "many-issues.json"), JSON.stringify({ kind: "task", ...fields }));

describe("a closed pipe (task-context … | head -1)", () => {
  it("ends the command quietly with exit 141, as SIGPIPE ends git log | head -1", async () => {
    for (const args of [
      ["validate", "many-issues.json", "--schema", "work-item"],
      ["validate", "many-issues.json", "--schema", "work-item", "--json"],
    ]) {
      const run = await runCliClosingStdout(args, { cwd, guardMs: GUARD_MS });
      expect({ args, stderr: run.stderr, code: run.code }).toEqual({ args, stderr: "", code: 141 });
    }
  });
});
