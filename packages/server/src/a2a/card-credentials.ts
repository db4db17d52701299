// What an agent card asks of its callers' credentials (`securitySchemes`, and `securityRequirements`
// of the card and of each skill: an OR of ANDs of scheme names), against the credentials an admin
// registers the agent with: each credential matched to its scheme and turned into how it is sent,
// and every requirement checked to be met, else the registration is refused naming the scheme.
import type { A2aCredential } from "@task-context/contract";
import type { ValidationIssue } from "@task-context/protocols";
import { DeliveryError } from "../delivery/delivery-error.ts";

/** How one credential is sent: what an attempt needs, without the card. */
export type AgentCredential =
  | { kind: "bearer"; scheme: string; token: string }
  | {
      kind: "api_key";
      scheme: string;
      location: "header" | "query" | "cookie";
      name: string;
      key: string;
    }
  | {
      kind: "oauth2";
      scheme: string;
      token_url: string;
      client_id: string;
      client_secret: string;
      scopes: string[];
    };

/** The parts of a card that declare and ask for credentials. */
export interface SecuredCard {
  name: string;
  securitySchemes?: Record<string, unknown> | undefined;
  securityRequirements?: unknown[] | undefined;
  skills: { id: string; securityRequirements?: unknown[] | undefined }[];
}

/** A scheme of the card as the service reads it: one it can answer, or why not. */
type ReadScheme =
  | { kind: "bearer" }
  | { kind: "api_key"; location: "header" | "query" | "cookie"; name: string }
  | { kind: "oauth2"; tokenUrl: string }
  | { kind: "unsupported"; what: string };

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

