import type { ModelProfile } from "./model-profile.ts";

const OPENAI_IMAGES =
  'https://platform.openai.com/docs/api-reference/images/create — "prompt: The maximum length is 32000 characters for gpt-image-1, 1000 characters for dall-e-2 and 4000 characters for dall-e-3." A longer prompt is refused (400 invalid_request_error).';

const OPENAI_TRANSCRIPTION_PROMPT =
  "https://platform.openai.com/docs/guides/speech-to-text#prompting — the prompt guides spelling and style. Its limit for this model is not stated there and could not be verified: no limit is applied.";

const OPENAI_VISION =
  "https://platform.openai.com/docs/models — a 128 000-token context window; a longer request is refused (context_length_exceeded). Not re-verified for this table: the figure is from the model's page.";

const IMAGEN =
  'https://cloud.google.com/vertex-ai/generative-ai/docs/models/imagen/3-0-generate-002 — "Maximum input tokens (text-to-image generation prompt text): 480 tokens" (the same for imagen-3.0-generate-001; for Imagen 4, https://ai.google.dev/gemini-api/docs/imagen). What the API does with a longer prompt is not stated: unknown.';

const GEMINI =
  "https://ai.google.dev/gemini-api/docs/models — 1 048 576 input tokens; system instructions accepted. Not re-verified for this table: the figure is from the model's page.";

/** An OpenAI image model: the prompt carries everything, up to `characters`, refused beyond. */
const openAiImage = (modelId: string, characters: number): ModelProfile => ({
  provider: "openai",
  modelId,
  instructions: ["prompt"],
  systemMessage: false,
  promptLimit: { amount: characters, unit: "characters", overflow: "rejects" },
  source: OPENAI_IMAGES,
});

/** An OpenAI vision model: system message or user text, within its context window. */
const openAiVision = (modelId: string): ModelProfile => ({
  provider: "openai",
  modelId,
  instructions: ["user-text", "system"],
  systemMessage: true,
  promptLimit: { amount: 128_000, unit: "tokens", overflow: "rejects" },
  source: OPENAI_VISION,
});

/** A Google Imagen model: the prompt, up to 480 tokens. */
const imagen = (modelId: string): ModelProfile => ({
  provider: "google",
  modelId,
  instructions: ["prompt"],
  systemMessage: false,
  promptLimit: { amount: 480, unit: "tokens", overflow: "unknown" },
  source: IMAGEN,
});

/** A Gemini model reading images, video, audio and documents. */
const gemini = (modelId: string): ModelProfile => ({
  provider: "google",
  modelId,
  instructions: ["user-text", "system"],
  systemMessage: true,
  promptLimit: { amount: 1_048_576, unit: "tokens", overflow: "rejects" },
  source: GEMINI,
});

/**
 * The target models task-context knows, with what each accepts and where the figures come from.
 * A model that is not here (and not in the `modelProfiles` option) gets the context as before,
 * whole, with no fitting. Token limits count the model's own tokenizer, which task-context does
 * not have: it counts with the configured tokenizer (or the approximate one) and keeps a tenth
 * of a token limit free.
 */
export const MODEL_PROFILES: readonly ModelProfile[] = Object.freeze([
  {
    provider: "openai",
    modelId: "whisper-1",
    instructions: ["transcription-prompt"],
    systemMessage: false,
    promptLimit: { amount: 224, unit: "tokens", overflow: "keeps-end" },
    source:
      'https://platform.openai.com/docs/guides/speech-to-text#prompting — "the model will only consider the final 224 tokens of the prompt and ignore anything earlier". That page could not be fetched for this table; the figure matches Whisper\'s decoder, whose prompt may take half of its 448 text positions (whisper.cpp: "max n_text_ctx/2 tokens").',
  },
  {
    provider: "openai",
    modelId: "gpt-4o-transcribe",
    instructions: ["transcription-prompt"],
    systemMessage: false,
    source: OPENAI_TRANSCRIPTION_PROMPT,
  },
  {
    provider: "openai",
    modelId: "gpt-4o-mini-transcribe",
    instructions: ["transcription-prompt"],
    systemMessage: false,
    source: OPENAI_TRANSCRIPTION_PROMPT,
  },
  openAiImage("dall-e-2", 1_000),
  openAiImage("dall-e-3", 4_000),
  openAiImage("gpt-image-1", 32_000),
  openAiVision("gpt-4o"),
  openAiVision("gpt-4o-mini"),
  imagen("imagen-3.0-generate-001"),
  imagen("imagen-3.0-generate-002"),
  imagen("imagen-4.0-generate-001"),
  imagen("imagen-4.0-fast-generate-001"),
  imagen("imagen-4.0-ultra-generate-001"),
  gemini("gemini-2.5-flash"),
  gemini("gemini-2.5-pro"),
  {
    provider: "google",
    modelId: "gemma-3-27b-it",
    instructions: ["user-text"],
    systemMessage: false,
    source:
      'The Gemini API refuses a system instruction for Gemma models: 400 INVALID_ARGUMENT "Developer instruction is not enabled for models/gemma-3-27b-it" (reported in google/adk-python#3900, whose maintainers\' answer is to send it as the first user message). Its prompt limit is not verified here: none is applied.',
  },
  {
    provider: "fal",
    modelId: "fal-ai/fast-sdxl",
    instructions: ["prompt"],
    systemMessage: false,
    promptLimit: { amount: 77, unit: "tokens", overflow: "keeps-start" },
    source:
      'Stable Diffusion XL\'s CLIP text encoders read 77 tokens, start and end markers included ("max_position_embeddings": 77 in https://huggingface.co/stabilityai/stable-diffusion-xl-base-1.0/blob/main/text_encoder/config.json); diffusers keeps the first 77 and logs "The following part of your input was truncated because CLIP can only handle sequences up to 77 tokens". Whether this endpoint does more with a longer prompt is not verified.',
  },
] satisfies ModelProfile[]);
