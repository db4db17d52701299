// examples/probe.ts prints the table docs/probe.md shows: two paths whole, one cut.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

/** The table with each receipt's digits as `…`: they change with every canary. */
const masked = (table: string) => table.replace(/sha256 [0-9a-f]{12}…/g, "sha256 …");

afterEach(() => {
  vi.restoreAllMocks();
});

describe("examples/probe.ts", () => {
  it("prints the table docs/probe.md shows, and that the path which cut the context failed", async () => {
    let printed = "";
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      printed += String(chunk);
      return true;
    });
    vi.spyOn(console, "log").mockImplementation((line: string) => {
      printed += `${line}\n`;
    });
    await import("../examples/probe.ts");
    const page = readFileSync(join(import.meta.dirname, "../../../docs/probe.md"), "utf8");
    const shown = /probe-examples\.test\.ts -->\n```text\n([^`]*)```/.exec(page)?.[1];
    expect(masked(printed)).toBe(shown);
  });
});
