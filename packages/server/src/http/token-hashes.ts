/** How many tokens' hashes an authenticator keeps (see {@link tokenHashes}). */
export const TOKEN_HASHES_KEPT = 4096;

/** The hashes of the tokens that authenticated last. */
export interface TokenHashes {
  /** The token's hash: the one kept, or computed (and not kept: see `keep`). */
  hash(token: string): Promise<string>;
  /** Keeps the hash of a token that authenticated; the oldest kept goes past `kept`. */
  keep(token: string, hash: string): void;
}

/**
 * The SHA-256 (`sha256`) of a token, from the hashes of the last `kept` tokens that
 * authenticated, the oldest kept out first (a token still in use is hashed again once, and kept
 * again — cheaper than ordering the tokens by use on every request): an agent sends the same
 * token with every request, and hashing it each time was about 2 % of the CPU of a request.
 *
 * The trade-off: up to `kept` valid tokens (about 110 characters each, with a 64-character hash:
 * about 1 MB at 4 096) stay in the process's memory after their requests, where they passed
 * anyway — a process whose memory can be read has lost its admin token already. Only a token that authenticated is kept, so unknown tokens cannot
 * fill it; a kept token's hash is still compared with its agent's stored hash on every request,
 * so a token that no longer authenticates is refused as before.
 */
export function tokenHashes(kept: number, sha256: (text: string) => Promise<string>): TokenHashes {
  const hashes = new Map<string, string>();
  return {
    async hash(token) {
      return hashes.get(token) ?? (await sha256(token));
    },
    keep(token, hash) {
      if (hashes.has(token)) return;
      hashes.set(token, hash);
      if (hashes.size > kept) hashes.delete(hashes.keys().next().value as string);
    },
  };
}
