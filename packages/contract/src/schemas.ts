// The HTTP contract's request and response bodies, as zod schemas: the routes validate requests
// with them and the OpenAPI document is generated from them. Work items, artifacts, review
// feedback and events are the published schemas of @task-context/protocols themselves.
import {
  artifactSchema,
  collaborationEventSchema,
  contextSha256Schema,
  reviewFeedbackSchema,
  workItemSchema,
} from "@task-context/protocols";
import * as z from "zod";
import * as examples from "./examples.ts";

/**
 * The published schema under a component name of the OpenAPI document, with an example (a copy:
 * same checks).
 */
function component<Schema extends z.core.$ZodType>(
  schema: Schema,
  id: string,
  example: unknown,
): Schema {
  const copy = z.clone(schema) as Schema;
  z.globalRegistry.add(copy, { ...z.globalRegistry.get(schema), id, examples: [example] });
  return copy;
}

export const workItem = component(workItemSchema, "WorkItem", examples.workItemExample);
export const artifact = component(artifactSchema, "Artifact", examples.artifactExample);
export const collaborationEvent = component(
  collaborationEventSchema,
  "CollaborationEvent",
  examples.collaborationEventExample,
);

const text = z.string().min(1);
const timestamp = z.iso.datetime().describe("ISO 8601, UTC, e.g. 2026-11-20T10:15:30.000Z");
const attempt = z
  .int()
  .min(1)
  .describe("The attempt of the lease this request acts for, as the claim returned it");

/** A stage of a run, as the run's creator describes it. */
export const stageInput = z
  .strictObject({
    id: z.string().min(1).max(100).describe("Unique within the run"),
    stage_description: text,
    expected_output: text,
    available_skills: z.array(text),
    background: z.string().optional(),
    items: z
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe("Task stages: how many work items the stage offers (default 1)"),
    kind: z.enum(["task", "review"]).optional().describe('Default "task"'),
    reviews: text.optional().describe("Review stages: the id of an earlier task stage"),
    review_criteria: z
      .array(text)
      .min(1)
      .optional()
      .describe("Review stages (required there): what reviewers judge, e.g. logic, readability"),
  })
  .meta({ id: "StageInput", examples: [examples.stageInputExample] });

/** `POST /v1/runs`. */
export const createRunBody = z
  .strictObject({
    goal: text,
    constraints: z.array(z.string()),
    stages: z.array(stageInput).min(1).max(100),
    lease_ms: z
      .int()
      .min(100)
      .max(3_600_000)
      .optional()
      .describe("How long a claim holds an item without a heartbeat (default 60000)"),
    max_attempts: z
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe("Failed or expired attempts before an item is dead-lettered (default 5)"),
  })
  .meta({ id: "CreateRun", examples: [examples.createRunExample] });

const counts = z.strictObject({
  total: z.int().min(0),
  offered: z.int().min(0),
  leased: z.int().min(0),
  completed: z.int().min(0),
  dead_lettered: z.int().min(0),
});

/** A stage as the service reports it: its definition, where it stands, its items by status. */
export const stageView = z
  .strictObject({
    ...stageInput.shape,
    kind: z.enum(["task", "review"]),
    status: z.enum(["pending", "active", "completed"]),
    counts,
  })
  .meta({ id: "Stage", examples: [examples.stageExample] });

/** A run. */
export const runView = z
  .strictObject({
    run_id: text,
    status: z
      .enum(["active", "blocked", "completed", "canceled"])
      .describe(
        "`canceled` after `POST /v1/runs/{run_id}/cancel`: terminal, as `completed` is; its work items are withdrawn",
      ),
    canceled_at: timestamp.optional().describe("When the run was canceled (canceled runs only)"),
    cancel_reason: z
      .string()
      .optional()
      .describe("Why, as the cancel request said (canceled runs only, when a reason was given)"),
    goal: text,
    constraints: z.array(z.string()),
    lease_ms: z.int(),
    max_attempts: z.int(),
    created_at: timestamp,
    stages: z.array(stageView),
  })
  .meta({ id: "Run", examples: [examples.runExample] });

/** The answer to `POST /v1/runs`: the run, and a warning when secrets were redacted from it. */
export const runCreated = z
  .strictObject({
    ...runView.shape,
    warning: z
      .string()
      .optional()
      .describe(
        "Set when secrets (API keys, tokens, private keys, passwords in URLs) were redacted from the goal, constraints or stages: which kinds, in which fields and lines; never the values",
      ),
  })
  .meta({ id: "RunCreated", examples: [examples.runExample] });

