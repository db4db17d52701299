// Agent cards the service must refuse on every runtime, each served by a hostile agent of its
// own on loopback (a card is always at /.well-known/agent-card.json, so one origin per card):
// one that asks for credentials, one whose only interface speaks A2A 0.3, one of 20 MiB; and
// one valid card, which the agents' listing shows. The
// suites' global setups start them (Node and workerd alike) and hand their URLs over by inject().
import { type HostileAgent, startHostileAgent } from "./hostile-agent.ts";

/** The cards' base URLs, by what is wrong with them. */
export interface CardHosts {
  /** `securityRequirements: [{ schemes: { bearer } }]`: it wants a bearer token. */
  secured: string;
  /** Its only interface is JSONRPC with `protocolVersion: "0.3"`. */
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
      card: (card, url) => ({
        ...card,
        supportedInterfaces: [
          { url: `${url}/`, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
        ],
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
