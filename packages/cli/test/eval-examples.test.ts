// The eval examples in examples/, which docs/eval.md shows, run as written and print what the
// page says they print.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseEvalSpec } from "../src/eval/eval-spec.ts";
import { runEval } from "../src/eval/run-eval.ts";
import { LUMEN_CONTEXT, manualClock } from "./eval-fixtures.ts";

/** Where the example makes its workspace (its `tmpdir()`), removed after the tests. */
const exampleTemp = vi.hoisted(() => ({ path: "" }));
vi.mock("node:os", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:os")>();
  return { ...actual, tmpdir: () => exampleTemp.path };
});

beforeAll(async () => {
  const { tmpdir } = await vi.importActual<typeof import("node:os")>("node:os");
  exampleTemp.path = mkdtempSync(join(tmpdir(), "task-context-eval-example-"));
});
afterAll(() => rmSync(exampleTemp.path, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A printed table's cells, without the time column, which the machine decides. */
function withoutTime(table: string): string[][] {
  return table
    .trim()
    .split("\n")
    .map((line) => line.split(/ {2,}/).filter((_, index) => index !== 5));
}

describe("examples/eval.ts", () => {
  it("prints the table: the context helps the vision stand-in and hurts the transcriber", async () => {
    let printed = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      printed += String(chunk);
      return true;
    });
    vi.spyOn(console, "log").mockImplementation(() => {});
    await import("../examples/eval.ts");
    const rows = withoutTime(printed);
    expect(rows.map((row) => [row[0], row[1], row[5]?.replace(/ \(.*/, "")])).toStrictEqual([
      ["recipient", "condition", "verdict"],
      ["vision", "none", "baseline"],
      ["vision", "full", "helps"],
      ["vision", "view:brief", "helps"],
      ["transcriber", "none", "baseline"],
      ["transcriber", "full", "hurts"],
      ["transcriber", "view:brief", "no measurable difference"],
    ]);
    // What docs/eval.md shows, to the digit.
    const page = readFileSync(join(import.meta.dirname, "../../../docs/eval.md"), "utf8");
    expect(rows).toStrictEqual(withoutTime(/```text\n(recipient[^`]*)```/.exec(page)?.[1] ?? ""));
  });
});

describe("examples/eval-recipient.ts", () => {
  it("gives its model the context of the trial's condition", async () => {
    const { reader } = await import("../examples/eval-recipient.ts");
    const folder = mkdtempSync(join(exampleTemp.path, "recipient-"));
    writeFileSync(join(folder, "CONTEXT.md"), LUMEN_CONTEXT);
    try {
      const spec = parseEvalSpec({
        recipients: { reader: {} },
        tasks: [{ id: "a", prompt: "Name it.", checks: [{ exact: "[Task Context]" }] }],
        trials: 1,
      });
      const run = await runEval(spec, {
        recipients: { reader },
        directory: folder,
        clock: manualClock(),
      });
      expect(run.records.map((record) => [record.condition, record.answer])).toStrictEqual([
        ["none", "Name it."],
        ["full", "[Task Context]"],
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
