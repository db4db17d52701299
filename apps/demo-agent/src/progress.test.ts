import { describe, expect, it } from "vitest";
import { createProgress, useColour } from "./progress.ts";

function capture(isTTY: boolean) {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) }, written };
}

describe("progress", () => {
  it("colours a terminal only, and never with NO_COLOR set", () => {
    expect(useColour({ isTTY: true, write: () => true }, {})).toBe(true);
    expect(useColour({ isTTY: true, write: () => true }, { NO_COLOR: "1" })).toBe(false);
    expect(useColour({ isTTY: true, write: () => true }, { NO_COLOR: "" })).toBe(true);
    expect(useColour({ isTTY: false, write: () => true }, {})).toBe(false);
  });

  it("prints a start line, indented details without trailing blanks and a done line with the elapsed time", () => {
    const { stream, written } = capture(false);
    let now = 1000;
    const progress = createProgress(stream, {}, () => now);
    progress.start(2, "Media tools");
    progress.detail("one\n  \ntwo  ");
    now = 1042.4;
    progress.done(2, "4 calls");
    expect(written.join("")).toBe(
      "[2/5] Media tools\n      one\n\n      two\n[2/5] done in 42 ms: 4 calls\n",
    );
  });

  it("wraps the step markers in ANSI colour on a terminal", () => {
    const { stream, written } = capture(true);
    createProgress(stream, {}, () => 0).start(1, "CONTEXT.md");
    expect(written.join("")).toBe("\u001b[1;36m[1/5]\u001b[0m \u001b[1mCONTEXT.md\u001b[0m\n");
  });
});
