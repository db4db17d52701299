// The per-attempt token an A2A agent's push notifications must carry: 32 random bytes (256 bits),
// given to the agent once in the attempt's push configuration and stored only as its SHA-256,
// which a notification's token is compared with in constant time.
import { sha256Hex } from "@task-context/core/internal";
import { base64url, constantTimeEqual } from "../delivery/ids.ts";

/** A new push token: 32 random bytes, base64url (43 characters). */
export function newPushToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The hash a push token is stored as (SHA-256, hex). */
export async function hashPushToken(token: string): Promise<string> {
  return sha256Hex(token);
}

/** Whether `token` is the one whose hash is `tokenHash`, compared in constant time. */
export async function pushTokenMatches(token: string, tokenHash: string): Promise<boolean> {
  return constantTimeEqual(await hashPushToken(token), tokenHash);
}
