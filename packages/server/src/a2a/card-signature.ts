// An A2A agent card's signatures (A2A 1.0 §8.4): each a JWS, detached, over the card's
// JCS-canonical form without its `signatures` (RFC 8785). Verified with the key its protected
// header names (`kid`), from the registration's pinned key set (`a2a.jwks`) or else from the key
// set at its `jku` — fetched on the card's own origin only, with the caps a card is read with.
// Every signature must verify; an unsigned card is taken unless a signature is required.
import { canonicalizeAgentCard } from "@a2a-js/sdk";
import {
  type CardSignature,
  cardSignatureAlgorithms,
  type JsonWebKeySet,
} from "@task-context/contract";
import type { ValidationIssue } from "@task-context/protocols";
import canonicalize from "canonicalize";
import {
  base64url,
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  flattenedVerify,
  type JSONWebKeySet,
  type ProtectedHeaderParameters,
} from "jose";
import { DeliveryError } from "../delivery/delivery-error.ts";
import { readBoundedBody } from "./bounded-body.ts";

/** The most of a key set (at a signature's `jku`) the service reads: 64 KiB. */
export const MAX_KEY_SET_BYTES = 64 * 1024;

/** How long reading a key set may take, as a card. */
const KEY_SET_TIMEOUT_MS = 10_000;

/** What verifying a card's signatures needs. */
export interface CardSigning {
  /** Where the card was read: a `jku` must be on its origin. */
  cardUrl: string;
  /** The card's name, for the messages. */
  name: string;
  /** A pinned key set: keys come from it alone (a `jku` is not fetched). */
  jwks?: JsonWebKeySet | undefined;
  /**
   * Refuse a card without a signature: `true` as the registration asks (`a2a.require_signature`),
   * `"service"` as the service does of every agent, `"was-signed"` for a card read again whose
   * registered card was verified (no downgrade).
   */
  required?: boolean | "service" | "was-signed" | undefined;
  /** True for an A2A 0.3 card: canonicalized as it came (the SDK's form is the 1.0 card's). */
  legacy: boolean;
  fetcher: typeof fetch;
}

/** One signature of the card, as A2A writes it (`AgentCardSignature`). */
interface SignatureEntry {
  protected: string;
  signature: string;
  header?: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function isSignatureEntry(value: unknown): value is SignatureEntry {
  return (
    isRecord(value) &&
    typeof value.protected === "string" &&
    typeof value.signature === "string" &&
    (value.header === undefined || isRecord(value.header))
  );
}

/** Values a canonical card leaves out, as the A2A SDKs do: empty strings, lists, objects, null. */
function withoutEmpty(value: unknown): unknown {
  if (value === "" || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const kept = value.map(withoutEmpty).filter((entry) => entry !== undefined);
    return kept.length > 0 ? kept : undefined;
  }
  if (isRecord(value)) {
    const kept = Object.entries(value).flatMap(([key, entry]) => {
      const cleaned = withoutEmpty(entry);
      return cleaned === undefined ? [] : [[key, cleaned] as const];
    });
    return kept.length > 0 ? Object.fromEntries(kept) : undefined;
  }
  return value;
}

/**
 * The bytes a card's signatures sign: a 1.0 card through the official SDK's
 * `canonicalizeAgentCard` (its fields in the proto's JSON form, defaults and empty values left
 * out, `signatures` excluded, RFC 8785), which is what the SDKs sign with; a 0.3 card as it came,
 * empty values and `signatures` left out, in RFC 8785 form.
 */
export function canonicalCard(card: Record<string, unknown>, legacy: boolean): string {
  if (!legacy) return canonicalizeAgentCard(card as Parameters<typeof canonicalizeAgentCard>[0]);
  const { signatures: _, ...rest } = card;
  return canonicalize(withoutEmpty(rest) ?? {}) ?? "{}";
}

/** The key set at `jku`, read as a card is (no redirect, a size cap, a timeout), or why not. */
async function readKeySet(jku: string, fetcher: typeof fetch): Promise<JSONWebKeySet | string> {
  const stop = new AbortController();
  let response: Response;
  try {
    response = await fetcher(jku, {
      headers: { accept: "application/json" },
      signal: AbortSignal.any([AbortSignal.timeout(KEY_SET_TIMEOUT_MS), stop.signal]),
      redirect: "manual",
    });
  } catch (error) {
    return `could not be read (${(error as Error).message})`;
  }
  if (!response.ok) {
    await response.body?.cancel();
    return `answered HTTP ${response.status}`;
  }
  let body: Awaited<ReturnType<typeof readBoundedBody>>;
  try {
    body = await readBoundedBody(response, MAX_KEY_SET_BYTES, stop);
  } catch (error) {
    return `could not be read (${(error as Error).message})`;
  }
  if ("over" in body) return `is larger than ${MAX_KEY_SET_BYTES} bytes`;
  try {
    const json: unknown = JSON.parse(new TextDecoder().decode(body.bytes));
    if (isRecord(json) && Array.isArray(json.keys)) return json as unknown as JSONWebKeySet;
  } catch {
    // said below
  }
  return "is not a JSON Web Key Set ({ keys: [...] })";
}

/** Why jose refused a signature, said for an operator. */
function failure(error: unknown, key: string): string {
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return `The signature by ${key} does not match the card: the card was changed after it was signed, or signed with another key.`;
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return `The signature names ${key}, which its key set does not hold: sign with a key of the set, or publish the key.`;
  }
  if (error instanceof errors.JWKSMultipleMatchingKeys) {
    return `The signature's key set holds several keys that match ${key}: give each key its own kid.`;
  }
  return `The signature by ${key} could not be verified (${(error as Error).message}).`;
}

