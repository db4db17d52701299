import { z } from "zod";

// The schemas the model sees. None of them declares the task context (spec 001, decision 3):
// the tools load CONTEXT.md themselves on every call.

const path = z
  .string()
  .min(1)
  .describe('Workspace-relative path of the file, e.g. "screenshots/home.png".');

/**
 * Input of `read_media` and the four understand tools: the zod schema the model sees. It declares
 * no context parameter: the tools load CONTEXT.md themselves.
 *
 * @example
 * ```ts
 * understandInputSchema.parse({ path: "screens/home.png", prompt: "What does the header say?" });
 * ```
 */
export const understandInputSchema = z.object({
  path,
  prompt: z
    .string()
    .min(1)
    .describe("What to find out about the file: a question or an instruction."),
});

/** What the model passes to `read_media` and the understand tools. */
export type UnderstandInput = z.infer<typeof understandInputSchema>;

const size = z
  .string()
  .regex(/^\d+x\d+$/)
  .describe('Image size in pixels as "{width}x{height}", e.g. "1024x1024".');
const aspectRatio = z
  .string()
  .regex(/^\d+:\d+$/)
  .describe('Aspect ratio as "{width}:{height}", e.g. "16:9".');
const seed = z
  .number()
  .int()
  .describe("Seed for reproducible output, where the model supports it.");

/** Input of `generate_image`. */
export const generateImageInputSchema = z.object({
  prompt: z.string().min(1).describe("What the image should show."),
  size: size.optional(),
  aspectRatio: aspectRatio.optional(),
  seed: seed.optional(),
});

/** What the model passes to `generate_image`. */
export type GenerateImageInput = z.infer<typeof generateImageInputSchema>;

/** Input of `generate_video`. */
export const generateVideoInputSchema = z.object({
  prompt: z.string().min(1).describe("What the video should show."),
  aspectRatio: aspectRatio.optional(),
  resolution: z
    .string()
    .regex(/^\d+x\d+$/)
    .optional()
    .describe('Resolution as "{width}x{height}", e.g. "1280x720".'),
  duration: z.number().positive().optional().describe("Length in seconds."),
  seed: seed.optional(),
});

/** What the model passes to `generate_video`. */
export type GenerateVideoInput = z.infer<typeof generateVideoInputSchema>;

const speechOptions = {
  voice: z.string().min(1).optional().describe('Voice name of the speech model, e.g. "alloy".'),
  format: z.string().min(1).optional().describe('Audio format, e.g. "mp3" or "wav".'),
  speed: z.number().positive().optional().describe("Speaking speed, 1 is normal."),
  language: z.string().min(1).optional().describe('Language code, e.g. "en" or "de".'),
};

/** Input of `generate_audio`. */
export const generateAudioInputSchema = z.object({
  text: z.string().min(1).describe("The words to speak."),
  prompt: z
    .string()
    .min(1)
    .optional()
    .describe("How to speak them: tone, pace, pronunciation of names."),
  ...speechOptions,
});

/** What the model passes to `generate_audio`. */
export type GenerateAudioInput = z.infer<typeof generateAudioInputSchema>;

/** Input of `generate_media`: the union of the generate tools' fields, chosen by `type`. */
export const generateMediaInputSchema = z.object({
  type: z.enum(["image", "video", "audio"]).describe("What to generate."),
  prompt: z
    .string()
    .min(1)
    .describe(
      "What to generate. For audio: how to speak `text`, or, without `text`, the words to speak.",
    ),
  text: z.string().min(1).optional().describe("Audio only: the words to speak."),
  size: size.optional().describe('Image only: size as "{width}x{height}".'),
  aspectRatio: aspectRatio.optional().describe('Image or video: aspect ratio, e.g. "16:9".'),
  resolution: z
    .string()
    .regex(/^\d+x\d+$/)
    .optional()
    .describe('Video only: resolution as "{width}x{height}".'),
  duration: z.number().positive().optional().describe("Video only: length in seconds."),
  seed: seed.optional(),
  ...speechOptions,
});

/** What the model passes to `generate_media`. */
export type GenerateMediaInput = z.infer<typeof generateMediaInputSchema>;
