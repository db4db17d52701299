import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { CONTEXT } from "./fixtures.ts";

/**
 * A fresh temporary workspace with CONTEXT.md ({@link CONTEXT}) for each test, removed after it:
 * call at the top of a test file; the returned function gives the current test's directory.
 */
export function useContextDirectory(prefix: string): () => string {
  let directory = "";
  beforeEach(() => {
    directory = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    writeFileSync(join(directory, "CONTEXT.md"), CONTEXT);
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });
  return () => directory;
}
