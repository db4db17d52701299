import { createHash } from "node:crypto";

/**
 * Hex SHA-256 of the UTF-8 bytes of `text`. On Node, Bun and Deno `node:crypto` hashes 10 KB in
 * microseconds, where Web Crypto's asynchronous digest costs a thread-pool round trip.
 */
export async function sha256Hex(text: string): Promise<string> {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
