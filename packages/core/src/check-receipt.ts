import { describeArgument, requireText } from "./arguments.ts";
import { shortHash } from "./context-changed-warning.ts";
import { ArgumentError } from "./errors/argument-error.ts";

/**
 * How a recipient's receipt compares with what is current: `current` when it quoted the current
 * hash, `stale` when it quoted another one, `unquoted` when it quoted nothing (or something that
 * is not a SHA-256 hash, which proves nothing either way).
 */
export type ReceiptStatus = "current" | "stale" | "unquoted";

/** What {@link checkReceipt} found. */
export interface ReceiptCheck {
  status: ReceiptStatus;
  /** The quoted hash in lower case; absent when the status is `unquoted`. */
  quoted?: string;
  /** The current hash, as given. */
  current: string;
  /** Set when `status` is `stale`: one sentence for the caller's `warning`. */
  warning?: string;
}

/** The arguments of {@link checkReceipt}. */
export interface CheckReceiptOptions {
  /**
   * The hash the recipient says it worked from: a subagent output's `context-sha256`, a
   * completion's `context_sha256`, or the hash a delivery was made with. Anything that is not 64
   * hexadecimal digits counts as no quote.
   */
  quoted: unknown;
  /** The hex SHA-256 of the context as it is now (`TaskContext.sha256`, a work item's `context_sha256`). */
  current: string;
  /** Who used the context, as the warning names it: `subagent "review-1"`, `generate_image`, … */
  recipient: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Compares the context hash a recipient quotes — or the hash a delivery was made with — with the
 * current one: the one comparison behind every receipt, in the spawner, the media tools and the
 * delivery service, so a stale receipt reads the same everywhere. Hashes compare without regard
 * to case. A quote that is absent, or not a SHA-256 hex string, is `unquoted` and warns of
 * nothing. Throws `ArgumentError` when `current` is not a SHA-256 hex string or `recipient` is
 * empty: those come from the caller, never from the recipient.
 *
 * @example
 * ```ts source="../examples/check-receipt.ts#checkReceipt"
 * const { sha256 } = await loadTaskContext(workspace);
 * const receipt = checkReceipt({
 *   quoted: output["context-sha256"],
 *   current: sha256,
 *   recipient: 'subagent "review-1"',
 * });
 * if (receipt.status === "stale") console.warn(receipt.warning);
 * // Stale context: subagent "review-1" worked from context sha256 2c26b46b68ff…, but the current
 * // context is sha256 fc8d83d4670e…; check its result against the current context.
 * ```
 */
export function checkReceipt(options: CheckReceiptOptions): ReceiptCheck {
  const current = requireText("current", options?.current, "a SHA-256 hex string");
  if (!SHA256_HEX.test(current.toLowerCase())) {
    throw new ArgumentError({
      argument: "current",
      message: `expected a SHA-256 hex string (64 hexadecimal digits), got ${describeArgument(current)} of ${current.length} characters.`,
    });
  }
  const recipient = requireText("recipient", options.recipient);
  const { quoted } = options;
  if (typeof quoted !== "string" || !SHA256_HEX.test(quoted.toLowerCase())) {
    return { status: "unquoted", current };
  }
  const normalized = quoted.toLowerCase();
  if (normalized === current.toLowerCase()) {
    return { status: "current", quoted: normalized, current };
  }
  return {
    status: "stale",
    quoted: normalized,
    current,
    warning: `Stale context: ${recipient} worked from context sha256 ${shortHash(normalized)}, but the current context is sha256 ${shortHash(current.toLowerCase())}; check its result against the current context.`,
  };
}
