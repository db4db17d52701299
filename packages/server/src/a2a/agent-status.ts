// A run's agents as GET /v1/runs/{run_id}/agents and the run page show them: an A2A agent with
// the interface it is sent to, its card's signature and last check, its recent transport errors
// (classified) and its last failed attempts, from the read `agentList`.
import type { AgentView } from "@task-context/contract";
import type { DeliveryStore } from "../delivery/delivery-store.ts";
import { iso } from "../delivery/machine/draft.ts";
import { transportError } from "./transport-error.ts";

/** The failed attempts shown of each A2A agent: the most the contract's `last_errors` holds. */
const LAST_ERRORS = 5;

/** The failed attempts read of each A2A agent, among which its last transport errors are found. */
const FAILURES_READ = LAST_ERRORS * 4;

/** The run's agents, in the order they were added, as the agent list shows them. */
export async function agentStatus(
  store: Pick<DeliveryStore, "query">,
  runId: string,
): Promise<AgentView[]> {
  const agents = await store.query("agentList", runId, { failures: FAILURES_READ });
  return agents.map(({ agent_id, tag, stages, a2a }): AgentView => {
    if (a2a === undefined) return { agent_id, tag, kind: "http", stages };
    const { endpoint, failures } = a2a;
    // The service sends to the card's first interface (the card keeps those it speaks).
    const [face] = endpoint.card.supportedInterfaces;
    const check = endpoint.card_check;
    return {
      agent_id,
      tag,
      kind: "a2a",
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
          check === undefined
            ? null
            : {
                at: iso(check.at),
                outcome: check.outcome,
                ...(check.reason === undefined ? {} : { reason: check.reason }),
              },
        transport_errors: failures
          .flatMap(({ at, work_item_id, attempt, reason }) => {
            const error = transportError(reason);
            return error === undefined ? [] : [{ at: iso(at), ...error, work_item_id, attempt }];
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
  });
}
