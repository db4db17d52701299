import { sha256Hex } from "@task-context/core/internal";

/** Crockford's base32 in lower case, as the service's identifiers use it. */
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * The run an A2A message creates, named by the message: `run_` and 26 characters of base32 from
 * a SHA-256 over a secret of the service (its admin token's hash), who sent it and the message's
 * id. The same message sent again names the same run, on every store and every instance, with
 * nothing more to persist: the A2A task's id is the run's id. The first character stays within
 * `0`–`7`, as in a ULID.
 */
export async function runIdOfMessage(
  secret: string,
  sender: string,
  messageId: string,
): Promise<string> {
  const hex = await sha256Hex(JSON.stringify(["a2a-message", secret, sender, messageId]));
  let id = alphabet[Number.parseInt(hex.slice(0, 1), 16) % 8] as string;
  // 25 characters of 5 bits each from the next 125 bits (32 hex digits = 128 bits).
  let bits = BigInt(`0x${hex.slice(1, 33)}`);
  for (let index = 0; index < 25; index++) {
    id += alphabet[Number(bits & 31n)];
    bits >>= 5n;
  }
  return `run_${id}`;
}
