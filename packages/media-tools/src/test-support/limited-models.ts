// Stand-in models that enforce a prompt limit the way the real APIs do: whisper-1 reads only the
// last 224 tokens of its prompt, a CLIP text encoder the first 77 (75 after its start and end
// markers), Gemma on the Gemini API refuses a system message, dall-e-3 refuses a prompt over 4 000
// characters. They count tokens their own way — every word and every other non-space character
// is one — not with task-context's tokenizer, as the real models use theirs.
import { APICallError, type ImageModel, type TranscriptionModel } from "ai";
import { MockImageModelV4, MockLanguageModelV4, MockTranscriptionModelV4 } from "ai/test";
import { PNG } from "./fixtures.ts";

type ImageModelV4 = Extract<ImageModel, { specificationVersion: "v4" }>;
type TranscriptionModelV4 = Extract<TranscriptionModel, { specificationVersion: "v4" }>;

const response = () => ({ timestamp: new Date(0), modelId: "mock", headers: {} });

/** Where each token of `text` starts: a word, or any other character that is not a space. */
function tokenStarts(text: string): number[] {
  return [...text.matchAll(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)].map((match) => match.index);
}

/** The last `count` tokens of `text`, as the text from the first of them. */
export function lastTokens(text: string, count: number): string {
  const starts = tokenStarts(text);
  return starts.length <= count ? text : text.slice(starts[starts.length - count]);
}

/** The first `count` tokens of `text`, as the text up to the first token beyond them. */
export function firstTokens(text: string, count: number): string {
  const starts = tokenStarts(text);
  return starts.length <= count ? text : text.slice(0, starts[count]).trimEnd();
}

/**
 * A transcription model that, like whisper-1, considers only the final 224 tokens of its
 * `prompt` provider option. `considered` lists what it read of each call's prompt.
 */
export function whisperLikeModel(provider = "openai.transcription", modelId = "whisper-1") {
  const considered: string[] = [];
  const model = new MockTranscriptionModelV4({
    provider,
    modelId,
    doGenerate: async (options) => {
      const key = provider.split(".")[0] as string;
      const prompt = options.providerOptions?.[key]?.prompt;
      considered.push(lastTokens(typeof prompt === "string" ? prompt : "", 224));
      return {
        text: "LUMEN ships on Monday.",
        segments: [],
        language: "en",
        durationInSeconds: 1.5,
        warnings: [],
        response: response(),
      };
    },
  });
  return Object.assign(model as unknown as TranscriptionModelV4, { considered });
}

/**
 * An image model whose text encoder, like Stable Diffusion's CLIP, reads 77 tokens — a start
 * marker, the first 75 tokens of the prompt, an end marker — and drops the rest.
 */
export function clipLikeModel(provider = "fal.image", modelId = "fal-ai/fast-sdxl") {
  const considered: string[] = [];
  const model = new MockImageModelV4({
    provider,
    modelId,
    doGenerate: async (options) => {
      considered.push(firstTokens(options.prompt ?? "", 75));
      return { images: [PNG], warnings: [], response: response() };
    },
  });
  return Object.assign(model as unknown as ImageModelV4, { considered });
}

/** An image model that, like dall-e-3, refuses a prompt over 4 000 characters with a 400. */
export function lengthRefusingModel(provider = "openai.image", modelId = "dall-e-3") {
  const prompts: string[] = [];
  const model = new MockImageModelV4({
    provider,
    modelId,
    doGenerate: async (options) => {
      const prompt = options.prompt ?? "";
      if (prompt.length > 4_000) {
        throw new APICallError({
          message: `Invalid 'prompt': string too long. Expected a string with maximum length 4000, but got a string with length ${prompt.length} instead.`,
          url: "https://api.example.test/v1/images/generations",
          requestBodyValues: {},
          statusCode: 400,
          isRetryable: false,
        });
      }
      prompts.push(prompt);
      return { images: [PNG], warnings: [], response: response() };
    },
  });
  return Object.assign(model as unknown as ImageModelV4, { prompts });
}

/**
 * A language model that, like Gemma on the Gemini API, refuses any system message with a 400
 * ("Developer instruction is not enabled for models/…"), and records the prompts it accepted.
 */
export function systemRefusingModel(provider = "google.generative-ai", modelId = "gemma-3-27b-it") {
  const model = new MockLanguageModelV4({
    provider,
    modelId,
    doGenerate: async (options) => {
      if (options.prompt.some((message) => message.role === "system")) {
        throw new APICallError({
          message: `Developer instruction is not enabled for models/${modelId}`,
          url: "https://api.example.test/v1beta/models:generateContent",
          requestBodyValues: {},
          statusCode: 400,
          isRetryable: false,
        });
      }
      return {
        content: [{ type: "text", text: "Three headlines." }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 2, text: 2, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
  return model;
}
