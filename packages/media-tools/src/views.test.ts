import { createHash } from "node:crypto";
import { CONTEXT_VIEW_PRESETS, memoryWorkspace } from "@task-context/core";
import { deliveredContext, recordSpans } from "@task-context/trace-kit";
import { generateText, wrapLanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import { mediaToolsWithViews, wrappedWithView } from "../examples/views.ts";
import { createMediaTools, taskContextMiddleware } from "./index.ts";
import {
  allModels,
  call,
  externalCalls,
  injected,
  languageModel,
  MEDIA,
  recordingWorkspace,
} from "./test-support/fixtures.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

const CONTEXT_MD = `# Task context

## What we are building
Lumen, a note-taking app.

## Key terminology
- **LUMEN**: the wordmark.

## Visual and brand guidelines
Deep teal, never pure black.

## Other details
Run \`pnpm test\` before committing.`;

const MEDIA_VIEW = `## What we are building
Lumen, a note-taking app.

## Key terminology
- **LUMEN**: the wordmark.

## Visual and brand guidelines
Deep teal, never pure black.`;

const MEDIA_RECEIPT = {
  contextSha256: sha256(MEDIA_VIEW),
  contextView: {
    name: "media",
    sections: ["What we are building", "Key terminology", "Visual and brand guidelines"],
    fileSha256: sha256(CONTEXT_MD),
  },
};

function setup(views: Parameters<typeof createMediaTools>[0]["views"] = {}) {
  const { workspace } = recordingWorkspace({ ...MEDIA, "CONTEXT.md": CONTEXT_MD });
  const models = allModels();
  const tools = createMediaTools({ workspace, models, views });
  return { workspace, models, tools };
}

describe("media tools with views", () => {
  it("a tool's view is what its model receives; the result names the view and both hashes", async () => {
    const { tools, models } = setup({ generate_image: CONTEXT_VIEW_PRESETS.media });
    const result = await call(tools.generate_image, { prompt: "A hero image." });
    expect(models.image.calls[0]?.prompt).toBe(injected("A hero image.", MEDIA_VIEW));
    expect(result).toMatchObject({ success: true, ...MEDIA_RECEIPT });
    expect(result).not.toHaveProperty("warning");
  });

  it("tools without a view deliver the whole file, and their results carry no contextView", async () => {
    const { tools, models } = setup({ generate_image: CONTEXT_VIEW_PRESETS.media });
    const result = await call(tools.generate_video, { prompt: "A teaser." });
    expect(models.video.calls[0]?.prompt).toBe(injected("A teaser.", CONTEXT_MD));
    expect(result).toMatchObject({ success: true, contextSha256: sha256(CONTEXT_MD) });
    expect(result).not.toHaveProperty("contextView");
  });

  it("generate_media uses the view of the tool its type picks, unless it has its own", async () => {
    const { tools, models } = setup({ generate_image: CONTEXT_VIEW_PRESETS.media });
    expect(await call(tools.generate_media, { type: "image", prompt: "A logo." })).toMatchObject(
      MEDIA_RECEIPT,
    );
    expect(models.image.calls[0]?.prompt).toBe(injected("A logo.", MEDIA_VIEW));
    const own = setup({
      generate_image: CONTEXT_VIEW_PRESETS.media,
      generate_media: { name: "building", include: ["What we are building"] },
    });
    await call(own.tools.generate_media, { type: "image", prompt: "A logo." });
    expect(own.models.image.calls[0]?.prompt).toBe(
      injected("A logo.", "## What we are building\nLumen, a note-taking app."),
    );
  });

  it("read_media uses the view of the understand tool the file's kind picks", async () => {
    const { tools, models } = setup({ understand_image: CONTEXT_VIEW_PRESETS.brief });
    const image = await call(tools.read_media, { path: "media/screenshot.png", prompt: "Header?" });
    expect(image).toMatchObject({ success: true, tool: "understand_image" });
    expect((image as { contextView?: { name: string } }).contextView?.name).toBe("brief");
    const pdf = await call(tools.read_media, { path: "media/brief.pdf", prompt: "Summary?" });
    expect(pdf).toMatchObject({
      success: true,
      tool: "understand_file",
      contextSha256: sha256(CONTEXT_MD),
    });
    expect(models.understanding.doGenerateCalls).toHaveLength(2);
    // A file that cannot be read gets no view, and the call reports it as it would without views.
    expect(await call(tools.read_media, { path: "media/none.png", prompt: "?" })).toMatchObject({
      success: false,
      code: "FILE_NOT_FOUND",
    });
  });

  it("a view that selects nothing fails the call with CONTEXT_VIEW_EMPTY, before any external call", async () => {
    const { tools, models } = setup({ generate_image: { name: "ops", include: ["Deployment"] } });
    expect(await call(tools.generate_image, { prompt: "A logo." })).toStrictEqual({
      success: false,
      error:
        'View "ops" selects nothing of CONTEXT.md: it includes "Deployment" and excludes nothing. CONTEXT.md\'s headings are "Task context", "What we are building", "Key terminology", "Visual and brand guidelines", "Other details". Name headings CONTEXT.md has, or write those sections into it.',
      code: "CONTEXT_VIEW_EMPTY",
    });
    expect(externalCalls(models)).toBe(0);
  });

  it("a heading the file does not have is a warning on the result", async () => {
    const { tools } = setup({
      generate_image: { name: "image", include: ["Key terminology", "Brand rules"] },
    });
    expect(await call(tools.generate_image, { prompt: "A logo." })).toMatchObject({
      success: true,
      warning:
        'View "image" names a heading CONTEXT.md does not have: "Brand rules". CONTEXT.md\'s headings are "Task context", "What we are building", "Key terminology", "Visual and brand guidelines", "Other details". Check the view\'s include and exclude.',
    });
  });

  it("a change to CONTEXT.md outside the view during the call is no stale context; inside it is", async () => {
    const { tools, models, workspace } = setup({ generate_image: CONTEXT_VIEW_PRESETS.media });
    const doGenerate = models.image.doGenerate.bind(models.image);
    let rewrite = `${CONTEXT_MD}\nAnd run the linter.`;
    models.image.doGenerate = async (options) => {
      await workspace.writeFile("CONTEXT.md", rewrite);
      return doGenerate(options);
    };
    expect(await call(tools.generate_image, { prompt: "A logo." })).not.toHaveProperty("warning");
    rewrite = CONTEXT_MD.replace("Deep teal", "Bright red");
    expect(await call(tools.generate_image, { prompt: "A logo." })).toMatchObject({
      warning: expect.stringMatching(/^Your CONTEXT\.md changed while generate_image ran: /),
    });
  });

  it("refuses views of unknown tools and token budgets without a tokenizer", () => {
    const { workspace } = recordingWorkspace({});
    expect(() =>
      createMediaTools({ workspace, models: {}, views: { draw_image: { name: "x" } } as never }),
    ).toThrow(
      'Invalid views: expected only read_media, generate_media, understand_image, understand_audio, understand_video, understand_file, generate_image, generate_video, generate_audio, got "draw_image".',
    );
    expect(() =>
      createMediaTools({
        workspace,
        models: {},
        views: { generate_image: { name: "x", maxTokens: 10 } },
      }),
    ).toThrow(
      'Invalid views.generate_image.maxTokens: view "x" has a token budget, which needs a tokenizer: pass `context: { tokenizer }` (approximateTokenizer, or o200kTokenizer from "@task-context/core/o200k").',
    );
    expect(() =>
      createMediaTools({ workspace, models: {}, views: { generate_image: { name: "" } } }),
    ).toThrow(
      "Invalid views.generate_image.name: expected the view's name, a non-empty string, got the empty string.",
    );
  });
});

describe("spans of a view's delivery", () => {
  it("name the view, its sections and the whole file's hash beside the view's own hash", async () => {
    const recorder = recordSpans();
    try {
      const { tools } = setup({ generate_image: CONTEXT_VIEW_PRESETS.media });
      await call(tools.generate_image, { prompt: "A hero image." });
      expect(recorder.records()[0]?.attributes).toMatchObject({
        ...deliveredContext(MEDIA_VIEW),
        "task_context.context.view.name": "media",
        "task_context.context.view.sections": [
          "What we are building",
          "Key terminology",
          "Visual and brand guidelines",
        ],
        "task_context.context.file_sha256": sha256(CONTEXT_MD),
      });
    } finally {
      await recorder.stop();
    }
  });
});

describe("taskContextMiddleware with a view", () => {
  it("injects the view and reports it in providerMetadata beside the receipt", async () => {
    const model = languageModel("Sure.");
    const wrappedModel = wrapLanguageModel({
      model,
      middleware: taskContextMiddleware({
        workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT_MD }),
        view: CONTEXT_VIEW_PRESETS.media,
      }),
    });
    const result = await generateText({ model: wrappedModel, prompt: "Name three headlines." });
    const message = model.doGenerateCalls[0]?.prompt[0];
    expect(message?.role === "user" ? message.content[0] : undefined).toMatchObject({
      type: "text",
      text: injected("Name three headlines.", MEDIA_VIEW),
    });
    expect(result.providerMetadata).toStrictEqual({ taskContext: MEDIA_RECEIPT });
  });
});

describe("the views examples", () => {
  it("generate_media with type image delivers the media view; the middleware the brief view", async () => {
    const { workspace } = recordingWorkspace({ ...MEDIA, "CONTEXT.md": CONTEXT_MD });
    const models = allModels();
    const { result } = await mediaToolsWithViews(workspace, models);
    expect(result).toMatchObject({ success: true, ...MEDIA_RECEIPT });
    expect(models.image.calls[0]?.prompt).toBe(injected("A hero image.", MEDIA_VIEW));
    const model = models.understanding;
    const answer = await generateText({ model: wrappedWithView(workspace, model), prompt: "Hi." });
    expect(answer.providerMetadata?.taskContext?.contextView).toStrictEqual({
      name: "brief",
      sections: ["What we are building", "Key terminology"],
      fileSha256: sha256(CONTEXT_MD),
    });
  });
});
