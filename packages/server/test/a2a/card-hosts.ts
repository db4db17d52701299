// Agent cards the service must refuse on every runtime, each served by a hostile agent of its
// own on loopback (a card is always at /.well-known/agent-card.json, so one origin per card):
// one that asks for credentials, one of 20 MiB; and valid cards: an A2A 0.3 card (which the
// service reads through the official SDK's 0.3 layer) and a 1.0 one, which the agents' listing shows. The
// suites' global setups start them (Node and workerd alike) and hand their URLs over by inject().
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
  ]);
  const [secured, legacy, huge, plain] = agents.map((agent) => agent.url) as [
    string,
    string,
    string,
    string,
  ];
  return {
    urls: { secured, legacy, huge, plain },
    close: async () => {
      await Promise.all(agents.map((agent) => agent.close()));
    },
  };
}
