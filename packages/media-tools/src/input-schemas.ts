import { z } from "zod";

// The schemas the model sees. None of them declares the task context: the tools load CONTEXT.md
// themselves on every call. Every check carries the "expected …" half of the
// argument error a bad input gets (see parse-tool-input.ts), so the model reads what to send
// instead; the bounds also show in the JSON Schema (`maxLength`).

/** The longest prompt or text a tool accepts, in UTF-16 units: ten times the CONTEXT.md limit. */
export const MAX_PROMPT_CHARS = 100_000;
/** The longest workspace path a tool accepts (the usual operating-system limit). */
const MAX_PATH_CHARS = 4_096;
/** The longest short setting (voice, format, language). */
const MAX_SETTING_CHARS = 200;

const text = (max: number, description: string) => {
  const expected = `expected a non-empty string of at most ${max} characters`;
  return z
    .string({ error: expected })
    .min(1, { error: expected })
    .max(max, { error: expected })
    .describe(description);
};

const dimensions = (expected: string, pattern: RegExp, description: string) =>
  z
    .string({ error: expected })
    .regex(pattern, { error: expected })
    .max(MAX_SETTING_CHARS, { error: expected })
    .describe(description);

const positive = (expected: string, description: string) =>
  z.number({ error: expected }).positive({ error: expected }).describe(description);

const path = text(
  MAX_PATH_CHARS,
  'Workspace-relative path of the file, e.g. "screenshots/home.png".',
);
const size = () =>
  dimensions(
    'expected a size as "{width}x{height}", e.g. "1024x1024"',
    /^\d+x\d+$/,
    'Image size in pixels as "{width}x{height}", e.g. "1024x1024".',
  );
const resolution = () =>
  dimensions(
    'expected a resolution as "{width}x{height}", e.g. "1280x720"',
    /^\d+x\d+$/,
    'Resolution as "{width}x{height}", e.g. "1280x720".',
  );
const aspectRatio = () =>
  dimensions(
    'expected an aspect ratio as "{width}:{height}", e.g. "16:9"',
    /^\d+:\d+$/,
    'Aspect ratio as "{width}:{height}", e.g. "16:9".',
  );
const seed = () =>
  z
    .number({ error: "expected a whole number" })
    .int({ error: "expected a whole number" })
    .describe("Seed for reproducible output, where the model supports it.");
const duration = () => positive("expected a number of seconds > 0", "Length in seconds.");
const objectOf = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.object(shape, { error: "expected an object with the tool's parameters" });

/** Input of `read_media` and the four understand tools. */
export const understandInputSchema = objectOf({
  path,
  prompt: text(MAX_PROMPT_CHARS, "What to find out about the file: a question or an instruction."),
});

/** What the model passes to `read_media` and the understand tools. */
export type UnderstandInput = z.infer<typeof understandInputSchema>;

/** Input of `generate_image`. */
export const generateImageInputSchema = objectOf({
  prompt: text(MAX_PROMPT_CHARS, "What the image should show."),
  size: size().optional(),
  aspectRatio: aspectRatio().optional(),
  seed: seed().optional(),
});

/** What the model passes to `generate_image`. */
export type GenerateImageInput = z.infer<typeof generateImageInputSchema>;

/** Input of `generate_video`. */
export const generateVideoInputSchema = objectOf({
  prompt: text(MAX_PROMPT_CHARS, "What the video should show."),
  aspectRatio: aspectRatio().optional(),
  resolution: resolution().optional(),
  duration: duration().optional(),
  seed: seed().optional(),
});

/** What the model passes to `generate_video`. */
export type GenerateVideoInput = z.infer<typeof generateVideoInputSchema>;

const speechSettings = () => ({
  voice: text(MAX_SETTING_CHARS, 'Voice name of the speech model, e.g. "alloy".').optional(),
  format: text(MAX_SETTING_CHARS, 'Audio format, e.g. "mp3" or "wav".').optional(),
  speed: positive("expected a number > 0", "Speaking speed, 1 is normal.").optional(),
  language: text(MAX_SETTING_CHARS, 'Language code, e.g. "en" or "de".').optional(),
});

/** Input of `generate_audio`. */
export const generateAudioInputSchema = objectOf({
  text: text(MAX_PROMPT_CHARS, "The words to speak."),
  prompt: text(
    MAX_PROMPT_CHARS,
    "How to speak them: tone, pace, pronunciation of names.",
  ).optional(),
  ...speechSettings(),
});

/** What the model passes to `generate_audio`. */
export type GenerateAudioInput = z.infer<typeof generateAudioInputSchema>;

/** Input of `generate_media`: the union of the generate tools' fields, chosen by `type`. */
export const generateMediaInputSchema = objectOf({
  type: z
    .enum(["image", "video", "audio"], { error: 'expected "image", "video" or "audio"' })
    .describe("What to generate."),
  prompt: text(
    MAX_PROMPT_CHARS,
    "What to generate. For audio: how to speak `text`, or, without `text`, the words to speak.",
  ),
  text: text(MAX_PROMPT_CHARS, "Audio only: the words to speak.").optional(),
  size: size().optional().describe('Image only: size as "{width}x{height}".'),
  aspectRatio: aspectRatio().optional().describe('Image or video: aspect ratio, e.g. "16:9".'),
  resolution: resolution().optional().describe('Video only: resolution as "{width}x{height}".'),
  duration: duration().optional().describe("Video only: length in seconds."),
  seed: seed().optional(),
  ...speechSettings(),
});

/** What the model passes to `generate_media`. */
export type GenerateMediaInput = z.infer<typeof generateMediaInputSchema>;
