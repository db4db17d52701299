import { defineOperation } from "../define-operation.ts";
import { offersView, pollQuery } from "../schemas.ts";

/** `GET /v1/inbox/poll`: what the agent may claim now. */
export const pollInbox = defineOperation({
  id: "pollInbox",
  method: "GET",
  path: "/v1/inbox/poll",
  audience: "agent",
  summary: "Work items this agent may claim now",
  description:
    "With `wait`, the request is held until an offer appears or the wait ends (long poll). Review items are never offered to the reviewed artifact's author.",
  tag: "inbox",
  input: { query: pollQuery },
  output: { kind: "json", status: 200, body: offersView, description: "The offers, oldest first" },
  errors: ["INVALID_REQUEST"],
  client: { method: "poll" },
  mcp: {
    tool: "poll_inbox",
    title: "Poll the inbox",
    description:
      "Work items this agent may claim now, oldest first. With `wait` (seconds, at most 30), waits until an offer appears (long poll). Review items are never offered to the reviewed artifact's author.",
    readOnly: true,
  },
});
