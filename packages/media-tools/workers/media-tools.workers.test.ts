// Runs inside workerd through the Workers Vitest integration (vitest.workers.config.ts): the tools
// and the middleware on a memory workspace, with the AI SDK's test models.
import { CONTEXT_MISSING_MESSAGE, memoryWorkspace } from "@task-context/core";
import { generateText, wrapLanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import { createMediaTools, taskContextMiddleware } from "../src/index.ts";
import {
  CONTEXT,
  CONTEXT_SHA256,
  call,
  imageModel,
  injected,
  languageModel,
  PNG,
} from "../src/test-support/fixtures.ts";

describe("media tools on Cloudflare Workers (workerd)", () => {
  it("runs inside workerd", () => {
    expect(navigator.userAgent).toBe("Cloudflare-Workers");
  });

  it("Tool receives task context: read_media understands an image from a memory workspace", async () => {
    const understanding = languageModel("The header says LUMEN.");
    const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT, "screens/home.jpg": PNG });
    const { read_media } = createMediaTools({ workspace, models: { understanding } });
    const result = await call(read_media, { path: "screens/home.jpg", prompt: "Header?" });
    expect(result).toEqual({
      success: true,
      tool: "understand_image",
      path: "screens/home.jpg",
      mediaType: "image/png",
      size: PNG.length,
      text: "The header says LUMEN.",
      contextSha256: CONTEXT_SHA256, // hashed with Web Crypto here
    });
    const message = understanding.doGenerateCalls[0]?.prompt[0];
    expect(message?.role === "user" && message.content[0]).toEqual({
      type: "text",
      text: injected("Header?"),
    });
  });

  it("generate_media writes the generated image into the memory workspace", async () => {
    const image = imageModel();
    const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT });
    const { generate_media } = createMediaTools({ workspace, models: { image } });
    const result = await call(generate_media, { type: "image", prompt: "A hero image." });
    expect(result).toMatchObject({ success: true, tool: "generate_image", mediaType: "image/png" });
    expect(image.calls[0]?.prompt).toBe(injected("A hero image."));
    const path = (result as { path: string }).path;
    expect((await workspace.readFile(path)).bytes).toEqual(PNG);
  });

  it("Tool fails without CONTEXT.md, and makes no call", async () => {
    const image = imageModel();
    const { generate_image } = createMediaTools({
      workspace: memoryWorkspace(),
      models: { image },
    });
    expect(await call(generate_image, { prompt: "A logo." })).toEqual({
      success: false,
      code: "TASK_CONTEXT_MISSING",
      error: `${CONTEXT_MISSING_MESSAGE}\nThere is no CONTEXT.md at the workspace root.`,
    });
    expect(image.calls).toHaveLength(0);
  });

  it("times out on the Workers clock", async () => {
    const image = imageModel();
    image.doGenerate = () => new Promise(() => {});
    const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT });
    const { generate_image } = createMediaTools({ workspace, models: { image }, timeoutMs: 20 });
    expect(await call(generate_image, { prompt: "A logo." })).toMatchObject({
      success: false,
      code: "TIMEOUT",
    });
  });

  it("taskContextMiddleware injects the context into a wrapped model's call", async () => {
    const model = languageModel();
    const wrapped = wrapLanguageModel({
      model,
      middleware: taskContextMiddleware({ workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT }) }),
    });
    await generateText({ model: wrapped, prompt: "Name three headlines." });
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      { role: "user", content: [{ type: "text", text: injected("Name three headlines.") }] },
    ]);
  });
});