/** A secret's text in a credential: at most 4 096 characters, no line break. */
const credentialText = z
  .string()
  .min(1)
  .max(4096)
  .regex(/^[^\r\n]*$/, "must be one line");

/**
 * A credential for one of an A2A agent card's security schemes: a token for an HTTP Bearer
 * scheme, a key for an API key scheme, a client's id and secret for an OAuth 2 scheme with a
 * client credentials flow.
 */
export const a2aCredential = z
  .union([
    z.strictObject({
      bearer_token: credentialText.describe("Sent as Authorization: Bearer <token>"),
    }),
    z.strictObject({
      api_key: credentialText.describe(
        "Sent in the header, query parameter or cookie the scheme names (its location and name)",
      ),
    }),
    z.strictObject({
      client_id: credentialText,
      client_secret: credentialText.describe("Sent only to the scheme's tokenUrl"),
      scopes: z
        .array(z.string().min(1).max(200))
        .max(50)
        .optional()
        .describe("The scopes asked for (default: those the card's requirement names)"),
    }),
  ])
  .meta({
    id: "A2aCredential",
    examples: [
      { bearer_token: "illustrator-token-Rg5sYt2Lq8" },
      { client_id: "lumen-service", client_secret: "9f1c2e7a4b", scopes: ["tasks:write"] },
    ],
  });

/** The JWS algorithms an A2A agent card's signature may use: asymmetric ones, never `none`. */
export const cardSignatureAlgorithms = [
  "ES256",
  "ES384",
  "ES512",
  "PS256",
  "PS384",
  "PS512",
  "RS256",
  "RS384",
  "RS512",
  "EdDSA",
  "Ed25519",
] as const;

/** A public key of a pinned key set (JWK, RFC 7517): an EC, RSA or OKP key, never a private part. */
const publicJwk = z
  .looseObject({
    kty: z.enum(["EC", "RSA", "OKP"]).describe("The key type: EC, RSA or OKP (Ed25519)"),
    kid: z.string().min(1).max(200).optional(),
  })
  .refine((key) => !("d" in key), {
    error: "a pinned key is a public key: remove its private part d",
    path: ["d"],
  });

/** How an A2A agent's card signature was checked, as the registration and the agent list say. */
export const cardSignature = z
  .strictObject({
    verified: z
      .boolean()
      .describe(
        "true: every signature of the card verified over its JCS-canonical form (A2A §8.4); false: the card carries no signatures",
      ),
    kid: z.string().optional().describe("The key id (kid) of the first signature that verified"),
    alg: z.string().optional().describe("Its JWS algorithm"),
    key_source: z
      .enum(["jku", "jwks"])
      .optional()
      .describe("Where the key came from: the signature's jku, or the registration's a2a.jwks"),
    jku: z.string().optional().describe("The key set's URL, when the key came from a jku"),
  })
  .meta({
    id: "CardSignature",
    examples: [
      {
        verified: true,
        kid: "card-key-1",
        alg: "ES256",
        key_source: "jku",
        jku: "https://illustrator.example.com/.well-known/jwks.json",
      },
      { verified: false },
    ],
  });

