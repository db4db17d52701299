// Agent cards the service must refuse on every runtime, each served by a hostile agent of its
// own on loopback (a card is always at /.well-known/agent-card.json, so one origin per card):
// one that asks for credentials, one of 20 MiB; and valid cards: an A2A 0.3 card (which the
// service reads through the official SDK's 0.3 layer) and a 1.0 one, which the agents' listing shows. The
// suites' global setups start them (Node and workerd alike) and hand their URLs over by inject().
import { type AgentCard, generateAgentCardSignature } from "@a2a-js/sdk";
import { exportJWK, generateKeyPair } from "jose";
import { type HostileAgent, startHostileAgent } from "./hostile-agent.ts";

/** The cards' base URLs, by what is wrong with them. */
export interface CardHosts {
  /** `securityRequirements: [{ schemes: { bearer } }]`: it wants a bearer token. */
  secured: string;
  /** An A2A 0.3 card: `url` (JSONRPC) and `protocolVersion: "0.3.0"`, no `supportedInterfaces`. */
  legacy: string;
  /** A valid card padded to 20 MiB. */
  huge: string;
  /**
   * A valid card with the skill `illustrate` and one JSONRPC interface (A2A 1.0): listed, as any
   * card, by GET /v1/runs/{run_id}/agents.
   */
  plain: string;
  /** A card signed (ES256, kid `edge-key`) with its key set at `/jwks.json` on its origin. */
  signed: string;
  /** The same, its name changed after it was signed. */
  tampered: string;
}

/** A card host whose card is signed by the official SDK, its key set at its `/jwks.json`. */
async function signedCardHost(name: string, tamper: boolean): Promise<HostileAgent> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const key = { ...(await exportJWK(publicKey)), kid: "edge-key", alg: "ES256" };
  let served: unknown;
  const host = await startHostileAgent({
    name,
    skills: ["illustrate"],
    card: (card) => served ?? card,
    keys: { keys: [key] },
  });
  const card = (await (await fetch(`${host.url}/.well-known/agent-card.json`)).json()) as AgentCard;
  const header = { alg: "ES256", typ: "JOSE", kid: "edge-key", jku: `${host.url}/jwks.json` };
  const signed = await generateAgentCardSignature(privateKey, header)(card);
  served = tamper ? { ...signed, name: `${name} (tampered)` } : signed;
  return host;
}

declare module "vitest" {
  export interface ProvidedContext {
    a2aCardHosts: CardHosts;
  }
}

/** Starts the card hosts; `close` stops them. */
export async function startCardHosts(): Promise<{ urls: CardHosts; close(): Promise<void> }> {
  const agents: HostileAgent[] = await Promise.all([
    startHostileAgent({
      name: "Secured",
      skills: ["draft"],
      card: (card) => ({
        ...card,
        securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: "Bearer" } } },
        securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      }),
    }),
    startHostileAgent({
      name: "Legacy",
      skills: ["draft"],
      card: ({ supportedInterfaces: _, ...card }, url) => ({
        ...card,
        protocolVersion: "0.3.0",
        url: `${url}/`,
        preferredTransport: "JSONRPC",
      }),
    }),
    startHostileAgent({ name: "Huge", skills: ["draft"], cardBytes: 20 * 1024 * 1024 }),
    startHostileAgent({ name: "Plain", skills: ["illustrate"] }),
    signedCardHost("Signed", false),
    signedCardHost("Signed", true),
  ]);
  const [secured, legacy, huge, plain, signed, tampered] = agents.map((agent) => agent.url) as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return {
    urls: { secured, legacy, huge, plain, signed, tampered },
    close: async () => {
      await Promise.all(agents.map((agent) => agent.close()));
    },
  };
}
