import { TaskContextError } from "./task-context-error.ts";

const marker = "task-context.error.TokenizerUnavailableError";
const symbol = Symbol.for(marker);

/** The exact o200k tokenizer was asked for, but its optional peer `gpt-tokenizer` is not installed. */
export class TokenizerUnavailableError extends TaskContextError<"TOKENIZER_UNAVAILABLE"> {
  protected readonly [symbol] = true;
  override name = "TokenizerUnavailableError";

  constructor({ cause }: { cause?: unknown } = {}) {
    super({
      code: "TOKENIZER_UNAVAILABLE",
      message:
        'The exact o200k tokenizer needs the package "gpt-tokenizer", which is not installed. Install it (npm install gpt-tokenizer), or count tokens with approximateTokenizer.',
      cause,
    });
  }

  static override isInstance(error: unknown): error is TokenizerUnavailableError {
    return TaskContextError.hasMarker(error, marker);
  }
}
