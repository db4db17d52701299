// An A2A agent's card: read from its endpoint when an admin registers the agent, checked, and
// matched against the run's stages (which stages' `available_skills` its skills cover).
import { checkValue } from "@task-context/protocols/internal";
import * as z from "zod";
import type { StageView } from "../contract/schemas.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { A2aAgentCard } from "../delivery/delivery-store.ts";

/** Where an agent card is, under the agent's base URL (A2A 1.0, section 8.2). */
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";

/** The protocol bindings the service's client speaks (gRPC needs Node-only peers). */
const SPOKEN = new Set(["JSONRPC", "HTTP+JSON"]);

/** How long reading a card may take. */
const CARD_TIMEOUT_MS = 10_000;

/** The fields of an agent card the service relies on; every other field is kept as sent. */
const agentCardSchema = z.looseObject({
  name: z.string().min(1),
  supportedInterfaces: z
    .array(
      z.looseObject({
        url: z.url({ protocol: /^https?$/ }),
        protocolBinding: z.string().min(1),
        protocolVersion: z.string().optional(),
      }),
    )
    .min(1),
  capabilities: z
    .looseObject({ streaming: z.boolean().optional(), pushNotifications: z.boolean().optional() })
    .optional(),
  skills: z.array(
    z.looseObject({
      id: z.string().min(1),
      name: z.string(),
      tags: z.array(z.string()).optional(),
    }),
  ),
});

function invalidCard(url: string, problem: string, cause?: unknown): DeliveryError {
  return new DeliveryError({
    code: "AGENT_CARD_INVALID",
    message: `The A2A agent card at ${url} ${problem}. Check the agent's URL and that it serves an A2A 1.0 agent card there.`,
    cause,
  });
}

/**
 * Reads and checks the agent card of the A2A agent at `baseUrl`:
 * `AGENT_CARD_INVALID` when it cannot be fetched, is not JSON, or lacks what the service
 * needs (a name, an HTTP interface, its skills), with an issue per missing field.
 */
export async function readAgentCard(
  baseUrl: string,
  fetcher: typeof fetch = fetch,
): Promise<A2aAgentCard> {
  const url = new URL(AGENT_CARD_PATH, baseUrl).href;
  let response: Response;
  try {
    response = await fetcher(url, {
      headers: { accept: "application/json", "a2a-version": "1.0" },
      signal: AbortSignal.timeout(CARD_TIMEOUT_MS),
      // A redirect is answered as its status (Workers refuse "error"): a card is not followed.
      redirect: "manual",
    });
  } catch (error) {
    throw invalidCard(url, `could not be read (${(error as Error).message})`, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw invalidCard(url, `answered HTTP ${response.status}`);
  }
  let card: unknown;
  try {
    card = await response.json();
  } catch (error) {
    throw invalidCard(url, "is not JSON", error);
  }
  const checked = checkValue(agentCardSchema, card, { root: "agent card" });
  if (
    checked.valid &&
    !checked.data.supportedInterfaces.some((i) => SPOKEN.has(i.protocolBinding))
  ) {
    throw new DeliveryError({
      code: "AGENT_CARD_INVALID",
      message: `The A2A agent card at ${url} offers no interface the service speaks. Fix the issues listed.`,
      issues: [
        {
          path: "/supportedInterfaces",
          message: `The service sends A2A messages over JSONRPC or HTTP+JSON; the card offers ${checked.data.supportedInterfaces.map((i) => i.protocolBinding).join(", ")} only.`,
        },
      ],
    });
  }
  if (!checked.valid) {
    throw new DeliveryError({
      code: "AGENT_CARD_INVALID",
      message: `The A2A agent card at ${url} lacks what the service needs. Fix the issues listed.`,
      issues: checked.issues,
    });
  }
  return checked.data as A2aAgentCard;
}

/** True when the card's skills (by id or tag) include every one of `skills`. */
export function coversSkills(card: A2aAgentCard, skills: readonly string[]): boolean {
  const declared = new Set(card.skills.flatMap((skill) => [skill.id, ...(skill.tags ?? [])]));
  return skills.every((skill) => declared.has(skill));
}

/**
 * The stages of the run an A2A agent takes work from: those (of `wanted`, or all) whose
 * `available_skills` its card's skills cover, by skill id or tag. `AGENT_SKILLS_MISMATCH` when a
 * wanted stage is not covered (an issue names each skill missing) or no stage is.
 */
export function matchStages(
  card: A2aAgentCard,
  stages: readonly Pick<StageView, "id" | "available_skills">[],
  wanted?: readonly string[],
): string[] {
  const known = new Set(stages.map((stage) => stage.id));
  const unknown = (wanted ?? []).filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new DeliveryError({
      code: "INVALID_REQUEST",
      message: `The run has no stage ${unknown.map((id) => `"${id}"`).join(", ")}. Name stages of the run in a2a.stages.`,
      issues: unknown.map((id) => ({
        path: `/a2a/stages/${wanted?.indexOf(id)}`,
        message: `"${id}" is not a stage of the run.`,
      })),
    });
  }
  const candidates = wanted === undefined ? stages : stages.filter((s) => wanted.includes(s.id));
  const missing = candidates.flatMap((stage) =>
    coversSkills(card, stage.available_skills)
      ? []
      : [
          {
            path: `/stages/${stage.id}`,
            message: `Stage "${stage.id}" needs ${stage.available_skills.filter((skill) => !coversSkills(card, [skill])).join(", ")}, which the agent card of "${card.name}" does not declare (as a skill id or tag).`,
          },
        ],
  );
  const matched = candidates
    .filter((stage) => coversSkills(card, stage.available_skills))
    .map((s) => s.id);
  if ((wanted !== undefined && missing.length > 0) || matched.length === 0) {
    throw new DeliveryError({
      code: "AGENT_SKILLS_MISMATCH",
      message: `The skills the agent card of "${card.name}" declares do not cover the available_skills of ${wanted === undefined ? "any stage of the run" : "the stages asked for"}. Register an agent whose card declares them, or name other stages.`,
      issues: missing,
    });
  }
  return matched;
}
