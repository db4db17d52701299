import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ArgumentError,
  approximateTokenizer,
  CONTEXT_MISSING_MESSAGE,
  DEFAULT_MAX_CHARS,
  injectTaskContext,
  loadTaskContext,
  memoryWorkspace,
  TaskContextError,
  TaskContextMissingError,
} from "@task-context/core";
import { o200kTokenizer } from "@task-context/core/o200k";
import fc from "fast-check";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const SPEC_MESSAGE =
  "CONTEXT.md not found in workspace. Before using multimodal tools or spawning subagents, create a CONTEXT.md file with task context. See system prompt for instructions.";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "task-context-load-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("spec 000: Task Context Loading", () => {
  it("CONTEXT.md exists: returns the file content", async () => {
    const text = "# Lumen\nWe are building Lumen, a note-taking app.";
    await writeFile(join(root, "CONTEXT.md"), `${text}\n`);
    const context = await loadTaskContext(root);
    expect(context).toStrictEqual({
      content: text,
      truncated: false,
      originalLength: text.length,
      originalLengthIsExact: true,
      originalBytes: Buffer.byteLength(text) + 1,
      sha256: sha256(text),
      found: true,
    });
  });

  it("CONTEXT.md missing: raises an error guiding the agent to create the file", async () => {
    await expect(loadTaskContext(root)).rejects.toBeInstanceOf(TaskContextMissingError);
    await expect(loadTaskContext(root)).rejects.toSatisfy(TaskContextError.isInstance);
    await expect(loadTaskContext(root)).rejects.toMatchObject({
      code: "TASK_CONTEXT_MISSING",
      reason: "not-found",
      message: `${SPEC_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`,
    });
  });
});

