// Model profiles: the context fitted to each target's limit, tested against stand-ins that
// enforce the limit the way the real API does (test-support/limited-models.ts).
import { readFileSync } from "node:fs";
import { memoryWorkspace } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import { recordSpansInEachTest } from "@task-context/trace-kit";
import { generateText, wrapLanguageModel } from "ai";
import { describe, expect, it } from "vitest";
import {
  createMediaTools,
  MODEL_PROFILES,
  type ModelProfile,
  taskContextMiddleware,
} from "./index.ts";
import { call, MP3, PNG } from "./test-support/fixtures.ts";
import {
  clipLikeModel,
  lengthRefusingModel,
  systemRefusingModel,
  whisperLikeModel,
} from "./test-support/limited-models.ts";

const GOAL = "Lumen is a note-taking app for researchers; this week we launch its App Store page.";
const TERMS = "- **Vault**: a folder of notes.\n- **LUMEN**: the wordmark, always in capitals.";
const BRAND = "Teal (#0F766E) on white. No gradients. The wordmark is never drawn as a lamp.";
const OTHER = Array.from(
  { length: 40 },
  (_, index) => `- Step ${index + 1}: run pnpm test and pnpm lint before you push the branch.`,
).join("\n");

/** A CONTEXT.md as the system prompt teaches it, with a long "Other details" at its end. */
const CONTEXT_MD = [
  "# Task context",
  "",
  "## What we are building",
  GOAL,
  "",
  "## Other details",
  OTHER,
  "",
  "## Key terminology",
  TERMS,
  "",
  "## Visual and brand guidelines",
  BRAND,
].join("\n");

/** What a limit that has no room for "Other details" keeps of CONTEXT_MD, and the text sent. */
const KEPT = [
  "Task context",
  "What we are building",
  "Key terminology",
  "Visual and brand guidelines",
];
const FITTED = `# Task context\n\n## What we are building\n${GOAL}\n\n## Key terminology\n${TERMS}\n\n## Visual and brand guidelines\n${BRAND}`;

/** A made-up chat model whose prompt may hold 600 characters. */
const SMALL: ModelProfile = {
  provider: "acme",
  modelId: "small-1",
  instructions: ["user-text"],
  systemMessage: true,
  promptLimit: { amount: 600, unit: "characters", overflow: "rejects" },
  source: "A test profile.",
};

const tools = (
  models: Parameters<typeof createMediaTools>[0]["models"],
  modelProfiles?: ModelProfile[],
) =>
  createMediaTools({
    workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT_MD, "standup.mp3": MP3 }),
    models,
    ...(modelProfiles === undefined ? {} : { modelProfiles }),
  });

describe("a whisper-like transcription model (reads the last 224 tokens of its prompt)", () => {
  it("with its profile, receives the goal, the key terms and the request, and the result says what was left out", async () => {
    const transcription = whisperLikeModel();
    const result = await call(tools({ transcription }).understand_audio, {
      path: "standup.mp3",
      prompt: "Transcribe the stand-up.",
    });
    const heard = transcription.considered[0] as string;
    expect(heard).toBe(`[Task Context]\n${FITTED}\n\n[Request]\nTranscribe the stand-up.`);
    expect(result).toMatchObject({
      success: true,
      contextFit: {
        profile: "openai/whisper-1",
        limit: { amount: 224, unit: "tokens", overflow: "keeps-end" },
        kept: KEPT,
        dropped: ["Other details"],
        cut: false,
        leftOut: false,
        loadedSha256: await sha256Hex(CONTEXT_MD),
      },
      contextSha256: await sha256Hex(FITTED),
      warning:
        'The task context was fitted to openai/whisper-1\'s prompt limit (224 tokens; it reads only the last 224): kept "Task context", "What we are building", "Key terminology", "Visual and brand guidelines"; left out "Other details". Put what every model must know first in CONTEXT.md, under "What we are building" and "Key terminology".',
    });
  });

  it("without a profile, gets the whole context as today — and so reads only its end, without the goal", async () => {
    const transcription = whisperLikeModel("groq.transcription", "whisper-large-v3");
    const result = await call(tools({ transcription }).understand_audio, {
      path: "standup.mp3",
      prompt: "Transcribe the stand-up.",
    });
    const heard = transcription.considered[0] as string;
    expect(heard).not.toContain(GOAL);
    expect(heard.endsWith(`${BRAND}\n\n[Request]\nTranscribe the stand-up.`)).toBe(true);
    expect(result).toStrictEqual({
      success: true,
      tool: "understand_audio",
      path: "standup.mp3",
      mediaType: "audio/mpeg",
      size: MP3.length,
      text: "LUMEN ships on Monday.",
      segments: [],
      language: "en",
      durationInSeconds: 1.5,
      contextSha256: await sha256Hex(CONTEXT_MD),
    });
  });

  it("with a profile the user adds for it, receives the goal", async () => {
    const transcription = whisperLikeModel("groq.transcription", "whisper-large-v3");
    const profile: ModelProfile = {
      provider: "groq",
      modelId: "whisper-large-v3",
      instructions: ["transcription-prompt"],
      systemMessage: false,
      promptLimit: { amount: 224, unit: "tokens", overflow: "keeps-end" },
      source: "Groq's speech-to-text guide: the prompt is limited to 224 tokens.",
    };
    const result = await call(tools({ transcription }, [profile]).understand_audio, {
      path: "standup.mp3",
      prompt: "Transcribe the stand-up.",
    });
    expect(transcription.considered[0]).toContain(GOAL);
    expect(result).toMatchObject({ contextFit: { profile: "groq/whisper-large-v3" } });
  });
});