/** `POST /v1/runs/{run_id}/agents`. */
export const addAgentBody = z
  .strictObject({
    tag: z
      .string()
      .min(1)
      .max(100)
      .describe("The agent's name in the run (author_tag, reviewer_tag); unique within the run"),
    a2a: z
      .strictObject({
        url: z
          .url({ protocol: /^https?$/ })
          .max(2000)
          .describe(
            "The A2A agent's base URL: its agent card is /.well-known/agent-card.json under it",
          ),
        stages: z
          .array(text)
          .min(1)
          .optional()
          .describe("Only these stages' items (default: every stage whose skills the card covers)"),
        concurrency: z
          .int()
          .min(1)
          .max(16)
          .optional()
          .describe("How many of its items it works on at once, each its own A2A task (default 1)"),
        credentials: z
          .record(z.string().min(1).max(200), a2aCredential)
          .optional()
          .describe(
            "Credentials for the security schemes its card declares (securitySchemes), by scheme name: the card's securityRequirements must be met by them (else AGENT_CREDENTIALS_MISSING). Stored as the run's secrets: never shown again, sent only to the card's interface origin (an OAuth 2 client secret only to the scheme's tokenUrl)",
          ),
        jwks: z
          .strictObject({ keys: z.array(publicJwk).min(1).max(20) })
          .optional()
          .describe(
            "A pinned JSON Web Key Set (public keys): the card's signatures are verified with these keys, by kid, and a signature's jku is not fetched",
          ),
        require_signature: z
          .boolean()
          .optional()
          .describe(
            "Refuse a card that carries no signature that verifies (AGENT_CARD_SIGNATURE_INVALID); default false: an unsigned card is taken, a signed one must verify",
          ),
      })
      .optional()
      .describe(
        "An A2A 1.0 agent: the service reads its agent card, matches its skills against the stages' available_skills, and delivers its work items to it as A2A messages (one A2A task per lease attempt) instead of waiting for it to poll",
      ),
  })
  .meta({ id: "AddAgent", examples: [examples.addAgentExample, examples.addA2aAgentExample] });

/** The answer to `POST /v1/runs/{run_id}/agents`: the token is shown this once. */
export const agentCreated = z
  .strictObject({
    agent_id: text,
    tag: text,
    token: text.describe("Send as Authorization: Bearer <token>. Shown once; stored hashed."),
    a2a: z
      .strictObject({
        url: text,
        agent_name: text.describe("The name its agent card gives"),
        stages: z.array(text).describe("The stages whose items it is sent"),
        protocol_version: text.describe(
          "The A2A protocol version the service speaks to it: its card's interface's protocolVersion (1.0, or 0.3.0 for a 0.3 card, spoken through the official SDK's 0.3 compatibility layer); the agent list shows the same",
        ),
        streaming: z
          .boolean()
          .describe(
            "The service will follow its tasks on their streams (its card offers streaming, and this runtime's dispatcher streams: not a Durable Object's alarm); else by tasks/get",
          ),
        concurrency: z.int().min(1),
        card_signature: cardSignature,
      })
      .optional()
      .describe("An A2A agent: what the service read of its card and will deliver to it"),
    warning: z
      .string()
      .optional()
      .describe(
        "Set for an A2A agent when a review stage of the run can only be taken by an agent that also takes the stage it reviews (no agent reviews its own artifact, so those reviews would wait): which stage, which agent, what to add",
      ),
  })
  .meta({ id: "AgentCreated", examples: [examples.agentCreatedExample] });

/** A lease on a work item. */
export const lease = z
  .strictObject({ attempt: z.int().min(1), expires_at: timestamp })
  .meta({ id: "Lease", examples: [examples.leaseExample] });

/** One claimed work item and its lease. */
const claimedItem = z.strictObject({ work_item: workItem, lease });

/**
 * The answer to a claim: the (first) item claimed and its lease; with claim-next's `max_items`,
 * `claims` lists every item claimed, that first one included.
 */
export const claimView = claimedItem
  .extend({
    claims: z
      .array(claimedItem)
      .optional()
      .describe(
        "With `max_items`: every item claimed (at least one, at most `max_items`), oldest offer first; `work_item` and `lease` are its first",
      ),
  })
  .meta({ id: "Claim", examples: [examples.claimExample] });

/** `GET /v1/inbox/poll`. */
export const offersView = z
  .strictObject({ offers: z.array(workItem) })
  .meta({ id: "Offers", examples: [examples.offersExample] });

/** `POST /v1/work-items/{id}/heartbeat`. */
export const heartbeatBody = z
  .strictObject({ attempt })
  .meta({ id: "Heartbeat", examples: [examples.heartbeatExample] });

/** The answer to a heartbeat: the lease's new expiry. */
export const heartbeatView = z
  .strictObject({ expires_at: timestamp })
  .meta({ id: "LeaseExtended", examples: [examples.leaseExtendedExample] });

const feedback = reviewFeedbackSchema.shape;

/** The content of a task item's artifact. */
export const artifactInput = z
  .strictObject({
    media_type: z.string().min(1).max(255).describe("e.g. text/markdown"),
    content: z.string(),
    title: z.string().max(1000).optional(),
  })
  .meta({ id: "ArtifactInput", examples: [examples.artifactInputExample] });

