import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serveStdio } from "./stdio.ts";

let directory: string;
beforeEach(() => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-serve-")));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe("serveStdio", () => {
  it("refuses a directory that does not exist or is a file, before serving", async () => {
    const missing = join(directory, "nope");
    await expect(serveStdio({ directory: missing })).rejects.toThrow(
      `Invalid directory: ${JSON.stringify(missing)} is not a directory. Give the workspace directory that holds CONTEXT.md.`,
    );
    writeFileSync(join(directory, "file"), "");
    await expect(serveStdio({ directory: join(directory, "file") })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(serveStdio({ directory: "" })).rejects.toThrow(/^Invalid directory/);
  });

  it("refuses options the server cannot use, before serving", async () => {
    await expect(serveStdio({ directory, maxChars: 0 })).rejects.toThrow(
      /^Invalid options\.maxChars/,
    );
    await expect(serveStdio({ directory, debounceMs: -1 })).rejects.toThrow(
      /^Invalid options\.debounceMs/,
    );
  });
});
