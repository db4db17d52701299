// Identifiers and agent tokens: random, URL-safe, with Web Crypto (every runtime has it).

const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";

/** The kinds of identifiers the service hands out, by prefix. */
export type IdPrefix = "run" | "wi" | "art" | "agt" | "evt";

/** Random bytes drawn in blocks: one call to the generator for about 150 identifiers. */
const pool = new Uint8Array(4096);
let used = pool.length;

/** A new random identifier: the prefix, `_`, and 26 characters (130 random bits), e.g. `run_…`. */
export function newId(prefix: IdPrefix): string {
  if (used + 26 > pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  let id = `${prefix}_`;
  for (let index = used; index < used + 26; index++) id += alphabet[(pool[index] as number) & 31];
  used += 26;
  return id;
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
