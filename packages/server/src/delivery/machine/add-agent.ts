// Adding an agent to a run: its tag must be the run's only one.
import { DeliveryError } from "../delivery-error.ts";
import type { StoredAgent } from "../delivery-store.ts";
import type { Draft } from "./draft.ts";

/** Adds an agent (its token hashed by the caller); `AGENT_TAG_TAKEN` for a tag in use. */
export function addAgent(draft: Draft, agent: StoredAgent): undefined {
  if (draft.state.tags.has(agent.tag)) {
    throw new DeliveryError({
      code: "AGENT_TAG_TAKEN",
      message: `The run already has an agent tagged "${agent.tag}". Choose another tag.`,
    });
  }
  draft.write({ type: "insertAgent", agent, created_at: draft.now });
  return undefined;
}
