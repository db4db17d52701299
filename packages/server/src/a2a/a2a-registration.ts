// Registering an A2A agent: its card read and checked, its skills matched against the stages,
// and what the answer says of it.
import type { AddAgentInput, AgentCreated } from "@task-context/contract";
import type { A2aAgentCard, A2aEndpoint } from "../delivery/delivery-store.ts";
import type { ServiceContext } from "../execution/service-context.ts";
import { matchStages, readVerifiedCard } from "./agent-card.ts";
import { agentCredentials } from "./card-credentials.ts";

/** The endpoint of an A2A agent added to `runId`, its card read now. */
export async function a2aEndpoint(
  context: Pick<ServiceContext, "store" | "a2a" | "timing">,
  runId: string,
  a2a: NonNullable<AddAgentInput["a2a"]>,
  serviceUrl: string,
): Promise<A2aEndpoint> {
  const run = await context.store.getRun(runId); // RUN_NOT_FOUND before reading anything
  const { card, signature } = await readVerifiedCard(a2a.url, {
    fetcher: context.a2a.fetch,
    credentials: a2a.credentials,
    jwks: a2a.jwks,
    requireSignature:
      a2a.require_signature === true ||
      (context.a2a.requireSignatures === true ? "service" : undefined),
  });
  const credentials = agentCredentials(card, a2a.credentials);
  const stages = matchStages(card, run.stages, a2a.stages);
  return {
    url: a2a.url,
    card,
    stages,
    concurrency: a2a.concurrency ?? 1,
    service_url: serviceUrl,
    card_signature: signature,
    card_check: { at: context.timing.clock(), outcome: "registered" },
    ...(a2a.jwks === undefined ? {} : { jwks: a2a.jwks }),
    ...(a2a.require_signature === true || context.a2a.requireSignatures === true
      ? { require_signature: true }
      : {}),
    ...(credentials.length === 0 ? {} : { credentials }),
  };
}

/**
 * The A2A protocol version the service speaks to the agent: its card's first kept interface's (1.x
 * before 0.3.x), as the agent list shows it; 1.0 when the interface did not say.
 */
export function sentVersion(card: A2aAgentCard): string {
  return card.supportedInterfaces[0]?.protocolVersion ?? "1.0";
}

/**
 * What the answer to the registration says of the endpoint: `streaming` is what the service
 * will do on this runtime (`streams`: whether its dispatcher follows streams at all; a Durable
 * Object's alarm only polls).
 */
export function a2aAgentView(
  endpoint: A2aEndpoint,
  streams: boolean,
): NonNullable<AgentCreated["a2a"]> {
  return {
    url: endpoint.url,
    agent_name: endpoint.card.name,
    stages: endpoint.stages,
    protocol_version: sentVersion(endpoint.card),
    streaming: streams && endpoint.card.capabilities?.streaming === true,
    concurrency: endpoint.concurrency,
    card_signature: endpoint.card_signature ?? { verified: false },
  };
}
