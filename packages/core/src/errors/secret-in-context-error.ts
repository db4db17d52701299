import type { SecretRedaction } from "../secrets/redact-secrets.ts";
import { countSecrets, describeRedactions } from "../secrets/secret-policy.ts";
import { TaskContextError } from "./task-context-error.ts";

const marker = "task-context.error.SecretInContextError";
const symbol = Symbol.for(marker);

/**
 * The context holds something that looks like a secret and the `secrets` policy is `"refuse"`:
 * nothing was delivered. Carries the kinds and lines of the secrets, never their values.
 */
export class SecretInContextError extends TaskContextError<"SECRET_IN_CONTEXT"> {
  protected readonly [symbol] = true;
  override name = "SecretInContextError";
  /** Where the secrets are, e.g. `"CONTEXT.md"`. */
  readonly source: string;
  /** What was found: kinds and 1-based lines, in text order. */
  readonly redactions: SecretRedaction[];

  constructor({
    redactions,
    source = "CONTEXT.md",
  }: {
    redactions: readonly SecretRedaction[];
    source?: string;
  }) {
    super({
      code: "SECRET_IN_CONTEXT",
      message: `${source} holds ${countSecrets(redactions.length)}: ${describeRedactions(redactions)}. Nothing was delivered, because the secrets policy is "refuse": remove ${redactions.length === 1 ? "it" : "them"} from ${source} and pass credentials another way, or deliver with secrets: "redact".`,
    });
    this.source = source;
    this.redactions = redactions.map(({ kind, line }) => ({ kind, line }));
  }

  static override isInstance(error: unknown): error is SecretInContextError {
    return TaskContextError.hasMarker(error, marker);
  }
}
