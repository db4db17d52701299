// An A2A agent's card: read from its endpoint when an admin registers the agent (at most
// MAX_AGENT_CARD_BYTES of it), checked for what the service can serve — an interface it speaks,
// no credentials it cannot send — and kept as the few fields the service uses, then matched
// against the run's stages (which stages' `available_skills` its skills cover).

import type {
  A2aCredential,
  CardSignature,
  JsonWebKeySet,
  StageView,
} from "@task-context/contract";
import type { ValidationIssue } from "@task-context/protocols";
import { checkValue } from "@task-context/protocols/internal";
import * as z from "zod";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { A2aAgentCard } from "../delivery/delivery-store.ts";
import { loneSurrogateIssues } from "../http/lone-surrogates.ts";
import { a2a03Card, a2a03IssuePath, isA2a03Card } from "./a2a03-card.ts";
import { readBoundedBody } from "./bounded-body.ts";
import { agentCredentials } from "./card-credentials.ts";
import { verifyCardSignatures } from "./card-signature.ts";

/** Where an agent card is, under the agent's base URL (A2A 1.0, section 8.2). */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

/** The most of an agent card the service reads: 1 MiB, as much as any request body it takes. */
export const MAX_AGENT_CARD_BYTES = 1024 * 1024;

/** The protocol bindings the service's client speaks (gRPC needs Node-only peers). */
const SPOKEN_BINDINGS = ["JSONRPC", "HTTP+JSON"];

/** How long reading a card may take. */
const CARD_TIMEOUT_MS = 10_000;

const securityRequirements = z.array(z.unknown()).optional();

/** The fields of an agent card the service relies on; the others are read past and not kept. */
const agentCardSchema = z.looseObject({
  name: z.string().min(1),
  supportedInterfaces: z
    .array(
      z.looseObject({
        url: z.url({ protocol: /^https?$/ }),
        protocolBinding: z.string().min(1),
        protocolVersion: z.string().optional(),
        tenant: z.string().optional(),
      }),
    )
    .min(1),
  capabilities: z
    .looseObject({ streaming: z.boolean().optional(), pushNotifications: z.boolean().optional() })
    .optional(),
  securitySchemes: z.record(z.string(), z.unknown()).optional(),
  securityRequirements,
  skills: z.array(
    z.looseObject({
      id: z.string().min(1),
      name: z.string(),
      tags: z.array(z.string()).optional(),
      securityRequirements,
    }),
  ),
});

type CheckedCard = z.infer<typeof agentCardSchema>;
type CardInterface = CheckedCard["supportedInterfaces"][number];

function invalidCard(url: string, problem: string, cause?: unknown): DeliveryError {
  return new DeliveryError({
    code: "AGENT_CARD_INVALID",
    message: `The A2A agent card at ${url} ${problem}. Check the agent's URL and that it serves an A2A agent card (1.0 or 0.3) there.`,
    cause,
  });
}

function refusedCard(url: string, problem: string, issues: ValidationIssue[]): DeliveryError {
  return new DeliveryError({
    code: "AGENT_CARD_INVALID",
    message: `The A2A agent card at ${url} ${problem}. Fix the issues listed.`,
    issues,
  });
}

/**
 * True when an interface's `protocolVersion` is one the service speaks: A2A 1.x, or 0.3.x (through
 * the official SDK's 0.3 transports). An interface without one is taken as 1.0, the version whose
 * card shape (`supportedInterfaces`, `protocolBinding`) it has, as the SDK's client takes it.
 */
function speaksVersion(version: string | undefined): boolean {
  if (version === undefined || version.trim() === "") return true;
  return /^\s*(1(\.\d+)*|0\.3(\.\d+)*)\s*$/.test(version);
}

/** True when `version` is A2A 0.3.x: the interface is sent to with the SDK's 0.3 transports. */
export function isA2a03(version: string | undefined): boolean {
  return version !== undefined && /^\s*0\.3(\.\d+)*\s*$/.test(version);
}

/**
 * The interfaces the service can send to (a binding and a version it speaks), in the card's
 * order; an issue per interface it cannot use when none fits.
 */
function usableInterfaces(interfaces: CardInterface[]): {
  usable: CardInterface[];
  issues: ValidationIssue[];
} {
  const usable: CardInterface[] = [];
  const issues: ValidationIssue[] = [];
  interfaces.forEach((entry, index) => {
    const binding = SPOKEN_BINDINGS.includes(entry.protocolBinding.toUpperCase());
    const version = speaksVersion(entry.protocolVersion);
    if (binding && version) usable.push(entry);
    if (!binding) {
      issues.push({
        path: `/supportedInterfaces/${index}/protocolBinding`,
        message: `The service sends A2A messages over JSONRPC or HTTP+JSON, not ${entry.protocolBinding}.`,
      });
    }
    if (!version) {
      issues.push({
        path: `/supportedInterfaces/${index}/protocolVersion`,
        message: `The service speaks A2A 1.0 and 0.3, not ${JSON.stringify(entry.protocolVersion)}: offer an interface with protocolVersion "1.0" (or "0.3.0").`,
      });
    }
  });
  // A 1.x interface is preferred to a 0.3 one the card lists beside it: the service sends to the
  // first it keeps.
  const ordered = [
    ...usable.filter((entry) => !isA2a03(entry.protocolVersion)),
    ...usable.filter((entry) => isA2a03(entry.protocolVersion)),
  ];
  return { usable: ordered, issues: ordered.length > 0 ? [] : issues };
}