describe("a CLIP-like image model (reads the first 77 tokens of its prompt)", () => {
  it("with its profile, reads the goal and the whole request, and nothing it would drop is sent", async () => {
    const image = clipLikeModel();
    const result = await call(tools({ image }).generate_image, {
      prompt: "A hero image of a vault.",
    });
    const read = image.considered[0] as string;
    expect(read).toBe(
      `[Task Context]\n# Task context\n\n## What we are building\n${GOAL}\n\n[Request]\nA hero image of a vault.`,
    );
    expect(result).toMatchObject({
      success: true,
      contextFit: {
        profile: "fal/fal-ai/fast-sdxl",
        kept: ["Task context", "What we are building"],
        dropped: ["Other details", "Key terminology", "Visual and brand guidelines"],
        cut: false,
      },
    });
  });

  it("without a profile, gets the whole context as today, and its request is cut off", async () => {
    const image = clipLikeModel("acme.image", "sdxl");
    const result = await call(tools({ image }).generate_image, {
      prompt: "A hero image of a vault.",
    });
    expect(image.considered[0]).not.toContain("A hero image");
    expect(result).toMatchObject({ success: true, contextSha256: await sha256Hex(CONTEXT_MD) });
    expect(result).not.toHaveProperty("contextFit");
    expect(result).not.toHaveProperty("warning");
  });
});

describe("a dall-e-3-like image model (refuses a prompt over 4 000 characters)", () => {
  const LONG = `${CONTEXT_MD}\n\n## Archive\n${"Old meeting notes about the launch. ".repeat(150)}`;

  it("without a profile, the provider refuses the call as today", async () => {
    const image = lengthRefusingModel("azure.image", "dall-e-3");
    const { generate_image } = createMediaTools({
      workspace: memoryWorkspace({ "CONTEXT.md": LONG }),
      models: { image },
    });
    const result = await call(generate_image, { prompt: "A hero image." });
    expect(result).toStrictEqual({
      success: false,
      code: "PROVIDER_ERROR",
      error: `generate_image: the model provider failed (HTTP 400): Invalid 'prompt': string too long. Expected a string with maximum length 4000, but got a string with length ${injectedLength(LONG, "A hero image.")} instead.`,
    });
  });

  it("with its profile, the call succeeds with the goal and key terms, and the archive left out", async () => {
    const image = lengthRefusingModel();
    const { generate_image } = createMediaTools({
      workspace: memoryWorkspace({ "CONTEXT.md": LONG }),
      models: { image },
    });
    const result = await call(generate_image, { prompt: "A hero image." });
    const prompt = image.prompts[0] as string;
    expect(prompt.length).toBeLessThanOrEqual(4_000);
    expect(prompt).toContain(GOAL);
    expect(prompt).toContain(TERMS);
    expect(prompt.endsWith("\n\n[Request]\nA hero image.")).toBe(true);
    expect(result).toMatchObject({
      success: true,
      contextFit: { profile: "openai/dall-e-3", dropped: ["Archive"], cut: false, leftOut: false },
      warning:
        'The task context was fitted to openai/dall-e-3\'s prompt limit (4000 characters; it refuses longer prompts): kept "Task context", "What we are building", "Other details", "Key terminology", "Visual and brand guidelines"; left out "Archive". Put what every model must know first in CONTEXT.md, under "What we are building" and "Key terminology".',
    });
  });

  it("leaves the context out when the request alone fills the limit, and never cuts the request", async () => {
    const image = lengthRefusingModel("openai.image", "dall-e-2");
    const request = `A hero image. ${"Teal and white. ".repeat(61)}`.trim();
    const result = await call(tools({ image }).generate_image, { prompt: request });
    expect(image.prompts).toStrictEqual([request]);
    expect(result).toMatchObject({
      success: true,
      contextSha256: await sha256Hex(""),
      contextFit: {
        profile: "openai/dall-e-2",
        kept: [],
        dropped: [
          "Task context",
          "What we are building",
          "Other details",
          "Key terminology",
          "Visual and brand guidelines",
        ],
        leftOut: true,
      },
      warning: `The task context was left out: the request alone uses about ${request.length} of openai/dall-e-2's prompt limit (1000 characters; it refuses longer prompts). Shorten the request to leave room for CONTEXT.md.`,
    });
  });
});

