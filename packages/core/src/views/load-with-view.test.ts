import { createHash } from "node:crypto";
import {
  approximateTokenizer,
  CONTEXT_VIEW_PRESETS,
  ContextViewEmptyError,
  loadTaskContext,
  memoryWorkspace,
} from "@task-context/core";
import { describe, expect, it } from "vitest";
import { SECTIONED_CONTEXT_MD } from "../../test-corpus/context-md.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

const CONTEXT_MD = SECTIONED_CONTEXT_MD;

const MEDIA_TEXT = `## What we are building
Lumen, a note-taking app.

## Key terminology
- **Vault**: a user's notes.

## Visual and brand guidelines
Deep teal, never pure black.`;

const workspace = (text = CONTEXT_MD) => memoryWorkspace({ "CONTEXT.md": text });

describe("loadTaskContext with a view", () => {
  it("delivers the view's sections, hashed on their own, and names the view and the whole file's hash", async () => {
    const context = await loadTaskContext(workspace(), { view: CONTEXT_VIEW_PRESETS.media });
    expect(context).toStrictEqual({
      content: MEDIA_TEXT,
      truncated: false,
      originalLength: MEDIA_TEXT.length,
      originalLengthIsExact: true,
      originalBytes: CONTEXT_MD.length,
      sha256: sha256(MEDIA_TEXT),
      found: true,
      view: {
        name: "media",
        sections: ["What we are building", "Key terminology", "Visual and brand guidelines"],
        fileSha256: sha256(CONTEXT_MD.trim()),
      },
    });
    expect(context.view?.fileSha256).toBe((await loadTaskContext(workspace())).sha256);
  });

  it("without a view, the TaskContext is exactly as before: no view key", async () => {
    const context = await loadTaskContext(workspace(), { view: undefined });
    expect(Object.keys(context)).not.toContain("view");
    expect(context.content).toBe(CONTEXT_MD.trim());
  });

  it("selects from the whole file: a section past what the whole-file load reads is delivered", async () => {
    const text = `## Other details\n${"Run the tests. ".repeat(2_000)}\n\n## Visual and brand guidelines\nDeep teal.`;
    const context = await loadTaskContext(workspace(text), {
      maxChars: 1_000,
      view: { name: "brand", include: ["Visual and brand guidelines"] },
    });
    expect(context.content).toBe("## Visual and brand guidelines\nDeep teal.");
    expect(context.truncated).toBe(false);
    // The whole file's hash is that of what the load delivers without the view: its first 1 000 characters.
    expect(context.view?.fileSha256).toBe(
      (await loadTaskContext(workspace(text), { maxChars: 1_000 })).sha256,
    );
  });

  it("truncation applies to the view's text, the smaller budget wins, and the warning names the view", async () => {
    const context = await loadTaskContext(workspace(), {
      maxChars: 49,
      view: { ...CONTEXT_VIEW_PRESETS.media, maxChars: 500 },
    });
    expect(context.content).toBe("## What we are building\nLumen, a note-taking app.");
    expect(context.truncated).toBe(true);
    expect(context.warning).toBe(
      `CONTEXT.md's view "media" was truncated from ${MEDIA_TEXT.length} to 49 characters (limit 49). Consider shortening its sections.`,
    );
    const own = await loadTaskContext(workspace(), {
      view: { ...CONTEXT_VIEW_PRESETS.media, maxChars: 30 },
    });
    expect(own.content).toBe("## What we are building\nLumen,");
  });

  it("a token budget of the view needs the load's tokenizer, and cuts the view's text", async () => {
    await expect(
      loadTaskContext(workspace(), { view: { name: "short", maxTokens: 5 } }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message:
        'Invalid view.maxTokens: view "short" has a token budget, which needs a tokenizer: pass `tokenizer: approximateTokenizer` or `o200kTokenizer` from "@task-context/core/o200k" with the load options.',
    });
    const context = await loadTaskContext(workspace(), {
      tokenizer: approximateTokenizer,
      view: { name: "short", include: ["Key terminology"], maxTokens: 5 },
    });
    expect(context.content).toBe("## Key terminology");
    expect(approximateTokenizer.count(context.content)).toBeLessThanOrEqual(5);
    expect(context.warning).toBe(
      `CONTEXT.md's view "short" was truncated from 47 to 18 characters (limit 10000 characters and 5 approximate tokens). Consider shortening its sections.`,
    );
  });

  it("a heading the file does not have: the warning names the view and lists the file's headings", async () => {
    const context = await loadTaskContext(workspace(), {
      view: {
        name: "image-model",
        include: ["Key terminology", "Brand rules"],
        exclude: ["Tests"],
      },
    });
    expect(context.content).toBe("## Key terminology\n- **Vault**: a user's notes.");
    expect(context.warning).toBe(
      'View "image-model" names headings CONTEXT.md does not have: "Brand rules", "Tests". CONTEXT.md\'s headings are "Task context", "What we are building", "Key terminology", "Visual and brand guidelines", "Other details". Check the view\'s include and exclude.',
    );
  });

  it("a view that selects nothing throws ContextViewEmptyError, also with required: false", async () => {
    for (const required of [true, false]) {
      const error = await loadTaskContext(workspace(), {
        required,
        view: { name: "ops", include: ["Deployment"] },
      }).catch((reason: unknown) => reason);
      expect(ContextViewEmptyError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: "CONTEXT_VIEW_EMPTY",
        view: "ops",
        headings: [
          "Task context",
          "What we are building",
          "Key terminology",
          "Visual and brand guidelines",
          "Other details",
        ],
        message:
          'View "ops" selects nothing of CONTEXT.md: it includes "Deployment" and excludes nothing. CONTEXT.md\'s headings are "Task context", "What we are building", "Key terminology", "Visual and brand guidelines", "Other details". Name headings CONTEXT.md has, or write those sections into it.',
      });
    }
    await expect(
      loadTaskContext(workspace("No headings at all."), {
        view: { name: "all-but", include: ["A"], exclude: ["B"] },
      }),
    ).rejects.toThrow(
      'View "all-but" selects nothing of CONTEXT.md: it includes "A" and excludes "B". CONTEXT.md has no headings (lines that start with #s, such as `## Key terminology`). Name headings CONTEXT.md has, or write those sections into it.',
    );
  });

  it("a missing CONTEXT.md is missing as before, with or without a view", async () => {
    await expect(
      loadTaskContext(memoryWorkspace(), { view: CONTEXT_VIEW_PRESETS.media }),
    ).rejects.toMatchObject({ code: "TASK_CONTEXT_MISSING" });
    const optional = await loadTaskContext(memoryWorkspace(), {
      required: false,
      view: CONTEXT_VIEW_PRESETS.media,
    });
    expect(optional.found).toBe(false);
    expect(Object.keys(optional)).not.toContain("view");
  });

  it("secrets are redacted before selection: only the view's redactions are delivered, at the file's lines", async () => {
    const key = `sk-proj-${"Ab3d".repeat(10)}`;
    const text = `# Task context\n\n## Other details\nOPENAI_API_KEY=${key}\n\n## Key terminology\nGITHUB_TOKEN=ghp_${"a1B2".repeat(9)}`;
    const view = { name: "terms", include: ["Key terminology"] };
    const context = await loadTaskContext(workspace(text), { view });
    expect(context.content).toBe("## Key terminology\nGITHUB_TOKEN=[redacted: github-token]");
    expect(context.redactions).toStrictEqual([{ kind: "github-token", line: 7 }]);
    // Under "refuse" a secret outside the view is not delivered, so nothing is refused.
    const safe = await loadTaskContext(workspace(text), {
      secrets: "refuse",
      view: { name: "details", exclude: ["Key terminology", "Other details"] },
    });
    expect(safe.content).toBe("# Task context");
    await expect(
      loadTaskContext(workspace(text), { secrets: "refuse", view }),
    ).rejects.toMatchObject({ code: "SECRET_IN_CONTEXT" });
  });

  it.each([
    [
      { view: "media" },
      "Invalid view: expected a view: { name, include?, exclude?, maxChars?, maxTokens? }, got a string.",
    ],
    [
      { view: { name: "" } },
      "Invalid view.name: expected the view's name, a non-empty string, got the empty string.",
    ],
  ])("refuses an invalid view before reading: %j", async (options, message) => {
    await expect(loadTaskContext(workspace(), options as never)).rejects.toThrow(message);
  });
});
