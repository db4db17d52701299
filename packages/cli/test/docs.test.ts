import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, temporaryFolder } from "./run-cli.ts";

/**
 * docs/cli.md cannot drift: its `<!-- file: name -->` blocks are written into a fresh folder, and
 * each ```console block's `$ task-context …` line is run there, in order, and must print exactly
 * the lines below it (stdout, then stderr, then `[exit N]` when not 0).
 */
const documentation = readFileSync(new URL("../../../docs/cli.md", import.meta.url), "utf8");
const folder = temporaryFolder();
afterAll(folder.remove);

type Step =
  | { kind: "file"; name: string; text: string }
  | { kind: "run"; line: string; expected: string };

const steps: Step[] = [];
for (const match of documentation.matchAll(/(?:<!-- file: (\S+) -->\n)?```(\w+)\n([\s\S]*?)```/g)) {
  const [, file, language, body = ""] = match;
  if (file !== undefined) steps.push({ kind: "file", name: file, text: body });
  else if (language === "console") {
    const [line = "", ...output] = body.split("\n");
    steps.push({ kind: "run", line: line.replace(/^\$ /, ""), expected: output.join("\n") });
  }
}

/** Splits a command line: words, and "double-quoted" arguments. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? "");
}

describe("docs/cli.md", () => {
  it("has console examples to check", () => {
    expect(steps.filter((step) => step.kind === "run").length).toBeGreaterThanOrEqual(6);
  });

  it("prints exactly what every documented command line prints", async () => {
    for (const step of steps) {
      if (step.kind === "file") {
        mkdirSync(dirname(join(folder.path, step.name)), { recursive: true });
        writeFileSync(join(folder.path, step.name), step.text);
        continue;
      }
      const [command, ...args] = words(step.line);
      expect(command).toBe("task-context");
      const result = await runCli(args, { cwd: folder.path });
      const printed = `${result.stdout}${result.stderr}${result.code === 0 ? "" : `[exit ${result.code}]\n`}`;
      expect({ line: step.line, printed }).toEqual({ line: step.line, printed: step.expected });
    }
  });
});
