import { ArgumentError } from "@task-context/core";
import {
  describeArgument,
  requireObject,
  requireText,
  requireWholeNumber,
} from "@task-context/core/internal";

/** Where a model takes instructions (and so the task context). */
export type InstructionPlacement =
  | "system"
  | "user-text"
  | "prompt"
  | "transcription-prompt"
  | "speech-instructions";

/**
 * What the API does with a prompt over its limit: keeps its first part, keeps its last part
 * (whisper-1), refuses the call, or `unknown` when that could not be verified.
 */
export type PromptOverflow = "keeps-start" | "keeps-end" | "rejects" | "unknown";

/** The limit of the text the task context travels in, and what the API does beyond it. */
export interface PromptLimit {
  /** How many `unit`s the prompt may hold. */
  amount: number;
  /** Characters (UTF-16 units) or tokens of the model's own tokenizer. */
  unit: "characters" | "tokens";
  overflow: PromptOverflow;
}

/**
 * What one target model accepts, so that the task context reaches it whole where it fits and by
 * its most important sections where it does not. Keyed by provider and model id as the AI SDK
 * names them: `openai.image("dall-e-3")` has provider `openai.image`, which matches `"openai"`.
 */
export interface ModelProfile {
  /** The provider, as the first part of the AI SDK model's `provider` ("openai", "google"). */
  provider: string;
  /** The model id, exactly as the AI SDK model's `modelId` ("whisper-1"). */
  modelId: string;
  /** Where the model takes instructions, in order of preference. */
  instructions: readonly InstructionPlacement[];
  /** Whether the API accepts a system message at all. */
  systemMessage: boolean;
  /** The limit of the text the context travels in; absent when there is none to fit to. */
  promptLimit?: PromptLimit | undefined;
  /** Where the figures come from (a documentation URL and what it says, or what is unverified). */
  source: string;
}

const PLACEMENTS: readonly InstructionPlacement[] = [
  "system",
  "user-text",
  "prompt",
  "transcription-prompt",
  "speech-instructions",
];
const OVERFLOWS: readonly PromptOverflow[] = ["keeps-start", "keeps-end", "rejects", "unknown"];

/** Throws unless `value` is one of `allowed`, naming the field and the choices. */
function requireChoice<Choice extends string>(
  argument: string,
  value: unknown,
  allowed: readonly Choice[],
): Choice {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value))
    return value as Choice;
  throw new ArgumentError({
    argument,
    message: `expected one of ${allowed.map((choice) => JSON.stringify(choice)).join(", ")}, got ${typeof value === "string" ? JSON.stringify(value) : describeArgument(value)}.`,
  });
}

function requirePromptLimit(argument: string, value: unknown): PromptLimit | undefined {
  if (value === undefined) return undefined;
  const fields = requireObject(argument, value, "{ amount, unit, overflow }");
  return {
    amount: requireWholeNumber(`${argument}.amount`, fields.amount, 1),
    unit: requireChoice(`${argument}.unit`, fields.unit, ["characters", "tokens"] as const),
    overflow: requireChoice(`${argument}.overflow`, fields.overflow, OVERFLOWS),
  };
}

function requireModelProfile(argument: string, value: unknown): ModelProfile {
  const fields = requireObject(
    argument,
    value,
    "a model profile: { provider, modelId, instructions, systemMessage, promptLimit?, source }",
  );
  const instructions = fields.instructions;
  if (!Array.isArray(instructions) || instructions.length === 0) {
    throw new ArgumentError({
      argument: `${argument}.instructions`,
      message: `expected a non-empty array of places (${PLACEMENTS.join(", ")}), got ${describeArgument(instructions)}.`,
    });
  }
  if (typeof fields.systemMessage !== "boolean") {
    throw new ArgumentError({
      argument: `${argument}.systemMessage`,
      message: `expected true or false, got ${describeArgument(fields.systemMessage)}.`,
    });
  }
  const promptLimit = requirePromptLimit(`${argument}.promptLimit`, fields.promptLimit);
  return {
    provider: requireText(`${argument}.provider`, fields.provider, 'a provider name ("openai")'),
    modelId: requireText(`${argument}.modelId`, fields.modelId, 'a model id ("whisper-1")'),
    instructions: instructions.map((place: unknown, index) =>
      requireChoice(`${argument}.instructions[${index}]`, place, PLACEMENTS),
    ),
    systemMessage: fields.systemMessage,
    ...(promptLimit === undefined ? {} : { promptLimit }),
    source: requireText(`${argument}.source`, fields.source, "where the figures come from"),
  };
}

/**
 * Checks the `modelProfiles` option and returns checked copies; throws core's `ArgumentError`
 * (`INVALID_ARGUMENT`) naming the field, e.g. `modelProfiles[0].promptLimit.unit`.
 */
export function requireModelProfiles(argument: string, value: unknown): ModelProfile[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new ArgumentError({
      argument,
      message: `expected an array of model profiles, got ${describeArgument(value)}.`,
    });
  }
  return value.map((profile: unknown, index) =>
    requireModelProfile(`${argument}[${index}]`, profile),
  );
}
