import { contextHeadings } from "@task-context/core";
import { describe, expect, it } from "vitest";

describe("contextHeadings", () => {
  it("lists ATX headings with their level, text and line", () => {
    expect(
      contextHeadings("# Task context\n\n## What we are building\nLumen.\n\n### Screens ###\nSix."),
    ).toStrictEqual([
      { level: 1, text: "Task context", line: 1 },
      { level: 2, text: "What we are building", line: 3 },
      { level: 3, text: "Screens", line: 6 },
    ]);
  });

  it("ignores headings inside fenced code blocks, backticks and tildes, open to the end", () => {
    const markdown = [
      "## Commands",
      "```sh",
      "# not a heading",
      "```",
      "~~~~",
      "## nor this",
      "~~~",
      "still code",
      "~~~~",
      "## Other details",
      "````",
      "# unclosed",
    ].join("\n");
    expect(contextHeadings(markdown).map((heading) => heading.text)).toStrictEqual([
      "Commands",
      "Other details",
    ]);
  });

  it("follows CommonMark: up to three spaces, a space after the #s, at most six #s", () => {
    const markdown = [
      "   ## Three spaces",
      "    ## Four spaces: code",
      "#hashtag",
      "####### Seven",
      "#\tTab",
      "## Closing #s ##  ",
      "## C# and F#",
      "#",
      "## #",
    ].join("\n");
    expect(contextHeadings(markdown)).toStrictEqual([
      { level: 2, text: "Three spaces", line: 1 },
      { level: 1, text: "Tab", line: 5 },
      { level: 2, text: "Closing #s", line: 6 },
      { level: 2, text: "C# and F#", line: 7 },
      { level: 1, text: "", line: 8 },
      { level: 2, text: "", line: 9 },
    ]);
  });

  it("counts lines across \\n, \\r\\n and \\r line endings", () => {
    expect(contextHeadings("# A\r\ntext\r## B\n\n## C").map((heading) => heading.line)).toEqual([
      1, 3, 5,
    ]);
  });

  it("a backtick fence whose info string holds a backtick opens nothing", () => {
    expect(contextHeadings("``` a`b\n# Heading").map((heading) => heading.text)).toEqual([
      "Heading",
    ]);
  });

  it("is linear on a line of a million #s", () => {
    const started = performance.now();
    expect(contextHeadings(`# x ${"#".repeat(1_000_000)}x`)).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("refuses a markdown that is not a string", () => {
    expect(() => contextHeadings(42 as unknown as string)).toThrow(
      "Invalid markdown: expected a string, got a number (42).",
    );
  });
});