const httpUrl = (value: unknown): string | undefined => {
  if (typeof value !== "string") return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A proto `oneof` as A2A 1.0 JSON writes it (`{ "<case>": value }`), also when it came in the
 * shape the official JS SDK's server serves (`{ "<field>": { "$case": "<case>", "value": value } }`).
 */
function oneOf(value: Record<string, unknown>, field: string): Record<string, unknown> {
  const wrapped = record(value[field]);
  return typeof wrapped?.$case === "string" ? { [wrapped.$case]: wrapped.value } : value;
}

/**
 * One security scheme, in A2A 1.0 JSON (`{ "httpAuthSecurityScheme": { "scheme": "Bearer" } }`,
 * `apiKeySecurityScheme`, `oauth2SecurityScheme`) or the OpenAPI form of 0.3 cards
 * (`{ "type": "http", "scheme": "bearer" }`, `apiKey` with `in`, `oauth2`).
 */
function readScheme(value: unknown): ReadScheme {
  const scheme = oneOf(record(value) ?? {}, "scheme");
  const http = record(scheme.httpAuthSecurityScheme) ?? (scheme.type === "http" ? scheme : null);
  if (http !== null) {
    return String(http.scheme).toLowerCase() === "bearer"
      ? { kind: "bearer" }
      : { kind: "unsupported", what: `HTTP ${String(http.scheme)} authentication` };
  }
  const apiKey = record(scheme.apiKeySecurityScheme) ?? (scheme.type === "apiKey" ? scheme : null);
  if (apiKey !== null) {
    const location = String(apiKey.location ?? apiKey.in).toLowerCase();
    const name = apiKey.name;
    if ((location === "header" || location === "query" || location === "cookie") && name) {
      return { kind: "api_key", location, name: String(name) };
    }
    return { kind: "unsupported", what: "an API key without a location and name it can use" };
  }
  const oauth = record(scheme.oauth2SecurityScheme) ?? (scheme.type === "oauth2" ? scheme : null);
  if (oauth !== null) {
    const flows = oneOf(record(oauth.flows) ?? {}, "flow");
    const tokenUrl = httpUrl(record(flows.clientCredentials)?.tokenUrl);
    return tokenUrl === undefined
      ? { kind: "unsupported", what: "OAuth 2 without a client credentials flow (its tokenUrl)" }
      : { kind: "oauth2", tokenUrl };
  }
  if (record(scheme.openIdConnectSecurityScheme) || scheme.type === "openIdConnect") {
    return { kind: "unsupported", what: "OpenID Connect" };
  }
  if (record(scheme.mtlsSecurityScheme) || scheme.type === "mutualTLS") {
    return { kind: "unsupported", what: "mutual TLS" };
  }
  return { kind: "unsupported", what: "a kind of scheme it does not know" };
}

/**
 * The scopes of each scheme one requirement names: A2A 1.0 JSON writes it
 * `{ "schemes": { "<scheme>": { "list": [scopes] } } }`; the OpenAPI form `{ "<scheme>": [scopes] }`
 * is read too. An empty requirement names none: it is met without credentials.
 */
function requirementSchemes(requirement: unknown): Map<string, string[]> {
  const named = record(record(requirement)?.schemes) ?? record(requirement) ?? {};
  return new Map(
    Object.entries(named).map(([name, scopes]) => {
      const list = Array.isArray(scopes) ? scopes : record(scopes)?.list;
      return [name, Array.isArray(list) ? list.map(String) : []];
    }),
  );
}

/** Every requirement of the card and its skills, with its pointer and whose it is. */
function requirementsOf(card: SecuredCard) {
  return [
    { list: card.securityRequirements ?? [], pointer: "/securityRequirements", whose: "The card" },
    ...card.skills.map((skill, index) => ({
      list: skill.securityRequirements ?? [],
      pointer: `/skills/${index}/securityRequirements`,
      whose: `Skill ${JSON.stringify(skill.id)}`,
    })),
  ];
}

/** What to give for a scheme, said in an issue. */
function whatToGive(scheme: ReadScheme | undefined): string {
  if (scheme === undefined) return "the card declares no security scheme of that name";
  switch (scheme.kind) {
    case "bearer":
      return `an HTTP Bearer scheme: give { "bearer_token": "…" }`;
    case "api_key":
      return `an API key in the ${scheme.location} ${JSON.stringify(scheme.name)}: give { "api_key": "…" }`;
    case "oauth2":
      return `OAuth 2 client credentials at ${scheme.tokenUrl}: give { "client_id": "…", "client_secret": "…" }`;
    default:
      return `${scheme.what}, which the service cannot send: register an agent that accepts another scheme`;
  }
}

/** The issues of one list of requirements (any one suffices): none when one is met. */
function unmet(
  requirements: readonly unknown[],
  given: ReadonlySet<string>,
  schemes: ReadonlyMap<string, ReadScheme>,
  pointer: string,
  whose: string,
): ValidationIssue[] {
  const needs = requirements.map((requirement) => [...requirementSchemes(requirement).keys()]);
  if (needs.length === 0 || needs.some((names) => names.every((name) => given.has(name)))) {
    return [];
  }
  return needs.map((names, index) => {
    const missing = names.filter((name) => !given.has(name));
    return {
      path: `${pointer}/${index}`,
      message: `${whose} asks for credentials of ${names.map((name) => JSON.stringify(name)).join(" and ")}; a2a.credentials has none for ${missing.map((name) => `${JSON.stringify(name)} (${whatToGive(schemes.get(name))})`).join(" and ")}.`,
    };
  });
}

/** The scopes any requirement of the card or its skills names for `scheme`. */
function scopesOf(card: SecuredCard, scheme: string): string[] {
  const scopes = requirementsOf(card).flatMap(({ list }) =>
    list.flatMap((requirement) => requirementSchemes(requirement).get(scheme) ?? []),
  );
  return [...new Set(scopes)];
}

/** One credential as it is sent, or the issue that says why it does not fit its scheme. */
function credentialFor(
  card: SecuredCard,
  name: string,
  credential: A2aCredential,
  scheme: ReadScheme | undefined,
): AgentCredential | ValidationIssue {
  const path = `/a2a/credentials/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  if (scheme?.kind === "bearer" && "bearer_token" in credential) {
    return { kind: "bearer", scheme: name, token: credential.bearer_token };
  }
  if (scheme?.kind === "api_key" && "api_key" in credential) {
    const { location, name: parameter } = scheme;
    return { kind: "api_key", scheme: name, location, name: parameter, key: credential.api_key };
  }
  if (scheme?.kind === "oauth2" && "client_secret" in credential) {
    return {
      kind: "oauth2",
      scheme: name,
      token_url: scheme.tokenUrl,
      client_id: credential.client_id,
      client_secret: credential.client_secret,
      scopes: credential.scopes ?? scopesOf(card, name),
    };
  }
  return {
    path,
    message: `${JSON.stringify(name)} does not fit the card's scheme of that name: ${whatToGive(scheme)}.`,
  };
}

