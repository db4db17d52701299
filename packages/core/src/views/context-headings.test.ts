import { Worker } from "node:worker_threads";
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

  it("is linear on a line of a million #s", async () => {
    // Linear takes milliseconds, quadratic hours: a worker that has not answered within the guard
    // is stopped, so a quadratic scan fails the test instead of hanging it. Nothing is timed.
    const module = new URL("./context-headings.ts", import.meta.url).href;
    const worker = new Worker(
      `import(${JSON.stringify(module)}).then(({ contextHeadings }) => require("node:worker_threads")
        .parentPort.postMessage(contextHeadings("# x " + "#".repeat(1_000_000) + "x").length));`,
      { eval: true },
    );
    const guard = setTimeout(() => void worker.terminate(), 20_000);
    try {
      const answer = await new Promise((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
        worker.once("exit", () => reject(new Error("blocked: no answer within 20 s")));
      });
      expect(answer).toBe(1);
    } finally {
      clearTimeout(guard);
      await worker.terminate();
    }
  });

  it("refuses a markdown that is not a string", () => {
    expect(() => contextHeadings(42 as unknown as string)).toThrow(
      "Invalid markdown: expected a string, got a number (42).",
    );
  });
});
