// Types of scripts/prepack-guard.mjs (the `prepack` script of every published package).

/** The files a manifest points at: its exports (except the source condition), bin, main, types. */
export function shippedEntries(manifest: Record<string, unknown>): string[];

/** Why the package in `folder` cannot be packed (missing or stale dist/), or undefined when it can. */
export function packProblem(folder: string): string | undefined;
