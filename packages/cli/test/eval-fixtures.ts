// Test helper: a workspace with the demo's kind of CONTEXT.md, and a clock the tests move.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EvalClock } from "../src/eval/rate-limiter.ts";

/** A CONTEXT.md that defines the wordmark and forbids its capitals in running text. */
export const LUMEN_CONTEXT = `# Task context

## What we are building
The launch page of Lumen, a note-taking app for small teams.

## Key terminology
- **Lumen**: the product. "LUMEN" in capitals on a screenshot is the product's wordmark.

## Visual and brand guidelines
- In running text never write "LUMEN" (the capitals belong to the wordmark).

## Other details
Run pnpm test before a commit.
`;

/** A temporary folder holding CONTEXT.md (and `files`), removed by `remove`. */
export function evalFolder(files: Record<string, string> = {}): {
  path: string;
  remove: () => void;
} {
  const path = mkdtempSync(join(tmpdir(), "task-context-eval-test-"));
  writeFileSync(join(path, "CONTEXT.md"), LUMEN_CONTEXT);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** A clock that advances only when told to, or when a sleep is asked for; it records the sleeps. */
export function manualClock(): EvalClock & { advance(ms: number): void; sleeps: number[] } {
  let time = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time,
    advance(ms) {
      time += ms;
    },
    async sleep(ms) {
      sleeps.push(ms);
      time += ms;
    },
  };
}
