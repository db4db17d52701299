// What the probe's tests share: a workspace of its own per test, and the context they plant in it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "vitest";

/** A short CONTEXT.md with a goal and key terms. */
export const CONTEXT =
  "# Goal\nShip Lumen's export menu.\n\n# Key terms\n- **Lumen**: the product.\n";

/** A workspace of its own for each test, with `files`, removed when the test finishes. */
export function workspace({ onTestFinished }: TestContext, files: Record<string, string>): string {
  const directory = mkdtempSync(join(tmpdir(), "probe-test-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(directory, name), text);
  onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
  return directory;
}
