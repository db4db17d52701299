import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runIdParameter } from "../parameters.ts";
import { addAgentBody, agentCreated } from "../schemas.ts";

/** `POST /v1/runs/{run_id}/agents`: an agent of the run and its token, shown once. */
export const addAgent = defineOperation({
  id: "addAgent",
  method: "POST",
  path: "/v1/runs/{run_id}/agents",
  audience: "admin",
  summary: "Add an agent to a run; its token is returned this once",
  description:
    "The token names its run and agent and is stored hashed: keep it, it is never shown again. Each tag is unique within the run (it is the author_tag and reviewer_tag of the agent's work). With `a2a`, the agent is an A2A 1.0 agent: its agent card is read and checked (`AGENT_CARD_INVALID`), its skills are matched against the stages' `available_skills` (`AGENT_SKILLS_MISMATCH`), and the service sends it the work items of the matched stages as A2A messages, one A2A task per lease attempt; its token lets it fetch earlier artifacts. A card the service cannot serve is refused (`AGENT_CARD_INVALID`): larger than 1 MiB, no interface it speaks (JSONRPC or HTTP+JSON, A2A 1.x), or security requirements it cannot meet. With `a2a.credentials` (by security scheme name: a bearer token, an API key, OAuth 2 client credentials), the service sends them with every request to the agent's interface, and to no other origin; the card's `securityRequirements` (of the card and of each skill) must be met by them, else `AGENT_CREDENTIALS_MISSING` names the scheme missing. Credentials are never shown again. A card that carries `signatures` (JWS over its JCS-canonical form, A2A §8.4) is verified, with keys from each signature's `jku` (on the card's origin) or from `a2a.jwks`; one that does not verify, or none with `a2a.require_signature`, is refused (`AGENT_CARD_SIGNATURE_INVALID`); `a2a.card_signature` says which key verified it. `warning` says when a review stage can only be taken by an agent that would review its own work.",
  tag: "runs",
  input: { path: z.strictObject({ run_id: runIdParameter }), body: addAgentBody },
  output: {
    kind: "json",
    status: 201,
    body: agentCreated,
    description: "The agent and its token",
    noStore: true,
  },
  errors: [
    "INVALID_REQUEST",
    "RUN_NOT_FOUND",
    "AGENT_TAG_TAKEN",
    "AGENT_CARD_INVALID",
    "AGENT_SKILLS_MISMATCH",
    "AGENT_CREDENTIALS_MISSING",
    "AGENT_CARD_SIGNATURE_INVALID",
    "RUN_CANCELED",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
  ],
  client: { method: "addAgent" },
});
