import { createHash } from "node:crypto";

/**
 * Hex SHA-256 of `data` (a string is hashed as its UTF-8 bytes). On Node, Bun and Deno
 * `node:crypto` hashes 10 KB in microseconds, where Web Crypto's asynchronous digest costs a
 * thread-pool round trip.
 */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  return createHash("sha256").update(data).digest("hex");
}
