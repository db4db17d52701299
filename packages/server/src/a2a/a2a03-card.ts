// An A2A 0.3 agent card (`url`, `preferredTransport`, `additionalInterfaces`, no
// `supportedInterfaces`): the fields the service uses checked where a 0.3 card has them, then
// translated to the 1.0 shape by the official SDK's 0.3 compatibility layer, each interface
// stamped with its 0.3 protocolVersion — which makes the SDK's client send to it over its 0.3
// transports (`message/send`, `tasks/get`, lower-case states, parts with `kind`).
import { isLegacyAgentCard, parseLegacyAgentCard } from "@a2a-js/sdk/compat/v0_3/client";
import type { ValidationIssue } from "@task-context/protocols";
import { checkValue } from "@task-context/protocols/internal";
import * as z from "zod";

const interfaceUrl = z.url({ protocol: /^https?$/ });

/** A 0.3 security requirement: scheme names and their scopes (OpenAPI's form). */
const requirements = z.array(z.record(z.string(), z.array(z.string()))).optional();

/** The fields of a 0.3 card the service relies on; the others are read past and not kept. */
const legacyCardSchema = z.looseObject({
  name: z.string().min(1),
  url: interfaceUrl,
  preferredTransport: z.string().min(1).optional(),
  protocolVersion: z
    .string()
    .regex(/^\s*0\.3(\.\d+)*\s*$/, {
      error:
        'must be "0.3.0" or another 0.3.x (a card without supportedInterfaces is an A2A 0.3 card; the service speaks A2A 1.0 and 0.3)',
    })
    .optional(),
  additionalInterfaces: z
    .array(z.looseObject({ url: interfaceUrl, transport: z.string().min(1) }))
    .optional(),
  capabilities: z.looseObject({ streaming: z.boolean().optional() }).optional(),
  securitySchemes: z.record(z.string(), z.looseObject({ type: z.string() })).optional(),
  security: requirements,
  skills: z.array(
    z.looseObject({
      id: z.string().min(1),
      name: z.string(),
      tags: z.array(z.string()).optional(),
      security: requirements,
    }),
  ),
});

/** True when `json` is an A2A 0.3 card, as the official SDK's client detects one. */
export function isA2a03Card(json: unknown): boolean {
  return isLegacyAgentCard(json);
}

/**
 * The 0.3 card `json` in the 1.0 shape (the SDK's translation), or the issues that stop it, at
 * their pointers in the 0.3 card. Fields the service does not use and 0.3 requires
 * (`defaultInputModes`, a skill's `tags`, …) are not asked of it.
 */
export function a2a03Card(
  json: unknown,
): { card: unknown; issues?: undefined } | { issues: ValidationIssue[] } {
  const checked = checkValue(legacyCardSchema, json, { root: "agent card" });
  if (!checked.valid) return { issues: checked.issues };
  const card = checked.data;
  try {
    return {
      card: parseLegacyAgentCard({
        ...card,
        capabilities: card.capabilities ?? {},
        defaultInputModes: [],
        defaultOutputModes: [],
        skills: card.skills.map((skill) => ({ ...skill, tags: skill.tags ?? [] })),
      }),
    };
  } catch (error) {
    // A security scheme of a type 0.3 does not define, as the SDK says.
    const message = `${(error as Error).message}: a 0.3 scheme's type is apiKey, http, oauth2, openIdConnect or mutualTLS.`;
    return { issues: [{ path: "/securitySchemes", message }] };
  }
}

/**
 * Where an issue of the translated card's interfaces is in the 0.3 card: the first interface is
 * the card's own `url` and `preferredTransport`, the others its `additionalInterfaces`.
 */
export function a2a03IssuePath(path: string): string {
  const match = /^\/supportedInterfaces\/(\d+)\/(\w+)$/.exec(path);
  if (match === null) return path;
  const index = Number(match[1]);
  const field = match[2] === "protocolBinding" ? "transport" : match[2];
  if (index > 0) return `/additionalInterfaces/${index - 1}/${field}`;
  return field === "transport" ? "/preferredTransport" : `/${field}`;
}