describe("loadTaskContext", () => {
  it("quotes the spec's guiding text in CONTEXT_MISSING_MESSAGE", () => {
    expect(CONTEXT_MISSING_MESSAGE).toBe(SPEC_MESSAGE);
    expect(DEFAULT_MAX_CHARS).toBe(10_000);
  });

  it("treats an empty or whitespace-only CONTEXT.md as missing and says so", async () => {
    for (const text of ["", "  \n\t\r\n  "]) {
      await expect(loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }))).rejects.toMatchObject({
        code: "TASK_CONTEXT_MISSING",
        reason: "empty",
        message: `${SPEC_MESSAGE}\nCONTEXT.md exists but is empty (or holds only whitespace).`,
      });
    }
  });

  it("treats a CONTEXT.md directory as missing: not a regular file", async () => {
    await mkdir(join(root, "CONTEXT.md"));
    await expect(loadTaskContext(root)).rejects.toMatchObject({
      reason: "not-a-regular-file",
      message: expect.stringMatching(/^CONTEXT\.md not found in workspace\. Before using/),
    });
  });

  it("with required: false, yields no context instead of throwing (no CONTEXT.md = no injection)", async () => {
    const context = await loadTaskContext(memoryWorkspace(), { required: false });
    expect(context).toEqual({
      content: "",
      truncated: false,
      originalLength: 0,
      originalLengthIsExact: true,
      originalBytes: 0,
      sha256: sha256(""),
      found: false,
    });
  });

  it("truncates to 10 000 characters by default with a warning naming both lengths and the limit", async () => {
    const text = "a".repeat(12_000);
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }));
    expect(context.content).toBe("a".repeat(10_000));
    expect(context.truncated).toBe(true);
    expect(context.originalLength).toBe(12_000);
    expect(context.sha256).toBe(sha256("a".repeat(10_000)));
    expect(context.warning).toBe(
      "CONTEXT.md was truncated from 12000 to 10000 characters (limit 10000). Consider shortening it.",
    );
  });

  it("delivers exactly 10 000 characters without a warning", async () => {
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "b".repeat(10_000) }));
    expect(context.truncated).toBe(false);
    expect(context.content.length).toBe(10_000);
    expect(context.warning).toBeUndefined();
  });

  it("counts UTF-16 units, as JavaScript strings do", async () => {
    const text = "😀".repeat(6); // 12 UTF-16 units
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }), { maxChars: 7 });
    expect(context.content).toBe("😀".repeat(3));
    expect(context.originalLength).toBe(12);
    expect(context.warning).toBe(
      "CONTEXT.md was truncated from 12 to 6 characters (limit 7). Consider shortening it.",
    );
  });

  it("strips a UTF-8 byte order mark", async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("Lumen")]);
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": bytes }));
    expect(context.content).toBe("Lumen");
    expect(context.originalLength).toBe(5);
    expect(context.warning).toBeUndefined();
  });

  it("keeps CRLF line endings inside the text as written", async () => {
    await writeFile(join(root, "CONTEXT.md"), "line one\r\nline two\r\n");
    const context = await loadTaskContext(root);
    expect(context.content).toBe("line one\r\nline two");
    expect(context.sha256).toBe(sha256("line one\r\nline two"));
  });

  it("trims surrounding whitespace, so the injected prompt has exactly one blank line before [Request]", async () => {
    const workspace = memoryWorkspace({
      "CONTEXT.md": "\n\n  # Lumen\n\nBrand: LUMEN in capitals.\n\n\n",
    });
    const context = await loadTaskContext(workspace);
    expect(context.content).toBe("# Lumen\n\nBrand: LUMEN in capitals.");
    expect(context.originalLength).toBe(context.content.length);
    expect(context.truncated).toBe(false);
    expect(context.warning).toBeUndefined();
    expect(injectTaskContext("Describe the logo.", context)).toBe(
      "[Task Context]\n# Lumen\n\nBrand: LUMEN in capitals.\n\n[Request]\nDescribe the logo.",
    );
  });

  it("never ends a truncated context in whitespace", async () => {
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "alpha beta gamma" }), {
      maxChars: 11,
    });
    expect(context.content).toBe("alpha beta");
    expect(context.truncated).toBe(true);
    expect(context.warning).toBe(
      "CONTEXT.md was truncated from 16 to 10 characters (limit 11). Consider shortening it.",
    );
  });

  it("replaces invalid UTF-8 with U+FFFD and warns", async () => {
    const bytes = new Uint8Array([0x4c, 0x75, 0xff, 0x6d, 0xc3, 0x28, 0x6e]);
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": bytes }));
    expect(context.content).toBe("Lu\uFFFDm\uFFFD(n");
    expect(context.truncated).toBe(false);
    expect(context.warning).toBe(
      "CONTEXT.md is not valid UTF-8: invalid bytes were replaced with U+FFFD. Save it as UTF-8.",
    );
  });

  it("does not split a character whose bytes straddle the read bound", async () => {
    // 40 004 bytes are read for maxChars 10 000; put a 4-byte emoji across that bound.
    const text = `${"x".repeat(40_002)}😀${"y".repeat(100)}`;
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }));
    expect(context.content).toBe("x".repeat(10_000));
    expect(context.warning).toBe(
      `CONTEXT.md was truncated from about ${40_002 + 4 + 100 - 2} to 10000 characters (limit 10000). Consider shortening it.`,
    );
    expect(context.originalLengthIsExact).toBe(false);
  });

  it("never cuts inside a grapheme cluster: family emoji, flags, combining marks", async () => {
    const family = "👨‍👩‍👧‍👦"; // 11 UTF-16 units
    const cases: Array<[string, number, string]> = [
      [`ab${family}cd`, 5, "ab"],
      [`ab${family}cd`, 13, `ab${family}`],
      ["ab🇫🇷🇩🇪", 4, "ab"],
      ["ab🇫🇷🇩🇪", 7, "ab🇫🇷"],
      ["abe\u0301\u0301f", 4, "ab"],
      ["abe\u0301\u0301f", 5, "abe\u0301\u0301"],
    ];
    for (const [text, maxChars, expected] of cases) {
      const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }), { maxChars });
      expect(context.content).toBe(expected);
    }
  });

  it("cuts at a grapheme boundary for any text (property)", async () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
    const graphemes = fc.constantFrom(
      "a",
      "é",
      "e\u0301",
      "😀",
      "👍🏽",
      "👨‍👩‍👧‍👦",
      "🇯🇵",
      "🏳️‍🌈",
      "\u0915\u094d\u0937",
      "字",
      "\r\n",
      " ",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(graphemes, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 80 }),
        async (parts, maxChars) => {
          const text = parts.join("");
          const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": `x${text}` }), {
            maxChars,
          });
          const content = context.content;
          const delivered = `x${text}`.trimEnd();
          expect(content.length).toBeLessThanOrEqual(maxChars);
          expect(delivered.startsWith(content)).toBe(true);
          expect(content).toBe(content.trimEnd());
          const boundaries = new Set(
            [...segmenter.segment(`x${text}`)].map((segment) => segment.index),
          );
          boundaries.add(text.length + 1);
          expect(boundaries.has(content.length)).toBe(true);
          expect(context.truncated).toBe(content.length < delivered.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("applies a token budget with the exact o200k tokenizer", async () => {
    const text = "Lumen is a note-taking app for researchers. ".repeat(100).trimEnd();
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }), {
      maxTokens: 50,
      tokenizer: o200kTokenizer,
    });
    expect(encode(context.content).length).toBeLessThanOrEqual(50);
    expect(encode(context.content).length).toBeGreaterThanOrEqual(45);
    expect(text.startsWith(context.content)).toBe(true);
    expect(context.truncated).toBe(true);
    expect(context.warning).toBe(
      `CONTEXT.md was truncated from ${text.length} to ${context.content.length} characters (limit 10000 characters and 50 o200k_base tokens). Consider shortening it.`,
    );
  });

  it("applies a token budget with the approximate tokenizer", async () => {
    const text = "word ".repeat(1_000);
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }), {
      maxTokens: 100,
      tokenizer: approximateTokenizer,
    });
    expect(approximateTokenizer.count(context.content)).toBeLessThanOrEqual(100);
    expect(context.content).toBe("word ".repeat(100).trimEnd());
  });

  it("rejects bad options with INVALID_ARGUMENT before reading", async () => {
    const workspace = memoryWorkspace({ "CONTEXT.md": "x" });
    for (const options of [
      { maxChars: 0 },
      { maxChars: 1.5 },
      { maxChars: Number.NaN },
      { maxTokens: 10 },
    ]) {
      await expect(loadTaskContext(workspace, options)).rejects.toSatisfy(ArgumentError.isInstance);
      await expect(loadTaskContext(workspace, options)).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
    }
  });

  it("hashes the delivered content, not the file", async () => {
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "abcdef" }), {
      maxChars: 3,
    });
    expect(context.sha256).toBe(sha256("abc"));
  });
});
