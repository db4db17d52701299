import * as z from "zod/mini";

/**
 * A context hash on the wire: the hex SHA-256 (64 lower-case hexadecimal digits) a recipient was
 * given or quotes back — a work item's `context_sha256`, a subagent output's `context-sha256`.
 */
export const contextSha256Schema = z
  .string()
  .check(z.regex(/^[0-9a-f]{64}$/, "must be a SHA-256 hash: 64 lower-case hexadecimal digits"));
