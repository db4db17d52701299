import { requireObject, requireOptionalBoolean, requireWholeNumber } from "./arguments.ts";
import { DEFAULT_MAX_CHARS } from "./constants.ts";
import { ArgumentError } from "./errors/argument-error.ts";
import { requireTokenizer } from "./require-tokenizer.ts";
import { requireSecretPolicy, type SecretPolicy } from "./secrets/secret-policy.ts";
import type { Tokenizer } from "./tokenizer.ts";
import { type ContextView, requireContextView } from "./views/context-view.ts";

/**
 * The keys of `LoadTaskContextOptions`: what {@link requireLoadOptions} reads of an object, for the
 * packages whose options hold the load options beside their own (and a framework's).
 */
export const LOAD_OPTION_KEYS = [
  "maxChars",
  "maxTokens",
  "tokenizer",
  "required",
  "secrets",
  "view",
] as const;

/** `LoadTaskContextOptions`, checked, with the defaults filled in. */
export interface CheckedLoadOptions {
  maxChars: number;
  maxTokens: number | undefined;
  tokenizer: Tokenizer | undefined;
  required: boolean;
  secrets: SecretPolicy;
  view: ContextView | undefined;
}

/**
 * Checks loader options wherever they are accepted (loadTaskContext, context tools, the
 * middleware, the spawner), so that every package refuses the same values with the same message.
 * `prefix` names where they sit in the caller's options (`"load."` → `Invalid load.maxChars`).
 */
export function requireLoadOptions(options: unknown, prefix = ""): CheckedLoadOptions {
  const checked = requireObject(prefix === "" ? "options" : prefix.replace(/\.$/, ""), options);
  const { maxChars = DEFAULT_MAX_CHARS, maxTokens, tokenizer, required, secrets, view } = checked;
  const result: CheckedLoadOptions = {
    maxChars: requireWholeNumber(`${prefix}maxChars`, maxChars, 1),
    maxTokens:
      maxTokens === undefined ? undefined : requireWholeNumber(`${prefix}maxTokens`, maxTokens, 1),
    tokenizer:
      tokenizer === undefined ? undefined : requireTokenizer(`${prefix}tokenizer`, tokenizer),
    required: requireOptionalBoolean(`${prefix}required`, required) ?? true,
    secrets: requireSecretPolicy(`${prefix}secrets`, secrets),
    view: view === undefined ? undefined : requireContextView(`${prefix}view`, view),
  };
  if (result.maxTokens !== undefined && result.tokenizer === undefined) {
    throw new ArgumentError({
      argument: `${prefix}maxTokens`,
      message:
        'a token budget needs a tokenizer: pass `tokenizer: approximateTokenizer` or `o200kTokenizer` from "@task-context/core/o200k".',
    });
  }
  if (result.view?.maxTokens !== undefined && result.tokenizer === undefined) {
    throw new ArgumentError({
      argument: `${prefix}view.maxTokens`,
      message: `view ${JSON.stringify(result.view.name)} has a token budget, which needs a tokenizer: pass \`tokenizer: approximateTokenizer\` or \`o200kTokenizer\` from "@task-context/core/o200k" with the load options.`,
    });
  }
  return result;
}
