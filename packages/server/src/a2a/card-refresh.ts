// A registered A2A agent's card, kept fresh: read again, before the agent's next attempt, once
// `refreshMs` passed since its last check (by the service's clock) or at once after an attempt
// failed with a transport error. The card read again is checked as at registration — read,
// validated, its signatures verified (the registration's pinned keys and policy), its skills
// against the agent's stages, its requirements against the agent's credentials — and stored
// when it changed, with what changed as an `agent.card_changed` event. A card that fails is not
// taken: the last good one is kept, the failure recorded (`agent.card_check_failed`, once per
// distinct reason) and shown in the agent list.

import type { A2aCredential } from "@task-context/contract";
import type { CollaborationEvent } from "@task-context/protocols";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type {
  A2aAgent,
  A2aAgentCard,
  A2aEndpoint,
  DeliveryStore,
} from "../delivery/delivery-store.ts";
import { matchStages, readVerifiedCard } from "./agent-card.ts";
import { errorMessages, quoted } from "./agent-problem.ts";
import { type AgentCredential, agentCredentials } from "./card-credentials.ts";

/** How often a card is read again by default: every hour. */
export const DEFAULT_CARD_REFRESH_MS = 60 * 60 * 1000;

type CardChange = Extract<CollaborationEvent, { type: "agent.card_changed" }>["changes"][number];

/** Options of {@link CardRefresh}. */
export interface CardRefreshOptions {
  store: Pick<DeliveryStore, "getRun" | "checkCard">;
  /** The service's clock: when a check is due is measured with it. */
  clock: () => number;
  /** How long a checked card is used before it is read again. */
  refreshMs: number;
  /** The `fetch` the card (and its key set) is read with. */
  fetch?: typeof fetch | undefined;
}

/** The registration's credentials, by scheme name, from how they are sent. */
function givenCredentials(credentials: readonly AgentCredential[] = []) {
  return Object.fromEntries(
    credentials.map((credential): [string, A2aCredential] => {
      if (credential.kind === "bearer")
        return [credential.scheme, { bearer_token: credential.token }];
      if (credential.kind === "api_key") return [credential.scheme, { api_key: credential.key }];
      const { client_id, client_secret, scopes } = credential;
      return [credential.scheme, { client_id, client_secret, scopes }];
    }),
  );
}

/** The origins of a card's interfaces: where its credentials may go. */
const originsOf = (card: A2aAgentCard) =>
  [...new Set(card.supportedInterfaces.map((entry) => new URL(entry.url).origin))].sort();

/** What the service uses of a card, field by field, as the change event shows it. */
function usedFields(endpoint: A2aEndpoint): Record<CardChange["field"], string> {
  const { card } = endpoint;
  const [face] = card.supportedInterfaces;
  const requirements = [
    card.securityRequirements,
    ...card.skills.map((s) => s.securityRequirements),
  ];
  return {
    name: card.name,
    interface_url: face?.url ?? "",
    protocol_binding: face?.protocolBinding ?? "",
    protocol_version: face?.protocolVersion ?? "1.0",
    streaming: String(card.capabilities?.streaming === true),
    skills: card.skills
      .map((skill) => [skill.id, ...(skill.tags ?? [])].join(" "))
      .sort()
      .join(", "),
    security: JSON.stringify({ schemes: card.securitySchemes ?? {}, requirements }),
    signature:
      endpoint.card_signature?.verified === true ? (endpoint.card_signature.kid ?? "") : "none",
  };
}

/** The fields that differ between two endpoints' cards, each before and after. */
export function cardChanges(before: A2aEndpoint, after: A2aEndpoint): CardChange[] {
  const was = usedFields(before);
  const now = usedFields(after);
  return (Object.keys(now) as CardChange["field"][]).flatMap((field) =>
    was[field] === now[field] ? [] : [{ field, before: was[field], after: now[field] }],
  );
}

/** Why a card read again was not taken, as its event and the agent list say it. */
function failureOf(error: unknown): string {
  if (!DeliveryError.isInstance(error)) return quoted(errorMessages(error));
  const issues = (error.issues ?? []).map((issue) => `${issue.path}: ${issue.message}`);
  return quoted([error.message, ...issues].join(" "));
}

/**
 * The cards of a dispatcher's A2A agents, read again when due: {@link current} answers the agent
 * as its next attempt should use it; {@link dueNow} makes its next check come at once.
 */
