// The delivery service's errors, as the wire carries them: every code, its HTTP status, what the
// status means, an example answer of each code and the headers that come with a status. The
// server's DeliveryError, the OpenAPI document and the client's ServiceError are built on it.
import { schemaNames } from "@task-context/protocols";

/**
 * Every code the delivery service answers with, and its HTTP status. The codes are the `code`
 * of the JSON error body `{ error, code, issues? }`; clients branch on them.
 */
export const deliveryErrorStatus = {
  INVALID_REQUEST: 400,
  INVALID_STAGES: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  SELF_REVIEW: 403,
  HOST_NOT_ALLOWED: 403,
  RUN_NOT_FOUND: 404,
  WORK_ITEM_NOT_FOUND: 404,
  ARTIFACT_NOT_FOUND: 404,
  SCHEMA_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  AGENT_TAG_TAKEN: 409,
  NOT_ON_OFFER: 409,
  LEASE_LOST: 409,
  ALREADY_COMPLETED: 409,
  NOT_DEAD_LETTERED: 409,
  RUN_CANCELED: 409,
  RUN_COMPLETED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  INVALID_COMPLETION: 422,
  SECRET_IN_CONTEXT: 422,
  AGENT_CARD_INVALID: 422,
  AGENT_SKILLS_MISMATCH: 422,
  AGENT_CREDENTIALS_MISSING: 422,
  AGENT_CARD_SIGNATURE_INVALID: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** A code of the delivery service's error body, e.g. `"LEASE_LOST"`. */
export type DeliveryErrorCode = keyof typeof deliveryErrorStatus;

/** The HTTP status of an error code. */
export type DeliveryErrorStatus = (typeof deliveryErrorStatus)[DeliveryErrorCode];

/**
 * The codes an operation answers with. `NOT_FOUND` and `METHOD_NOT_ALLOWED` answer requests that
 * match no operation.
 */
export type OperationErrorCode = Exclude<DeliveryErrorCode, "NOT_FOUND" | "METHOD_NOT_ALLOWED">;

/** What an error status means, on every operation that can answer it. */
export const statusMeanings: Record<DeliveryErrorStatus, string> = {
  400: "The request breaks the contract (unknown field, wrong type, bad stage graph, text that is not well-formed Unicode in the body, path or query string): `issues` point at each field",
  401: "No token, or a token that is not valid",
  403: "The token may not do this (an agent on an admin endpoint, the admin on an agent's, a reviewer claiming the review of its own artifact)",
  404: "No such run, work item, artifact or schema for this token (another run's token gets 404 too)",
  405: "The path has no such method",
  409: "The state forbids it: tag taken, item not on offer, lease lost, already completed, not dead-lettered, the run canceled (nothing of it is accepted any more) or completed (it cannot be canceled)",
  413: "The body is larger than the limit (1 MiB by default)",
  415: "The body is not declared as JSON",
  422: "Idempotency-Key reused with another body, a completion that does not fit the work item, or (secrets policy refuse) a new run that holds a secret, an A2A agent whose card cannot be read, whose signature does not verify, or whose skills cover no stage asked for",
  429: "Too many requests for this token or address: wait Retry-After seconds",
  500: "The service failed to answer: try again, and report it if it keeps failing",
  503: "The service cannot answer now: try again later; or, on Cloudflare Workers, the Worker lacks a binding the operation needs (the message names it)",
};

/** An example answer of each code: what the service says, and the issues where it lists some. */
export const errorExamples: Record<
  OperationErrorCode,
  { error: string; issues?: { path: string; message: string }[] }
> = {
  INVALID_REQUEST: {
    error: "The request body does not match the contract. Fix the issues listed.",
    issues: [{ path: "/lease_ms", message: "lease_ms must be at least 100, not the number 50." }],
  },
  INVALID_STAGES: {
    error: "The run's stages do not form a graph the service can run. Fix the issues listed.",
    issues: [
      {
        path: "/stages/1/reviews",
        message: 'stages[1].reviews "drafts" is not the id of an earlier task stage.',
      },
    ],
  },
  SECRET_IN_CONTEXT: {
    error:
      'The run holds 1 secret: openai-api-key in /goal (line 1). Nothing was stored, because the service\'s secrets policy is "refuse": remove it and pass credentials another way.',
    issues: [
      {
        path: "/goal",
        message:
          "This looks like an OpenAI API key (openai-api-key, line 1): remove it; every agent of the run would receive it.",
      },
    ],
  },
  AGENT_CARD_INVALID: {
    error:
      "The A2A agent card at https://illustrator.example.com/.well-known/agent-card.json answered HTTP 404. Check the agent's URL and that it serves an A2A agent card (1.0 or 0.3) there.",
  },
  AGENT_SKILLS_MISMATCH: {
    error:
      'The skills the agent card of "Illustrator" declares do not cover the available_skills of the stages asked for. Register an agent whose card declares them, or name other stages.',
    issues: [
      {
        path: "/stages/draft",
        message:
          'Stage "draft" needs web_search, which the agent card of "Illustrator" does not declare (as a skill id or tag).',
      },
    ],
  },
  AGENT_CREDENTIALS_MISSING: {
    error:
      'The A2A agent card of "Illustrator" asks for credentials the registration does not give. Add them to a2a.credentials under the security scheme\'s name.',
    issues: [
      {
        path: "/securityRequirements/0",
        message:
          'The card asks for credentials of "bearer"; a2a.credentials has none for "bearer" (an HTTP Bearer scheme: give { "bearer_token": "…" }).',
      },
    ],
  },
  AGENT_CARD_SIGNATURE_INVALID: {
    error:
      'The A2A agent card of "Illustrator" carries a signature the service cannot verify. Fix the issues listed, or register the agent with a2a.jwks holding its key.',
    issues: [
      {
        path: "/signatures/0",
        message:
          'The signature by key "card-key-1" (ES256, from https://illustrator.example.com/.well-known/jwks.json) does not match the card: the card was changed after it was signed, or signed with another key.',
      },
    ],
  },
  UNAUTHORIZED: {
    error:
      "This endpoint needs a token: send Authorization: Bearer <token> (the admin token, or an agent token from POST /v1/runs/{run_id}/agents).",
  },
  FORBIDDEN: {
    error:
      "Only the admin token may do this. Agents claim, heartbeat, complete and fail work items.",
  },
  HOST_NOT_ALLOWED: {
    error:
      'Host "evil.example.com" is not allowed on /mcp: this service answers MCP requests addressed to localhost, 127.0.0.1, [::1] only (protection against DNS rebinding). To serve it under another name, add the name to TASK_CONTEXT_ALLOWED_HOSTS.',
  },
  SELF_REVIEW: {
    error:
      "Work item wi_k33683fe0010vazf9amv7aw60q reviews your own artifact art_r04nrkd4cy0qpbhxyh41w9z3z3: another agent must review it. Claim another item.",
  },
  RUN_NOT_FOUND: {
    error:
      "No run run_qy78f9c66491mvp55vcr65r66m. Check the run id (and that your token belongs to that run).",
  },
  WORK_ITEM_NOT_FOUND: {
    error: "The run has no work item wi_x. Take work item ids from the inbox.",
  },
  ARTIFACT_NOT_FOUND: {
    error:
      "The run has no artifact art_x. Take artifact ids from work items' previous_artifacts or from artifact.created events.",
  },
  SCHEMA_NOT_FOUND: {
    error: `No published schema "work-item.v9". GET /v1/schemas lists them: ${schemaNames.join(", ")}.`,
  },
  AGENT_TAG_TAKEN: {
    error: 'The run already has an agent tagged "writer-1". Choose another tag.',
  },
  NOT_ON_OFFER: {
    error:
      "Work item wi_ffnxz1cg6f1qz0jh5rzj9twwqt is not on offer: another agent holds its lease. Poll the inbox for items you can claim.",
  },
  LEASE_LOST: {
    error:
      "Attempt 1 of work item wi_ffnxz1cg6f1qz0jh5rzj9twwqt is no longer current (its current attempt is 2, held by another agent). Stop working on it and poll the inbox.",
  },
  ALREADY_COMPLETED: {
    error:
      "Work item wi_ffnxz1cg6f1qz0jh5rzj9twwqt is already completed; a second completion is refused. Poll the inbox for more work.",
  },
  NOT_DEAD_LETTERED: {
    error:
      "Work item wi_k33683fe0010vazf9amv7aw60q is not dead-lettered (it is offered); only dead letters can be requeued.",
  },
  RUN_CANCELED: {
    error:
      "Run run_qy78f9c66491mvp55vcr65r66m was canceled at 2026-11-20T10:15:30.000Z (reason: the brief changed): its work items are withdrawn and nothing of it is accepted any more. Stop working on it.",
  },
  RUN_COMPLETED: {
    error:
      "Run run_qy78f9c66491mvp55vcr65r66m is completed: a completed run cannot be canceled. Its artifacts stand; nothing is left to stop.",
  },
  PAYLOAD_TOO_LARGE: {
    error:
      "The request body is larger than 1048576 bytes. Send less (store large content elsewhere and reference it).",
  },
  UNSUPPORTED_MEDIA_TYPE: {
    error: "Send the request body as JSON, with Content-Type: application/json.",
  },
  IDEMPOTENCY_KEY_REUSED: {
    error:
      'Idempotency-Key "3f2c9a4e" was already used for another request. Use a new key for a new request, or resend the first request unchanged.',
  },
  INVALID_COMPLETION: {
    error: "The completion does not fit the work item. Fix the issues listed.",
    issues: [
      {
        path: "/review/criteria",
        message:
          'review.criteria has no entry for "readability". Give one entry per criterion of the review context.',
      },
    ],
  },
  RATE_LIMITED: {
    error: "Too many requests from this token or address. Wait 10 s (Retry-After) and slow down.",
  },
  INTERNAL_ERROR: {
    error: "The service failed to answer this request. Try again; if it keeps failing, report it.",
  },
  SERVICE_UNAVAILABLE: {
    error:
      "Listing runs on Cloudflare Workers needs the runs directory: bind RUN_DIRECTORY to the RunDirectory class in wrangler.jsonc (durable_objects and a migration with new_sqlite_classes), then deploy again.",
  },
};

/** The headers that come with an error status. */
export const errorHeaders: Partial<Record<DeliveryErrorStatus, Record<string, object>>> = {
  401: {
    "WWW-Authenticate": {
      required: true,
      description: "How to authenticate: a bearer token",
      schema: { type: "string" },
      example: 'Bearer realm="task-context"',
    },
  },
  429: {
    "Retry-After": {
      required: true,
      description: "Seconds until this token and address may send again",
      schema: { type: "integer", minimum: 1 },
      example: 10,
    },
  },
};
