// Identifiers and agent tokens: URL-safe, random from Web Crypto (every runtime has it).
import { ulid } from "ulid";

/** Crockford's base32 in lower case: the characters of a ULID, and of an agent token's ids. */
const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/** The kinds of identifiers the service hands out, by prefix. */
export type IdPrefix = "run" | "wi" | "art" | "agt" | "evt";

/** Random bytes drawn in blocks: one call to the generator for about 250 identifiers. */
const pool = new Uint8Array(4096);
let used = pool.length;

/** A random number in [0, 1) from the pool, in steps of 1/256 (what `ulid` draws 32 ways). */
function pooledRandom(): number {
  if (used === pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  return (pool[used++] as number) / 256;
}

/**
 * A new identifier: the prefix, `_`, and a ULID in lower case (26 characters: the time in
 * milliseconds, then 80 random bits), e.g. `wi_01jd…`. Identifiers made one after another sort
 * together, so a new row lands beside the last one in each index instead of on a random page
 * (fewer pages for a group commit to write); the 80 random bits keep them unguessable.
 */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid(undefined, pooledRandom).toLowerCase()}`;
}

const idPattern = (prefix: IdPrefix) => new RegExp(`^${prefix}_[${alphabet}]{26}$`);
const runIdPattern = idPattern("run");

/** Whether `value` has the shape of an identifier with that prefix. */
export function isId(prefix: IdPrefix, value: string): boolean {
  return prefix === "run" ? runIdPattern.test(value) : idPattern(prefix).test(value);
}

/** Bytes as base64url without padding (URL- and header-safe). */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The parts of an agent token. */
export interface AgentToken {
  runId: string;
  agentId: string;
  secret: string;
}

/**
 * A new agent token, `tc_<run_id>_<agent_id>_<secret>`: it names its run (so a router finds the
 * run's storage without a global lookup) and its agent (so the stored hash is read by key and
 * compared in constant time); the secret is 32 random bytes, base64url.
 */
export function newAgentToken(runId: string, agentId: string): string {
  return `tc_${runId}_${agentId}_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;
}

const tokenPattern = new RegExp(
  `^tc_(run_[${alphabet}]{26})_(agt_[${alphabet}]{26})_([A-Za-z0-9_-]{43})$`,
);

/** The parts of an agent token, or undefined when `token` does not have its shape. */
export function parseAgentToken(token: string): AgentToken | undefined {
  const match = tokenPattern.exec(token);
  if (match === null) return undefined;
  const [, runId, agentId, secret] = match as unknown as [string, string, string, string];
  return { runId, agentId, secret };
}

/** Compares two strings in time that depends on their lengths only, not on where they differ. */
export function constantTimeEqual(left: string, right: string): boolean {
  let difference = left.length ^ right.length;
  const length = Math.max(left.length, right.length);
  for (let index = 0; index < length; index++) {
    difference |= (left.charCodeAt(index) | 0) ^ (right.charCodeAt(index) | 0);
  }
  return difference === 0;
}