/** The card's text as JSON, or why it is not: too large (`request` is aborted), not UTF-8, not JSON. */
async function cardJson(
  url: string,
  response: Response,
  request: AbortController,
): Promise<unknown> {
  let body: Awaited<ReturnType<typeof readBoundedBody>>;
  try {
    body = await readBoundedBody(response, MAX_AGENT_CARD_BYTES, request);
  } catch (error) {
    throw invalidCard(url, `could not be read (${(error as Error).message})`, error);
  }
  if ("over" in body) {
    throw invalidCard(
      url,
      `is larger than ${MAX_AGENT_CARD_BYTES} bytes, the most the service reads of a card (it stopped reading there)`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body.bytes);
  } catch (error) {
    throw invalidCard(url, "is not UTF-8 text", error);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidCard(url, "is not JSON", error);
  }
}

/** The fields the service keeps of a checked card: what it matches and sends with, nothing else. */
function keptCard(card: CheckedCard, interfaces: CardInterface[]): A2aAgentCard {
  return {
    name: card.name,
    supportedInterfaces: interfaces.map((entry) => ({
      url: entry.url,
      protocolBinding: entry.protocolBinding,
      protocolVersion: entry.protocolVersion ?? "1.0",
      tenant: entry.tenant ?? "",
    })),
    capabilities: {
      streaming: card.capabilities?.streaming === true,
      // Kept for push notifications (push-receiver.ts): only when offered.
      ...(card.capabilities?.pushNotifications === true ? { pushNotifications: true } : {}),
    },
    ...(Object.keys(card.securitySchemes ?? {}).length === 0
      ? {}
      : { securitySchemes: card.securitySchemes }),
    ...(card.securityRequirements?.length
      ? { securityRequirements: card.securityRequirements }
      : {}),
    skills: card.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      ...(skill.tags === undefined ? {} : { tags: skill.tags }),
      ...(skill.securityRequirements?.length
        ? { securityRequirements: skill.securityRequirements }
        : {}),
    })),
  };
}

/**
 * The strings the service would keep that are not well-formed Unicode, at their pointers in the
 * card (stored text is never altered, and SQLite would alter them).
 */
function malformedKeptText(card: CheckedCard): ValidationIssue[] {
  return loneSurrogateIssues({
    name: card.name,
    supportedInterfaces: card.supportedInterfaces.map(
      ({ url, protocolBinding, protocolVersion, tenant }) => ({
        url,
        protocolBinding,
        protocolVersion,
        tenant,
      }),
    ),
    securitySchemes: card.securitySchemes,
    securityRequirements: card.securityRequirements,
    skills: card.skills.map(({ id, name, tags, securityRequirements }) => ({
      id,
      name,
      tags,
      securityRequirements,
    })),
  });
}

/**
 * Reads and checks the agent card of the A2A agent at `baseUrl`, and answers the fields the
 * service keeps of it: its name, the interfaces it can send to, whether it streams, its skills.
 * `AGENT_CARD_INVALID` when the card cannot be fetched, is larger than
 * {@link MAX_AGENT_CARD_BYTES} (reading stops there), is not JSON, lacks what the service needs
 * (a name, skills, an http(s) interface), offers no interface the service speaks (JSONRPC or
 * HTTP+JSON, A2A 1.x or 0.3.x: a 0.3 card, without `supportedInterfaces`, is translated by the
 * official SDK's 0.3 compatibility layer) — with an issue per field; `AGENT_CREDENTIALS_MISSING` when its security
 * requirements are not met by `credentials` (by scheme name; none by default), `INVALID_REQUEST`
 * when one of them does not fit its scheme.
 */
export async function readAgentCard(
  baseUrl: string,
  fetcher: typeof fetch = fetch,
  credentials: Readonly<Record<string, A2aCredential>> = {},
): Promise<A2aAgentCard> {
  return (await readVerifiedCard(baseUrl, { fetcher, credentials })).card;
}

/** How a card is read: its credentials, and its signatures' policy. */
export interface CardReading {
  fetcher?: typeof fetch | undefined;
  /** The registration's credentials (see {@link readAgentCard}). */
  credentials?: Readonly<Record<string, A2aCredential>> | undefined;
  /** A pinned key set for the card's signatures (`a2a.jwks`). */
  jwks?: JsonWebKeySet | undefined;
  /** Refuse a card without a signature that verifies (see `CardSigning.required`). */
  requireSignature?: boolean | "service" | "was-signed" | undefined;
}

