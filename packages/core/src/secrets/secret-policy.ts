import { describeArgument } from "../arguments.ts";
import { ArgumentError } from "../errors/argument-error.ts";
import type { SecretRedaction } from "./redact-secrets.ts";

/**
 * What to do with a secret in a context that goes to an external model: `"redact"` (the default)
 * replaces it with `[redacted: <kind>]` and says so in a warning, `"refuse"` throws
 * `SecretInContextError` and delivers nothing, `"allow"` delivers it unchanged.
 */
export type SecretPolicy = "redact" | "refuse" | "allow";

/** Every {@link SecretPolicy}, in the order the docs list them. */
export const SECRET_POLICIES: readonly SecretPolicy[] = ["redact", "refuse", "allow"];

/** Returns `value` when it is a {@link SecretPolicy} (`undefined` → `"redact"`); throws {@link ArgumentError} otherwise. */
export function requireSecretPolicy(argument: string, value: unknown): SecretPolicy {
  if (value === undefined) return "redact";
  if (typeof value === "string" && (SECRET_POLICIES as readonly string[]).includes(value)) {
    return value as SecretPolicy;
  }
  const got =
    typeof value === "string" && value !== "" ? JSON.stringify(value) : describeArgument(value);
  throw new ArgumentError({
    argument,
    message: `expected "redact", "refuse" or "allow", got ${got}.`,
  });
}

/** `openai-api-key (line 3), jwt (line 9)`: what a warning or an error names, never the values. */
export function describeRedactions(redactions: readonly SecretRedaction[]): string {
  return redactions.map(({ kind, line }) => `${kind} (line ${line})`).join(", ");
}

/** `1 secret`, `2 secrets`. */
export function countSecrets(count: number): string {
  return `${count} ${count === 1 ? "secret" : "secrets"}`;
}

/**
 * The warning of a delivery whose secrets were redacted, e.g. `Redacted 1 secret from CONTEXT.md
 * before delivery: openai-api-key (line 3). Remove it from CONTEXT.md and pass credentials another
 * way.`
 */
export function redactionWarning(source: string, redactions: readonly SecretRedaction[]): string {
  const them = redactions.length === 1 ? "it" : "them";
  return `Redacted ${countSecrets(redactions.length)} from ${source} before delivery: ${describeRedactions(redactions)}. Remove ${them} from ${source} and pass credentials another way.`;
}