describe("a model that refuses system messages, through the middleware", () => {
  const ask = (model: ReturnType<typeof systemRefusingModel>) =>
    generateText({
      model: wrapLanguageModel({
        model,
        middleware: taskContextMiddleware({
          workspace: memoryWorkspace({ "CONTEXT.md": "We are building Lumen." }),
        }),
      }),
      system: "Answer in English.",
      prompt: "Name three headlines.",
      maxRetries: 0,
    });

  it("without a profile, the provider refuses the call as today", async () => {
    await expect(
      ask(systemRefusingModel("google.generative-ai", "gemma-3-12b-it")),
    ).rejects.toThrow("Developer instruction is not enabled for models/gemma-3-12b-it");
  });

  it("with its profile, gets the system message and the context in the user text, and says so", async () => {
    const model = systemRefusingModel();
    const result = await ask(model);
    // toEqual: the AI SDK adds `providerOptions: undefined` to each message.
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      {
        role: "user",
        content: [
          {
            type: "text",
            text: "[Task Context]\nWe are building Lumen.\n\n[Request]\nAnswer in English.\n\nName three headlines.",
          },
        ],
      },
    ]);
    expect(result.text).toBe("Three headlines.");
    expect(result.warnings).toContainEqual({
      type: "other",
      message:
        "google/gemma-3-27b-it accepts no system message: its text was sent at the start of the first user message instead.",
    });
  });
});

describe("the middleware with a model whose limit the context exceeds", () => {
  it("fits the context, reports the fit in the receipt and the warning in the call's warnings", async () => {
    const model = systemRefusingModel("acme.chat", "small-1");
    const profile = SMALL;
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: taskContextMiddleware({
          workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT_MD }),
          modelProfiles: [profile],
        }),
      }),
      prompt: "Name three headlines.",
    });
    const sent = FITTED;
    // toEqual: the AI SDK adds `providerOptions: undefined` to each message.
    expect(model.doGenerateCalls[0]?.prompt).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: `[Task Context]\n${sent}\n\n[Request]\nName three headlines.` },
        ],
      },
    ]);
    expect(result.providerMetadata?.taskContext).toStrictEqual({
      contextSha256: await sha256Hex(sent),
      contextFit: {
        profile: "acme/small-1",
        limit: { amount: 600, unit: "characters", overflow: "rejects" },
        kept: KEPT,
        dropped: ["Other details"],
        cut: false,
        leftOut: false,
        loadedSha256: await sha256Hex(CONTEXT_MD),
      },
    });
    expect(result.warnings).toContainEqual({
      type: "other",
      message:
        'The task context was fitted to acme/small-1\'s prompt limit (600 characters; it refuses longer prompts): kept "Task context", "What we are building", "Key terminology", "Visual and brand guidelines"; left out "Other details". Put what every model must know first in CONTEXT.md, under "What we are building" and "Key terminology".',
    });
  });
});

describe("the media tools through a model wrapped with the middleware, both with its profile", () => {
  it("send the fitted context once, and say so once", async () => {
    const model = systemRefusingModel("acme.chat", "small-1");
    const workspace = memoryWorkspace({ "CONTEXT.md": CONTEXT_MD, "a.png": PNG });
    const modelProfiles = [SMALL];
    const { understand_image } = createMediaTools({
      workspace,
      models: {
        understanding: wrapLanguageModel({
          model,
          middleware: taskContextMiddleware({ workspace, modelProfiles }),
        }),
      },
      modelProfiles,
    });
    const result = await call(understand_image, { path: "a.png", prompt: "What does it say?" });
    expect(model.doGenerateCalls[0]?.prompt[0]?.content[0]).toEqual({
      type: "text",
      text: `[Task Context]\n${FITTED}\n\n[Request]\nWhat does it say?`,
    });
    expect(result).toMatchObject({ success: true, contextSha256: await sha256Hex(FITTED) });
    expect((result as { warning: string }).warning.match(/was fitted/g)).toHaveLength(1);
  });
});

