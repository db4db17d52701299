import { ArgumentError, memoryWorkspace, SecretInContextError } from "@task-context/core";
import { generateText, wrapLanguageModel } from "ai";
import type { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createMediaTools, taskContextMiddleware } from "./index.ts";
import {
  allModels,
  call,
  externalCalls,
  injected,
  languageModel,
} from "./test-support/fixtures.ts";

// A fake key, assembled here so that no literal in the repository looks like a live one.
const KEY = `sk-proj-${"Lumen7Key".repeat(4)}`;
const FILE = `# Lumen\nWe are building Lumen.\nOPENAI_API_KEY=${KEY}`;
const REDACTED = "# Lumen\nWe are building Lumen.\nOPENAI_API_KEY=[redacted: openai-api-key]";
const WARNING =
  "Redacted 1 secret from CONTEXT.md before delivery: openai-api-key (line 3). Remove it from CONTEXT.md and pass credentials another way.";
const REFUSED =
  'CONTEXT.md holds 1 secret: openai-api-key (line 3). Nothing was delivered, because the secrets policy is "refuse": remove it from CONTEXT.md and pass credentials another way, or deliver with secrets: "redact".';

function tools(context?: { secrets?: "redact" | "refuse" | "allow" }) {
  const models = allModels();
  const workspace = memoryWorkspace({ "CONTEXT.md": FILE });
  return { models, tools: createMediaTools({ workspace, models, ...(context && { context }) }) };
}

describe("media tools and secrets in CONTEXT.md", () => {
  it("redact (the default): the model receives the redacted context, the result carries the warning", async () => {
    const { tools: created, models } = tools();
    const result = await call(created.generate_image, { prompt: "A logo." });
    expect(result).toMatchObject({ success: true, warning: WARNING });
    expect(models.image.calls[0]?.prompt).toBe(injected("A logo.", REDACTED));
  });

  it("refuse: the tool returns SECRET_IN_CONTEXT and calls nothing", async () => {
    const { tools: created, models } = tools({ secrets: "refuse" });
    const result = await call(created.generate_image, { prompt: "A logo." });
    expect(result).toStrictEqual({ success: false, error: REFUSED, code: "SECRET_IN_CONTEXT" });
    expect(externalCalls(models)).toBe(0);
  });

  it("allow: the model receives CONTEXT.md as written, with no warning", async () => {
    const { tools: created, models } = tools({ secrets: "allow" });
    const result = await call(created.generate_image, { prompt: "A logo." });
    expect(result).toMatchObject({ success: true });
    expect(result).not.toHaveProperty("warning");
    expect(models.image.calls[0]?.prompt).toBe(injected("A logo.", FILE));
  });

  it("refuses a misspelt policy when the tools are created", () => {
    expect(() =>
      createMediaTools({
        workspace: memoryWorkspace(),
        models: allModels(),
        context: { secrets: "redacted" as "redact" },
      }),
    ).toThrow(
      new ArgumentError({
        argument: "context.secrets",
        message: 'expected "redact", "refuse" or "allow", got "redacted".',
      }),
    );
  });
});

describe("taskContextMiddleware and secrets in CONTEXT.md", () => {
  function wrapped(secrets?: "redact" | "refuse" | "allow") {
    const model: MockLanguageModelV4 = languageModel("Sure.");
    const middleware = taskContextMiddleware({
      workspace: memoryWorkspace({ "CONTEXT.md": FILE }),
      ...(secrets && { secrets }),
    });
    return { model, wrappedModel: wrapLanguageModel({ model, middleware }) };
  }

  it("redact (the default): the call's prompt is redacted and its warnings say so", async () => {
    const { model, wrappedModel } = wrapped();
    const result = await generateText({ model: wrappedModel, prompt: "Hello." });
    expect(result.warnings).toEqual([{ type: "other", message: WARNING }]);
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      { role: "user", content: [{ type: "text", text: injected("Hello.", REDACTED) }] },
    ]);
  });

  it("refuse: the call rejects with SecretInContextError before reaching the model", async () => {
    const { model, wrappedModel } = wrapped("refuse");
    const error = await generateText({ model: wrappedModel, prompt: "Hello." }).catch(
      (reason: unknown) => reason,
    );
    expect(SecretInContextError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(REFUSED);
    expect(model.doGenerateCalls).toEqual([]);
  });

  it("allow: the call's prompt carries CONTEXT.md as written", async () => {
    const { model, wrappedModel } = wrapped("allow");
    const result = await generateText({ model: wrappedModel, prompt: "Hello." });
    expect(result.warnings).toEqual([]);
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      { role: "user", content: [{ type: "text", text: injected("Hello.", FILE) }] },
    ]);
  });
});
