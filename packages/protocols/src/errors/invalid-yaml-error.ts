import { TaskContextError } from "@task-context/core";

/** What made untrusted YAML unacceptable. */
export type InvalidYamlKind =
  | "too-large"
  | "too-deep"
  | "syntax"
  | "duplicate-key"
  | "anchor"
  | "alias"
  | "tag"
  | "directive"
  | "multiple-documents";

/** The fields of an {@link InvalidYamlError}. */
interface InvalidYamlDetails {
  kind: InvalidYamlKind;
  /** 1-based line of the offending text. */
  line: number;
  /** What is wrong and what to do, without the line prefix. */
  detail: string;
  /** JSON Pointer of the offending node, when known (`""` is the document root). */
  path?: string | undefined;
}

const marker = "task-context.error.InvalidYamlError";
const symbol = Symbol.for(marker);

/**
 * Untrusted YAML was refused: too large, too deeply nested, not well-formed, or using a feature
 * that is not allowed (anchors, aliases, explicit tags, directives, duplicate keys). The message
 * names the line, what is wrong and what to do.
 */
export class InvalidYamlError extends TaskContextError<"INVALID_YAML"> {
  protected readonly [symbol] = true;
  override name = "InvalidYamlError";
  readonly kind: InvalidYamlKind;
  readonly line: number;
  readonly detail: string;
  readonly path: string | undefined;

  constructor({ cause, ...details }: InvalidYamlDetails & { cause?: unknown }) {
    super({
      code: "INVALID_YAML",
      message: `Invalid YAML at line ${details.line}: ${details.detail}`,
      cause,
    });
    this.kind = details.kind;
    this.line = details.line;
    this.detail = details.detail;
    this.path = details.path;
  }

  static override isInstance(error: unknown): error is InvalidYamlError {
    return TaskContextError.hasMarker(error, marker);
  }
}