export class CardRefresh {
  readonly #options: CardRefreshOptions;
  /** The latest endpoint of each agent (by run and agent id) this instance checked. */
  readonly #latest = new Map<string, A2aAgent>();
  /** The agents whose next check is due at once (an attempt failed with a transport error). */
  readonly #due = new Set<string>();
  /** The checks under way, so that an agent's slots share one. */
  readonly #checks = new Map<string, Promise<A2aAgent>>();

  constructor(options: CardRefreshOptions) {
    this.#options = options;
  }

  /** The agent's next check is due at once. */
  dueNow(runId: string, agentId: string): void {
    this.#due.add(`${runId} ${agentId}`);
  }

  /**
   * `agent` as its next attempt should use it: the latest endpoint known, its card read again
   * first when a check is due. Never rejects: a check that cannot be stored is told to `onError`
   * and the agent is used as it was.
   */
  async current(
    runId: string,
    agent: A2aAgent,
    onError?: (error: unknown) => void,
  ): Promise<A2aAgent> {
    const key = `${runId} ${agent.agent_id}`;
    const known = this.#latest.get(key);
    // The newer of the two: what this instance checked, or what the store answered.
    const latest =
      known !== undefined && (known.a2a.card_check?.at ?? 0) >= (agent.a2a.card_check?.at ?? 0)
        ? known
        : agent;
    const last = latest.a2a.card_check?.at ?? Number.NEGATIVE_INFINITY;
    if (!this.#due.has(key) && this.#options.clock() < last + this.#options.refreshMs) {
      return latest;
    }
    let check = this.#checks.get(key);
    if (check === undefined) {
      this.#due.delete(key);
      check = this.#check(runId, latest)
        .catch((error: unknown) => {
          onError?.(error);
          return latest;
        })
        .finally(() => this.#checks.delete(key));
      this.#checks.set(key, check);
    }
    const checked = await check;
    this.#latest.set(key, checked);
    return checked;
  }

  /** Reads the agent's card again, stores what the check leaves, and answers the agent so. */
  async #check(runId: string, agent: A2aAgent): Promise<A2aAgent> {
    const { store, clock } = this.#options;
    const before = agent.a2a;
    const at = clock();
    let after: A2aEndpoint;
    try {
      after = await this.#read(runId, before);
    } catch (error) {
      const reason = failureOf(error);
      const repeated =
        before.card_check?.outcome === "failed" && before.card_check.reason === reason;
      const kept: A2aEndpoint = { ...before, card_check: { at, outcome: "failed", reason } };
      await store.checkCard(runId, {
        agentId: agent.agent_id,
        endpoint: kept,
        ...(repeated ? {} : { failure: reason }),
      });
      return { ...agent, a2a: kept };
    }
    const changes = cardChanges(before, after);
    const endpoint: A2aEndpoint = {
      ...after,
      card_check: { at, outcome: changes.length === 0 ? "unchanged" : "changed" },
    };
    await store.checkCard(runId, { agentId: agent.agent_id, endpoint, changes });
    return { ...agent, a2a: endpoint };
  }

  /** The endpoint with its card read again and checked as at registration, or why not. */
  async #read(runId: string, before: A2aEndpoint): Promise<A2aEndpoint> {
    const given = givenCredentials(before.credentials);
    const { card, signature } = await readVerifiedCard(before.url, {
      fetcher: this.#options.fetch,
      credentials: given,
      jwks: before.jwks,
      // A card verified at registration must stay signed: its signature is not stripped away.
      requireSignature:
        before.require_signature === true ||
        (before.card_signature?.verified === true ? "was-signed" : undefined),
    });
    // A card that moves its interfaces elsewhere would take the registration's credentials along.
    const origins = originsOf(card);
    if (
      before.credentials !== undefined &&
      origins.join(" ") !== originsOf(before.card).join(" ")
    ) {
      throw new DeliveryError({
        code: "AGENT_CARD_INVALID",
        message: `The A2A agent card of "${card.name}" now names interfaces on ${origins.join(", ")}, not on ${originsOf(before.card).join(", ")} as when it was registered with credentials: the service does not send them to another origin. Register the agent again.`,
      });
    }
    const run = await this.#options.store.getRun(runId);
    matchStages(card, run.stages, before.stages);
    // The same credentials, sent as the card's schemes now say (an API key's header, …).
    const credentials = agentCredentials(card, given);
    return {
      ...before,
      card,
      card_signature: signature,
      ...(credentials.length === 0 ? {} : { credentials }),
    };
  }
}
