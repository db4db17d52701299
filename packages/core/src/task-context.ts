import type { SecretRedaction } from "./secrets/redact-secrets.ts";
import type { SecretPolicy } from "./secrets/secret-policy.ts";
import type { Tokenizer } from "./tokenizer.ts";
import type { ContextView } from "./views/context-view.ts";

/** Which view of CONTEXT.md a {@link TaskContext} delivers: present only when one was asked for. */
export interface TaskContextView {
  /** The view's name. */
  name: string;
  /** The headings delivered, in file order (the selected sections' and their sub-sections'). */
  sections: string[];
  /**
   * Hex SHA-256 of what loading without the view would deliver (the whole file, bounded by the
   * load's own limits): with `TaskContext.sha256`, the view's, a receipt names both.
   */
  fileSha256: string;
}

/** What {@link loadTaskContext} delivers: the bounded content of CONTEXT.md and how it was cut. */
export interface TaskContext {
  /**
   * The text to deliver: the file's text without a BOM and without surrounding whitespace, at most
   * `maxChars` UTF-16 units (and `maxTokens` tokens when set). Line endings inside are as written.
   */
  content: string;
  /** True when the limits cut `content` short of the file's text. */
  truncated: boolean;
  /**
   * The length in UTF-16 units of the file's text without surrounding whitespace (and with its
   * secrets redacted, unless `secrets: "allow"`): what would have been delivered without limits. Exact when the whole file was read (any file up to
   * 4 × maxChars + 4 bytes); for larger files, which are never read in full, an upper bound that
   * counts one unit per unread byte (`originalLengthIsExact: false`).
   */
  originalLength: number;
  /** Whether {@link TaskContext.originalLength} is exact. */
  originalLengthIsExact: boolean;
  /** The file's size in bytes. */
  originalBytes: number;
  /** Hex SHA-256 of the UTF-8 bytes of `content` (what recipients received: the view's text, with a view). */
  sha256: string;
  /** False only with `required: false` when there is no usable CONTEXT.md (then `content` is ""). */
  found: boolean;
  /**
   * The secrets replaced by `[redacted: <kind>]` in `content` (kinds and lines of CONTEXT.md), with
   * `secrets: "redact"`; present only when something was redacted.
   */
  redactions?: SecretRedaction[];
  /**
   * Set when the content was truncated, repaired or had secrets redacted, or a view names headings
   * the file does not have; show it to the agent.
   */
  warning?: string;
  /** The view delivered, when `view` was given (absent otherwise, and when nothing was found). */
  view?: TaskContextView;
}

/** Options of {@link loadTaskContext}. */
export interface LoadTaskContextOptions {
  /** Most UTF-16 units delivered (default 10 000). */
  maxChars?: number | undefined;
  /** Most tokens delivered, counted with `tokenizer` (required with it). */
  maxTokens?: number | undefined;
  /** Counts tokens for `maxTokens`. */
  tokenizer?: Tokenizer | undefined;
  /**
   * When true (the default) a CONTEXT.md that is missing, empty, not a regular file or cut to
   * nothing by the limits throws `TaskContextMissingError`. When false it yields
   * `{ found: false, content: "" }`, so nothing is injected: the migration path for agents that
   * have not learnt to write CONTEXT.md yet. A CONTEXT.md that exists but cannot be used (not a
   * regular file, or cut to nothing) then also carries a `warning` that says why.
   */
  required?: boolean | undefined;
  /**
   * What to do with anything that looks like a secret (API keys, tokens, JWTs, private keys,
   * passwords in URLs, `password=` assignments): `"redact"` (the default) replaces it with
   * `[redacted: <kind>]` before the length cut, lists it in `redactions` and says so in `warning`;
   * `"refuse"` throws `SecretInContextError` when anything would be delivered redacted; `"allow"`
   * delivers the text as written.
   */
  secrets?: SecretPolicy | undefined;
  /**
   * Deliver only some sections of CONTEXT.md, with the view's own budget (the smaller of the two
   * wins). Selection happens on the whole file after secret redaction and before the limits; a
   * view that selects nothing throws `ContextViewEmptyError`, and headings it names that the file
   * lacks add a `warning`. Without a view the whole file is delivered.
   */
  view?: ContextView | undefined;
}
