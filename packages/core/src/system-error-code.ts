/** The `code` of an operating-system error (`"ENOENT"`, `"ENAMETOOLONG"`), or undefined. */
export function systemErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code } = error as { code?: unknown };
  return typeof code === "string" ? code : undefined;
}