/**
 * The credentials an A2A agent is registered with, as they are sent: each matched to the card's
 * security scheme of its name. `INVALID_REQUEST` when one names no scheme of the card or does not
 * fit its scheme (an issue at `/a2a/credentials/<name>`); `AGENT_CREDENTIALS_MISSING` when a
 * requirement of the card or of a skill is not met by them (an issue per requirement, at
 * `/securityRequirements/<i>` or `/skills/<j>/securityRequirements/<i>`, naming the scheme missing).
 */
export function agentCredentials(
  card: SecuredCard,
  given: Readonly<Record<string, A2aCredential>> = {},
): AgentCredential[] {
  const schemes = new Map(
    Object.entries(card.securitySchemes ?? {}).map(([name, value]) => [name, readScheme(value)]),
  );
  const read = Object.entries(given).map(([name, credential]) =>
    credentialFor(card, name, credential, schemes.get(name)),
  );
  const misfits = read.filter((entry): entry is ValidationIssue => "path" in entry);
  if (misfits.length > 0) {
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message: `The credentials do not fit the security schemes the agent card of ${JSON.stringify(card.name)} declares. Name each by a scheme of the card's securitySchemes, in the form its kind takes.`,
      issues: misfits,
    });
  }
  const credentials = read as AgentCredential[];
  const available = new Set(credentials.map((credential) => credential.scheme));
  const issues = requirementsOf(card).flatMap(({ list, pointer, whose }) =>
    unmet(list, available, schemes, pointer, whose),
  );
  if (issues.length > 0) {
    throw new DeliveryError({
      code: "AGENT_CREDENTIALS_MISSING",
      message: `The A2A agent card of ${JSON.stringify(card.name)} asks for credentials the registration does not give. Add them to a2a.credentials under the security scheme's name.`,
      issues,
    });
  }
  return credentials;
}

/** Every secret of `credentials`: what no answer, event, page or log may show. */
export function credentialSecrets(credentials: readonly AgentCredential[]): string[] {
  return credentials.flatMap((credential) => {
    switch (credential.kind) {
      case "bearer":
        return [credential.token];
      case "api_key":
        return [credential.key];
      default:
        return [credential.client_secret];
    }
  });
}

/** The marker a credential is replaced by in text the service shows. */
export const REDACTED_CREDENTIAL = "[redacted: a2a-credential]";

/**
 * `text` with every one of `secrets` (as written, and as a URL or form encodes it) replaced by
 * {@link REDACTED_CREDENTIAL}: an agent's or a token endpoint's words, or a URL, quoted in a
 * failure reason never show a credential.
 */
export function redactCredentials(text: string, secrets: readonly string[]): string {
  const forms = secrets.flatMap((secret) => [
    secret,
    encodeURIComponent(secret),
    encodeURIComponent(secret).replaceAll("%20", "+"),
  ]);
  // Longest first, so that a secret inside another is not left half shown.
  const sorted = [...new Set(forms)]
    .filter((form) => form !== "")
    .sort((a, b) => b.length - a.length);
  return sorted.reduce((shown, form) => shown.replaceAll(form, REDACTED_CREDENTIAL), text);
}
