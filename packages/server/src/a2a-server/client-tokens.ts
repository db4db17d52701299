import { ArgumentError } from "@task-context/core";
import { sha256Hex } from "@task-context/core/internal";
import { constantTimeEqual } from "../delivery/ids.ts";
import type { Sender } from "./task-ids.ts";

/** The service as an A2A agent (createApp's `a2aServer` option). */
export interface A2aServerOptions {
  /**
   * Tokens scoped to creating runs over A2A (`TASK_CONTEXT_A2A_TOKENS`): each may send messages
   * to `/a2a` (a run per message) and read, follow and cancel the tasks it created — nothing
   * else, at `/a2a` or anywhere. At least 16 characters each. The admin token may do all of it
   * for every run.
   */
  clientTokens?: readonly string[];
}

/** The shortest client token accepted. */
const MIN_LENGTH = 16;

/**
 * `TASK_CONTEXT_A2A_TOKENS`: comma-separated tokens, each 16 or more visible characters
 * (surrounding blanks trimmed); unset or empty: none. Throws an `ArgumentError` naming
 * `variable` for a shorter token or one with blanks inside.
 */
export function parseClientTokens(variable: string, value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  return value.split(",").map((entry, index) => {
    const token = entry.trim();
    if (token.length < MIN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
      throw new ArgumentError({
        argument: variable,
        message: `token ${index + 1} must be ${MIN_LENGTH} or more visible ASCII characters without blanks (tokens are separated by commas).`,
      });
    }
    return token;
  });
}

/**
 * Who a bearer token is among the client tokens (compared as SHA-256 hashes in constant time),
 * or undefined when it is none of them.
 */
export function clientTokenSenders(tokens: readonly string[]) {
  const hashes = Promise.all(tokens.map((token) => sha256Hex(token)));
  return async (token: string): Promise<Sender | undefined> => {
    const hash = await sha256Hex(token);
    let found: string | undefined;
    for (const known of await hashes) if (constantTimeEqual(hash, known)) found = known;
    return found === undefined ? undefined : { kind: "client", tokenSha256: found };
  };
}