/**
 * Verifies `card`'s signatures and says how: `{ verified: false }` for a card without any (unless
 * `required`), else the first signature's key. `AGENT_CARD_SIGNATURE_INVALID` with an issue per
 * signature that fails (at `/signatures/<i>`): a header without `kid` or with an algorithm outside
 * {@link cardSignatureAlgorithms} (`none` among them), a `jku` off the card's origin or that
 * cannot be read, a `kid` its key set lacks, a signature that does not match the card.
 */
export async function verifyCardSignatures(
  card: Record<string, unknown>,
  signing: CardSigning,
): Promise<CardSignature> {
  const { signatures } = card;
  const refused = (problem: string, issues: ValidationIssue[]) =>
    new DeliveryError({
      code: "AGENT_CARD_SIGNATURE_INVALID",
      message: `The A2A agent card of "${signing.name}" ${problem}`,
      issues,
    });
  if (signatures === undefined || (Array.isArray(signatures) && signatures.length === 0)) {
    if (signing.required === undefined || signing.required === false) return { verified: false };
    throw refused(
      {
        "was-signed":
          "carries no signature, and its card was signed when it was registered: a card once verified must stay signed. Have the agent sign its card again, or register it again.",
        service:
          "carries no signature, and this service requires one of every A2A agent's card. Have the agent sign its card (A2A §8.4).",
        true: "carries no signature, and the registration requires one (a2a.require_signature). Have the agent sign its card (A2A §8.4), or register it without require_signature.",
      }[String(signing.required) as "was-signed" | "service" | "true"],
      [{ path: "/signatures", message: "The card has no signatures." }],
    );
  }
  const problem =
    "carries a signature the service cannot verify. Fix the issues listed, or register the agent with a2a.jwks holding its key.";
  if (!Array.isArray(signatures) || !signatures.every(isSignatureEntry)) {
    throw refused(problem, [
      {
        path: "/signatures",
        message:
          "signatures must be a list of { protected, signature, header? }, protected and signature base64url strings.",
      },
    ]);
  }
  const payload = base64url.encode(canonicalCard(card, signing.legacy));
  const origin = new URL(signing.cardUrl).origin;
  const pinned =
    signing.jwks === undefined
      ? undefined
      : createLocalJWKSet(signing.jwks as unknown as JSONWebKeySet);
  const keySets = new Map<string, Promise<JSONWebKeySet | string>>();
  const issues: ValidationIssue[] = [];
  let first: CardSignature | undefined;
  for (const [index, entry] of signatures.entries()) {
    const path = `/signatures/${index}`;
    let header: ProtectedHeaderParameters;
    try {
      header = decodeProtectedHeader(entry);
    } catch {
      issues.push({ path, message: "Its protected header is not base64url-encoded JSON." });
      continue;
    }
    const { alg, kid } = header;
    const jku = typeof header.jku === "string" ? header.jku : undefined;
    if (!(cardSignatureAlgorithms as readonly (string | undefined)[]).includes(alg)) {
      issues.push({
        path,
        message: `Its algorithm ${JSON.stringify(alg ?? null)} is not one the service accepts: sign with ${cardSignatureAlgorithms.join(", ")} (never none, nor a shared-secret HMAC).`,
      });
      continue;
    }
    if (typeof kid !== "string" || kid === "") {
      issues.push({ path, message: "Its protected header has no kid: name the signing key." });
      continue;
    }
    let keys: ReturnType<typeof createLocalJWKSet>;
    let named: string;
    if (pinned !== undefined) {
      keys = pinned;
      named = `key "${kid}" (${alg}, from a2a.jwks)`;
    } else {
      if (jku === undefined) {
        issues.push({
          path,
          message: `Its protected header has no jku, and the registration pins no key set: give the key "${kid}" in a2a.jwks, or have the card's signature name its key set (jku).`,
        });
        continue;
      }
      let at: URL;
      try {
        at = new URL(jku);
      } catch {
        issues.push({ path, message: `Its jku ${JSON.stringify(jku)} is not a URL.` });
        continue;
      }
      if (at.origin !== origin) {
        issues.push({
          path,
          message: `Its jku ${at.href} is not on the card's origin ${origin}: the service fetches keys only from the origin that served the card. Publish the key set there, or give the key in a2a.jwks.`,
        });
        continue;
      }
      if (!keySets.has(at.href)) keySets.set(at.href, readKeySet(at.href, signing.fetcher));
      const keySet = await (keySets.get(at.href) as Promise<JSONWebKeySet | string>);
      if (typeof keySet === "string") {
        issues.push({ path, message: `The key set at its jku ${at.href} ${keySet}.` });
        continue;
      }
      try {
        keys = createLocalJWKSet(keySet);
      } catch (error) {
        issues.push({
          path,
          message: `The key set at its jku ${at.href} is not usable (${(error as Error).message}).`,
        });
        continue;
      }
      named = `key "${kid}" (${alg}, from ${at.href})`;
    }
    try {
      await flattenedVerify(
        {
          payload,
          protected: entry.protected,
          signature: entry.signature,
          ...(entry.header === undefined ? {} : { header: entry.header }),
        },
        keys,
        { algorithms: [...cardSignatureAlgorithms] },
      );
    } catch (error) {
      issues.push({ path, message: failure(error, named) });
      continue;
    }
    first ??= {
      verified: true,
      kid,
      alg,
      key_source: pinned === undefined ? "jku" : "jwks",
      ...(pinned === undefined && jku !== undefined ? { jku: new URL(jku).href } : {}),
    };
  }
  if (issues.length > 0 || first === undefined) throw refused(problem, issues);
  return first;
}