describe("modelProfiles", () => {
  it("refuses a profile it cannot use, naming the field", () => {
    const profile = {
      ...MODEL_PROFILES[0],
      promptLimit: { amount: 224, unit: "words", overflow: "keeps-end" },
    };
    expect(() =>
      createMediaTools({
        workspace: memoryWorkspace(),
        models: {},
        modelProfiles: [profile as ModelProfile],
      }),
    ).toThrow(
      'Invalid modelProfiles[0].promptLimit.unit: expected one of "characters", "tokens", got "words".',
    );
    expect(() =>
      taskContextMiddleware({ workspace: memoryWorkspace(), modelProfiles: {} as never }),
    ).toThrow("Invalid modelProfiles: expected an array of model profiles, got an object.");
    expect(() =>
      createMediaTools({
        workspace: memoryWorkspace(),
        models: {},
        modelProfiles: [{ ...MODEL_PROFILES[0], instructions: ["header"] } as never],
      }),
    ).toThrow(
      'Invalid modelProfiles[0].instructions[0]: expected one of "system", "user-text", "prompt", "transcription-prompt", "speech-instructions", got "header".',
    );
  });

  it("every built-in profile is in the docs' table, with its limit", () => {
    const page = readFileSync(new URL("../../../docs/model-profiles.md", import.meta.url), "utf8");
    const rows = page.split("\n").filter((line) => line.startsWith("| `"));
    for (const profile of MODEL_PROFILES) {
      const row = rows.find(
        (line) =>
          line.startsWith(`| \`${profile.provider}\` |`) && line.includes(`\`${profile.modelId}\``),
      );
      expect(row, `${profile.provider}/${profile.modelId}`).toBeDefined();
      const limit = profile.promptLimit;
      // Figures as the docs write them: groups of three digits apart, "128 000".
      const figure = String(limit?.amount).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
      const amount = limit === undefined ? "none applied" : `${figure} ${limit.unit}`;
      expect(row, `${profile.provider}/${profile.modelId}`).toContain(amount);
    }
  });

  it("every built-in profile names its source and passes its own check", () => {
    for (const profile of MODEL_PROFILES) {
      expect(profile.source.length).toBeGreaterThan(20);
      expect(() =>
        createMediaTools({ workspace: memoryWorkspace(), models: {}, modelProfiles: [profile] }),
      ).not.toThrow();
    }
  });
});

/** The length of the prompt sent with the whole context: the stand-in's error quotes it. */
function injectedLength(context: string, request: string): number {
  return `[Task Context]\n${context.slice(0, 10_000).trim()}\n\n[Request]\n${request}`.length;
}

describe("the delivery span of a fitted call", () => {
  const recorder = recordSpansInEachTest();
  /** What a span records of a context fitted to SMALL: the text sent, the fit, the loaded hash. */
  const fittedAttributes = async () => ({
    "task_context.context.sha256": await sha256Hex(FITTED),
    "task_context.context.characters": FITTED.length,
    "task_context.context.original_characters": CONTEXT_MD.length,
    "task_context.context.truncated": true,
    "task_context.context.loaded_sha256": await sha256Hex(CONTEXT_MD),
    "task_context.context.fit.profile": "acme/small-1",
    "task_context.context.fit.dropped": ["Other details"],
    "task_context.context.fit.left_out": false,
  });

  it("records the context as sent by a media tool, not as loaded, with the fit", async () => {
    const image = lengthRefusingModel("acme.image", "small-1");
    const { generate_image } = tools({ image }, [SMALL]);
    const result = await call(generate_image, { prompt: "A hero image." });
    expect(result).toMatchObject({ success: true, contextSha256: await sha256Hex(FITTED) });
    expect(recorder.records()).toHaveLength(1);
    expect(recorder.records()[0]?.attributes).toMatchObject(await fittedAttributes());
  });

  it("records the context as sent through the middleware, with the fit", async () => {
    const model = systemRefusingModel("acme.chat", "small-1");
    await generateText({
      model: wrapLanguageModel({
        model,
        middleware: taskContextMiddleware({
          workspace: memoryWorkspace({ "CONTEXT.md": CONTEXT_MD }),
          modelProfiles: [SMALL],
        }),
      }),
      prompt: "Name three headlines.",
    });
    const spans = recorder.records().filter(({ name }) => name === "chat small-1");
    expect(spans).toHaveLength(1);
    expect(spans[0]?.attributes).toMatchObject(await fittedAttributes());
  });

  it("records no fit when the context fits whole", async () => {
    const image = lengthRefusingModel("acme.image", "small-1");
    const { generate_image } = tools({ image }, [{ ...SMALL, promptLimit: undefined }]);
    await call(generate_image, { prompt: "A hero image." });
    const attributes = recorder.records()[0]?.attributes ?? {};
    expect(attributes["task_context.context.sha256"]).toBe(await sha256Hex(CONTEXT_MD));
    expect(
      Object.keys(attributes).filter((key) => key.includes(".fit.") || key.includes("loaded")),
    ).toEqual([]);
  });
});
