import { operations } from "@task-context/contract";
import { transportError } from "../a2a/transport-error.ts";
import { iso } from "../delivery/machine/draft.ts";
import { defineHandler } from "../execution/operation-handler.ts";

/** The failed attempts shown of each A2A agent: the most the contract's `last_errors` holds. */
const LAST_ERRORS = 5;

/** The failed attempts read of each A2A agent, among which its last transport errors are found. */
const FAILURES_READ = LAST_ERRORS * 4;

/** `GET /v1/runs/{run_id}/agents`: the run's agents, and how its A2A agents' attempts failed. */
export const listAgents = defineHandler(operations.listAgents, {
  handle: async ({ path }, { service }) => {
    const agents = await service.store.query("agentList", path.run_id, { failures: FAILURES_READ });
    return {
      agents: agents.map(({ agent_id, tag, stages, a2a }) => {
        if (a2a === undefined) return { agent_id, tag, kind: "http" as const, stages };
        const { endpoint, failures } = a2a;
        // The service sends to the card's first interface (the card keeps those it speaks).
        const [face] = endpoint.card.supportedInterfaces;
        return {
          agent_id,
          tag,
          kind: "a2a" as const,
          stages,
          a2a: {
            url: endpoint.url,
            agent_name: endpoint.card.name,
            interface_url: face?.url ?? endpoint.url,
            protocol_binding: face?.protocolBinding ?? "JSONRPC",
            protocol_version: face?.protocolVersion ?? null,
            concurrency: endpoint.concurrency,
            card_signature: endpoint.card_signature ?? { verified: false },
            card_check:
              endpoint.card_check === undefined
                ? null
                : {
                    at: iso(endpoint.card_check.at),
                    outcome: endpoint.card_check.outcome,
                    ...(endpoint.card_check.reason === undefined
                      ? {}
                      : { reason: endpoint.card_check.reason }),
                  },
            transport_errors: failures
              .flatMap(({ at, work_item_id, attempt, reason }) => {
                const error = transportError(reason);
                return error === undefined
                  ? []
                  : [{ at: iso(at), ...error, work_item_id, attempt }];
              })
              .slice(0, LAST_ERRORS),
            last_errors: failures
              .slice(0, LAST_ERRORS)
              .map(({ at, work_item_id, attempt, reason }) => ({
                at: iso(at),
                work_item_id,
                attempt,
                reason,
              })),
          },
        };
      }),
    };
  },
});