/**
 * {@link readAgentCard}, and the card's signatures verified (see card-signature.ts):
 * `AGENT_CARD_SIGNATURE_INVALID` when one does not verify, or none is there and one is required.
 */
export async function readVerifiedCard(
  baseUrl: string,
  reading: CardReading = {},
): Promise<{ card: A2aAgentCard; signature: CardSignature }> {
  const fetcher = reading.fetcher ?? fetch;
  const credentials = reading.credentials ?? {};
  const url = new URL(AGENT_CARD_PATH, baseUrl).href;
  let response: Response;
  const stop = new AbortController();
  try {
    response = await fetcher(url, {
      headers: { accept: "application/json", "a2a-version": "1.0" },
      signal: AbortSignal.any([AbortSignal.timeout(CARD_TIMEOUT_MS), stop.signal]),
      // A redirect is answered as its status (Workers refuse "error"): a card is not followed.
      redirect: "manual",
    });
  } catch (error) {
    throw invalidCard(url, `could not be read (${(error as Error).message})`, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw invalidCard(url, `answered HTTP ${response.status}`);
  }
  let json = await cardJson(url, response, stop);
  const received = json;
  // A 0.3 card is read through the official SDK's translation to the 1.0 shape.
  const legacy = isA2a03Card(json);
  if (legacy) {
    const translated = a2a03Card(json);
    if (translated.issues !== undefined) {
      throw refusedCard(url, "(an A2A 0.3 card) lacks what the service needs", translated.issues);
    }
    json = translated.card;
  }
  const checked = checkValue(agentCardSchema, json, { root: "agent card" });
  if (!checked.valid) {
    throw refusedCard(url, "lacks what the service needs", checked.issues);
  }
  const card = checked.data;
  const malformed = malformedKeptText(card);
  if (malformed.length > 0) {
    throw refusedCard(url, "holds text that is not well-formed Unicode", malformed);
  }
  const { usable, issues } = usableInterfaces(card.supportedInterfaces);
  if (usable.length === 0) {
    const at = legacy
      ? issues.map((issue) => ({ ...issue, path: a2a03IssuePath(issue.path) }))
      : issues;
    throw refusedCard(url, "offers no interface the service speaks", at);
  }
  const kept = keptCard(card, usable);
  agentCredentials(kept, credentials);
  const signature = await verifyCardSignatures(received as Record<string, unknown>, {
    cardUrl: url,
    name: card.name,
    jwks: reading.jwks,
    required: reading.requireSignature,
    legacy,
    fetcher,
  });
  return { card: kept, signature };
}

/** True when the card's skills (by id or tag) include every one of `skills`. */
export function coversSkills(card: A2aAgentCard, skills: readonly string[]): boolean {
  const declared = new Set(card.skills.flatMap((skill) => [skill.id, ...(skill.tags ?? [])]));
  return skills.every((skill) => declared.has(skill));
}

/**
 * The stages of the run an A2A agent takes work from: those (of `wanted`, or all) whose
 * `available_skills` its card's skills cover, by skill id or tag. `AGENT_SKILLS_MISMATCH` when a
 * wanted stage is not covered (an issue names each skill missing) or no stage is.
 */
export function matchStages(
  card: A2aAgentCard,
  stages: readonly Pick<StageView, "id" | "available_skills">[],
  wanted?: readonly string[],
): string[] {
  const known = new Set(stages.map((stage) => stage.id));
  const unknown = (wanted ?? []).filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message: `The run has no stage ${unknown.map((id) => `"${id}"`).join(", ")}. Name stages of the run in a2a.stages.`,
      issues: unknown.map((id) => ({
        path: `/a2a/stages/${wanted?.indexOf(id)}`,
        message: `"${id}" is not a stage of the run.`,
      })),
    });
  }
  const candidates = wanted === undefined ? stages : stages.filter((s) => wanted.includes(s.id));
  const missing = candidates.flatMap((stage) =>
    coversSkills(card, stage.available_skills)
      ? []
      : [
          {
            path: `/stages/${stage.id}`,
            message: `Stage "${stage.id}" needs ${stage.available_skills.filter((skill) => !coversSkills(card, [skill])).join(", ")}, which the agent card of "${card.name}" does not declare (as a skill id or tag).`,
          },
        ],
  );
  const matched = candidates
    .filter((stage) => coversSkills(card, stage.available_skills))
    .map((s) => s.id);
  if ((wanted !== undefined && missing.length > 0) || matched.length === 0) {
    throw new DeliveryError({
      code: "AGENT_SKILLS_MISMATCH",
      message: `The skills the agent card of "${card.name}" declares do not cover the available_skills of ${wanted === undefined ? "any stage of the run" : "the stages asked for"}. Register an agent whose card declares them, or name other stages.`,
      issues: missing,
    });
  }
  return matched;
}
