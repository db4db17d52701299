// The agent card an A2A 0.3 agent serves, written out from a test agent's 1.0 card (the SDK's
// types): `protocolVersion` "0.3.0", the first interface as `url` and `preferredTransport`, every
// one in `additionalInterfaces`, security schemes in their OpenAPI form — and no
// `supportedInterfaces`, which 0.3 did not have (the official SDK's own 0.3 card router embeds
// them beside the 0.3 fields, as a card for both versions; an agent built before 1.0 does not).
import type { AgentCard, SecurityScheme } from "@a2a-js/sdk";

/** A scheme in 0.3's OpenAPI form: `{ type: "http", scheme }`, `apiKey` with `in`, `oauth2`. */
function openApiScheme({ scheme }: SecurityScheme): Record<string, unknown> {
  switch (scheme?.$case) {
    case "httpAuthSecurityScheme":
      return { type: "http", scheme: scheme.value.scheme };
    case "apiKeySecurityScheme":
      return { type: "apiKey", in: scheme.value.location, name: scheme.value.name };
    case "oauth2SecurityScheme": {
      const flow = scheme.value.flows?.flow;
      if (flow?.$case !== "clientCredentials") throw new Error("a test card offers no such flow");
      const { tokenUrl, scopes } = flow.value;
      return { type: "oauth2", flows: { clientCredentials: { tokenUrl, scopes } } };
    }
    default:
      throw new Error(`a test card has no 0.3 form for ${scheme?.$case}`);
  }
}

/** Requirements in 0.3's form: `[{ "<scheme>": [scopes] }]`. */
function openApiRequirements(requirements: AgentCard["securityRequirements"]) {
  return requirements.map((requirement) =>
    Object.fromEntries(
      Object.entries(requirement.schemes).map(([name, scopes]) => [name, scopes.list]),
    ),
  );
}

/** The 0.3 JSON of `card`. */
export function a2a03CardJson(card: AgentCard): Record<string, unknown> {
  const [primary] = card.supportedInterfaces;
  if (primary === undefined) throw new Error("a test card has no interface");
  const schemes = Object.entries(card.securitySchemes);
  return {
    protocolVersion: "0.3.0",
    name: card.name,
    description: card.description,
    url: primary.url,
    preferredTransport: primary.protocolBinding,
    additionalInterfaces: card.supportedInterfaces.map((entry) => ({
      url: entry.url,
      transport: entry.protocolBinding,
    })),
    version: card.version,
    capabilities: { streaming: card.capabilities?.streaming, pushNotifications: false },
    ...(schemes.length === 0
      ? {}
      : {
          securitySchemes: Object.fromEntries(
            schemes.map(([name, scheme]) => [name, openApiScheme(scheme)]),
          ),
          security: openApiRequirements(card.securityRequirements),
        }),
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: skill.tags,
    })),
  };
}
