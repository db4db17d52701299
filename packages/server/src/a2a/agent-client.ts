// The official SDK's client for one attempt, made from the agent's stored card (no request is
// sent to make it), sending through an AgentFetch: what each answer was is known when a call
// fails, and no answer is read past its limit.
import type { AgentCard } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from "@a2a-js/sdk/client";
import type { A2aAgentCard } from "../delivery/delivery-store.ts";
import { type AgentExchange, createAgentFetch } from "./agent-fetch.ts";
import type { AgentCredential } from "./card-credentials.ts";
import { credentialedFetch } from "./credentialed-fetch.ts";
import type { OAuthTokens } from "./oauth-tokens.ts";

/** A client of one agent, and what its last request came to. */
export interface AgentConnection {
  client: Client;
  /** The last request's exchange (its HTTP status, or that nothing answered). */
  exchange(): AgentExchange | undefined;
}

/**
 * A client of the agent whose card is `card`, over its first interface the service speaks (the
 * card keeps only those), reading at most `answerBytes` of an answer; with `authentication`, each
 * request carries the agent's credentials, to its interfaces' origins only.
 */
export async function connectAgent(
  card: A2aAgentCard,
  answerBytes: number,
  fetcher?: typeof fetch,
  authentication?: { credentials: readonly AgentCredential[]; tokens: OAuthTokens },
): Promise<AgentConnection> {
  const base: typeof fetch = fetcher ?? ((input, init) => fetch(input, init));
  const sending =
    authentication === undefined || authentication.credentials.length === 0
      ? base
      : credentialedFetch({
          ...authentication,
          origins: new Set(card.supportedInterfaces.map((entry) => new URL(entry.url).origin)),
          base,
        });
  const agentFetch = createAgentFetch(answerBytes, sending);
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [
      new JsonRpcTransportFactory({ fetchImpl: agentFetch.fetch }),
      new RestTransportFactory({ fetchImpl: agentFetch.fetch }),
    ],
  });
  const client = await new ClientFactory(options).createFromAgentCard(card as unknown as AgentCard);
  return { client, exchange: agentFetch.last };
}