/** A review item's feedback: the review-feedback.v1 fields the reviewer writes. */
export const reviewInput = z
  .strictObject({
    verdict: feedback.verdict,
    summary: feedback.summary,
    criteria: feedback.criteria,
    target_artifact_id: text
      .optional()
      .describe("The reviewed artifact; when given, it must be the review context's"),
  })
  .meta({ id: "ReviewInput", examples: [examples.reviewInputExample] });

/** `POST /v1/work-items/{id}/complete`: `artifact` for a task item, `review` for a review item. */
export const completeBody = z
  .strictObject({
    attempt,
    artifact: artifactInput.optional(),
    review: reviewInput.optional(),
    context_sha256: z
      .optional(contextSha256Schema)
      .describe(
        "The receipt: the work item's context_sha256 the agent worked from. When it is not the item's current one, the completion still succeeds, with a warning and a context.stale event",
      ),
  })
  .meta({ id: "Complete", examples: examples.completeExamples });

/** The answer to a completion. */
export const completionView = z
  .strictObject({
    work_item_id: text,
    status: z.literal("completed"),
    artifact_id: text.optional(),
    event_id: text.describe("The id of the work_item.completed event"),
    warning: z
      .string()
      .optional()
      .describe(
        "Set when the quoted context_sha256 was not the item's current one (the stale-context warning), or when the artifact or review holds passages that pose as instructions or as a task-context format (which kinds, where; the text is stored as sent and a content.flagged event names them): one or more sentences joined by a space",
      ),
  })
  .meta({ id: "Completion", examples: [examples.completionExample] });

/** The most characters a failure's reason may have. */
export const maxReasonLength = 10_000;

/** `POST /v1/work-items/{id}/fail`. */
export const failBody = z
  .strictObject({ attempt, reason: z.string().max(maxReasonLength) })
  .meta({ id: "Fail", examples: [examples.failExample] });

/** The answer to a failure: back on offer, or dead-lettered after the last attempt. */
export const failureView = z
  .strictObject({
    work_item_id: text,
    status: z.enum(["offered", "dead_lettered"]),
    attempts_left: z.int().min(0),
    event_id: text.describe("The id of the work_item.failed event"),
  })
  .meta({ id: "Failure", examples: [examples.failureExample] });

/** One attempt of a work item. */
export const attemptRecord = z
  .strictObject({
    attempt: z.int().min(1),
    agent_tag: text,
    leased_at: timestamp,
    ended_at: timestamp.optional(),
    outcome: z.enum(["leased", "completed", "failed", "expired"]),
    reason: z.string().optional(),
  })
  .meta({ id: "Attempt", examples: [examples.attemptExample] });

/** A dead-lettered work item with its attempts. */
export const deadLetter = z
  .strictObject({
    work_item: workItem,
    dead_lettered_at: timestamp,
    attempts: z.array(attemptRecord),
  })
  .meta({ id: "DeadLetter", examples: [examples.deadLetterExample] });

/** `GET /v1/runs/{run_id}/dead-letters`. */
export const deadLettersView = z
  .strictObject({ dead_letters: z.array(deadLetter) })
  .meta({ id: "DeadLetters", examples: [examples.deadLettersExample] });

/** The answer to a requeue: the item, on offer again. */
export const requeueView = z
  .strictObject({ work_item: workItem })
  .meta({ id: "Requeued", examples: [examples.requeuedExample] });

/** A page of a run's events. */
export const eventPage = z
  .strictObject({
    events: z.array(collaborationEvent),
    next_after: z.int().min(0).describe("Pass as ?after= for the next page"),
  })
  .meta({ id: "EventPage", examples: [examples.eventPageExample] });

/** Every error body. */
export const errorBody = z
  .strictObject({
    error: z.string().describe("What happened and what to do"),
    code: z.string().describe("A stable code to branch on, e.g. LEASE_LOST"),
    issues: z
      .array(z.strictObject({ path: z.string().describe("JSON Pointer"), message: z.string() }))
      .optional(),
  })
  .meta({ id: "Error", examples: [examples.errorExample] });

/** `GET /healthz`. */
export const health = z
  .strictObject({ status: z.literal("ok") })
  .meta({ id: "Health", examples: [examples.healthExample] });

/** `GET /v1/schemas`. */
export const schemaList = z
  .strictObject({
    schemas: z.array(z.strictObject({ name: text, id: text, url: text })),
  })
  .meta({ id: "SchemaList", examples: [examples.schemaListExample] });

