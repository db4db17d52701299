/**
 * The most UTF-16 units of text a tool or prompt argument may carry (`prompt`, `request`, the
 * draft of `lint_context_md`): 1 000 000, far above any prompt a model accepts, low enough that
 * no call can make the server build a huge string.
 */
export const MAX_TEXT_ARGUMENT_CHARS = 1_000_000;

/** The most bytes of a `validate` document, as JSON (1 MiB). */
export const MAX_DOCUMENT_BYTES = 1024 * 1024;

/** The most bytes read of a Sage document under `.sage/context/` (1 MiB). */
export const MAX_SAGE_DOCUMENT_BYTES = 1024 * 1024;

/** The most bytes of CONTEXT.md that `lint_context_md` reads (1 MiB). */
export const MAX_LINT_BYTES = 1024 * 1024;