/** `POST /v1/validate/{name}`. */
export const validationView = z
  .strictObject({
    valid: z.boolean(),
    issues: z.array(z.strictObject({ path: z.string(), message: z.string() })),
  })
  .meta({ id: "ValidationResult", examples: [examples.validationResultExample] });

const waitSeconds = z.coerce
  .number()
  .int()
  .min(0)
  .max(30)
  .optional()
  .describe("Hold the request up to this many seconds until an offer appears (long poll)");

/** `GET /v1/inbox/poll`. */
export const pollQuery = z.strictObject({
  wait: waitSeconds,
  limit: z.coerce.number().int().min(1).max(50).optional().describe("Default 10"),
});

/** `POST /v1/inbox/claim-next`. */
export const claimNextQuery = z.strictObject({
  wait: waitSeconds,
  max_items: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .describe(
      "Claim up to this many items on offer at once (1–100), each with its own lease; the answer lists them in `claims`",
    ),
});

/** `GET /v1/runs/{run_id}/events`. */
export const eventsQuery = z.strictObject({
  after: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Only events with a larger seq (default 0: from the start)"),
  limit: z.coerce.number().int().min(1).max(1000).optional().describe("Default 100"),
  view: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A view link's token (instead of Authorization): what the run page's script streams with",
    ),
});

/** `POST /v1/runs/{run_id}/view-links`. */
export const createViewLinkBody = z
  .strictObject({
    ttl_seconds: z
      .int()
      .min(1)
      .max(86_400)
      .optional()
      .describe("How long the link works, in seconds (default 3600, at most 86400: one day)"),
    can_requeue: z
      .boolean()
      .optional()
      .describe("Whether the page shows Requeue buttons on dead letters that work (default false)"),
  })
  .meta({ id: "CreateViewLink", examples: [examples.createViewLinkExample] });

/** The answer to `POST /v1/runs/{run_id}/view-links`. */
export const viewLinkCreated = z
  .strictObject({
    url: z
      .string()
      .min(1)
      .describe("The run page's absolute address with the token: /runs/{run_id}?view=<token>"),
    expires_at: timestamp,
    can_requeue: z.boolean(),
  })
  .meta({ id: "ViewLink", examples: [examples.viewLinkExample] });

export type CreateRunInput = z.infer<typeof createRunBody>;
export type StageInput = z.infer<typeof stageInput>;
export type RunView = z.infer<typeof runView>;
export type StageView = z.infer<typeof stageView>;
export type ClaimView = z.infer<typeof claimView>;
export type HeartbeatView = z.infer<typeof heartbeatView>;
export type CompleteBody = z.infer<typeof completeBody>;
export type CompletionView = z.infer<typeof completionView>;
export type FailBody = z.infer<typeof failBody>;
export type FailureView = z.infer<typeof failureView>;
export type AttemptRecord = z.infer<typeof attemptRecord>;
export type DeadLetter = z.infer<typeof deadLetter>;
export type EventPage = z.infer<typeof eventPage>;
export type ErrorBody = z.infer<typeof errorBody>;
export type RunCreated = z.infer<typeof runCreated>;
export type AddAgentInput = z.infer<typeof addAgentBody>;
/** A credential for one of an A2A agent card's security schemes. */
export type A2aCredential = z.infer<typeof a2aCredential>;
/** How an A2A agent's card signature was checked. */
export type CardSignature = z.infer<typeof cardSignature>;
/** A key set pinned at an A2A agent's registration (`a2a.jwks`). */
export type JsonWebKeySet = NonNullable<NonNullable<AddAgentInput["a2a"]>["jwks"]>;
export type AgentCreated = z.infer<typeof agentCreated>;
export type OffersView = z.infer<typeof offersView>;
export type HeartbeatBody = z.infer<typeof heartbeatBody>;
export type DeadLettersView = z.infer<typeof deadLettersView>;
export type RequeueView = z.infer<typeof requeueView>;
export type CreateViewLinkInput = z.infer<typeof createViewLinkBody>;
export type ViewLinkCreated = z.infer<typeof viewLinkCreated>;
export type HealthView = z.infer<typeof health>;
export type SchemaList = z.infer<typeof schemaList>;
export type ValidationView = z.infer<typeof validationView>;
