import type { McpServer } from "@modelcontextprotocol/server";
import { fenceUntrustedText } from "@task-context/core";
import type { Artifact } from "@task-context/protocols";
import * as z from "zod";
import {
  artifact,
  claimNextQuery,
  claimView,
  completeBody,
  completionView,
  failBody,
  failureView,
  heartbeatBody,
  heartbeatView,
  offersView,
  pollQuery,
} from "../contract/schemas.ts";
import { referenceTitle } from "../delivery/content-findings.ts";
import type { AgentIdentity, DeliveryStore, IdempotencyKey } from "../delivery/delivery-store.ts";
import { idempotencyKeyOf, idempotencyKeyPattern } from "../http/idempotency.ts";
import { type WaitTiming, waitFor } from "../http/wait.ts";
import { type ContractTool, registerContractTool } from "./contract-tool.ts";

/** What one MCP request acts for: the agent its token names, in its run. */
export interface AgentSession {
  store: DeliveryStore;
  runId: string;
  agent: AgentIdentity;
  timing: WaitTiming;
  /** Aborts when the client goes away or the server stops: a long poll answers at once. */
  signal: AbortSignal;
  onUnexpectedError?: (error: unknown) => void;
}

const workItemId = z.string().min(1).describe("The work item's id, as the offer or claim gave it");
const idempotencyKey = z
  .string()
  .regex(idempotencyKeyPattern, "1 to 255 visible ASCII characters")
  .optional()
  .describe(
    "As the Idempotency-Key header: the same key with the same arguments answers the first answer again; with other arguments, IDEMPOTENCY_KEY_REUSED.",
  );

const claimInput = claimNextQuery.extend({
  work_item_id: workItemId
    .optional()
    .describe("Claim this item; without it, the oldest item on offer to this agent (claim-next)"),
});

/**
 * The idempotency key of a call that gave `idempotency_key`, hashed as the HTTP route hashes its
 * header (`body`: the contract's body, keys in schema order), so both mean the same.
 */
function keyOf(
  key: string | undefined,
  operation: "complete" | "fail",
  workItemId: string,
  body: object,
): Promise<IdempotencyKey | undefined> {
  return key === undefined
    ? Promise.resolve(undefined)
    : idempotencyKeyOf(key, operation, workItemId, body);
}

/** `claim_work_item`'s answer: the claim, or nothing (both fields absent) when nothing is on offer. */
const claimOutput = claimView.partial();

/**
 * The agent's side of the HTTP contract as MCP tools, each the same `DeliveryStore` operation as
 * its route: `poll_inbox` (`GET /v1/inbox/poll`), `claim_work_item` (`POST
 * /v1/work-items/{id}/claim`, or `POST /v1/inbox/claim-next` without `work_item_id`),
 * `heartbeat`, `complete_work_item`, `fail_work_item` and `get_artifact`.
 */
export function registerAgentTools(server: McpServer, session: AgentSession): void {
  const { store, runId, agent, timing, signal, onUnexpectedError } = session;
  const register = <Input extends z.ZodType>(tool: ContractTool<Input>) =>
    registerContractTool(server, tool, onUnexpectedError);

  register({
    name: "poll_inbox",
    title: "Poll the inbox",
    description:
      "Work items this agent may claim now, oldest first. With `wait` (seconds, at most 30), waits until an offer appears (long poll). Review items are never offered to the reviewed artifact's author.",
    input: pollQuery,
    output: offersView,
    readOnly: true,
    act: async ({ wait = 0, limit = 10 }) => {
      const offers = await waitFor(store, runId, wait * 1000, timing, signal, async () => {
        const found = await store.offers(runId, agent, limit);
        return found.length > 0 ? found : undefined;
      });
      return { offers: offers ?? [] };
    },
  });

  register({
    name: "claim_work_item",
    title: "Claim a work item",
    description:
      "Claims the item `work_item_id`, or without it the oldest item on offer (waiting up to `wait` seconds): a new attempt with a lease. Heartbeat before `lease.expires_at`; complete or fail with `lease.attempt`. Answers no fields when nothing is on offer.",
    input: claimInput,
    output: claimOutput,
    readOnly: false,
    act: async ({ work_item_id, wait = 0 }) => {
      if (work_item_id !== undefined) return (await store.claim(runId, agent, work_item_id)) ?? {};
      const claim = await waitFor(store, runId, wait * 1000, timing, signal, () =>
        store.claim(runId, agent, undefined),
      );
      return claim ?? {};
    },
  });

  register({
    name: "heartbeat",
    title: "Extend the lease",
    description:
      "Extends the lease of the current attempt by the run's lease_ms. Another attempt gets LEASE_LOST: stop working on the item.",
    input: heartbeatBody.extend({ work_item_id: workItemId }),
    output: heartbeatView,
    readOnly: false,
    act: ({ work_item_id, attempt }) => store.heartbeat(runId, agent, work_item_id, attempt),
  });

  register({
    name: "complete_work_item",
    title: "Complete a work item",
    description:
      "Completes the current attempt: `artifact` for a task item, `review` (verdict, summary, the review stage's criteria) for a review item. Only the current attempt may complete (LEASE_LOST otherwise).",
    input: completeBody.extend({ work_item_id: workItemId, idempotency_key: idempotencyKey }),
    output: completionView,
    readOnly: false,
    act: async ({ work_item_id, idempotency_key, ...rest }) => {
      const body = completeBody.parse(rest);
      const key = await keyOf(idempotency_key, "complete", work_item_id, body);
      return store.complete(runId, agent, work_item_id, body, key);
    },
  });

  register({
    name: "fail_work_item",
    title: "Give up an attempt",
    description:
      "Gives up the current attempt with a reason: the item goes back on offer, or to the dead letters after the run's max_attempts.",
    input: failBody.extend({ work_item_id: workItemId, idempotency_key: idempotencyKey }),
    output: failureView,
    readOnly: false,
    act: async ({ work_item_id, idempotency_key, ...rest }) => {
      const body = failBody.parse(rest);
      return store.fail(
        runId,
        agent,
        work_item_id,
        body,
        await keyOf(idempotency_key, "fail", work_item_id, body),
      );
    },
  });

  register({
    name: "get_artifact",
    title: "Read an artifact",
    description:
      "An artifact of this run with its content: the `previous_artifacts` of a work item name them. The text gives its fields, then its content fenced as data (every line prefixed with │, passages that pose as instructions neutralised; `findings` and `warning` name them); `structuredContent` has it exactly as stored.",
    input: z.strictObject({ artifact_id: z.string().min(1).describe("The artifact's id") }),
    output: artifact,
    readOnly: true,
    act: ({ artifact_id }) => store.artifact(runId, artifact_id),
    text: (answer) => artifactTexts(answer as Artifact),
  });
}

/**
 * What a model reads of an artifact: its fields as JSON (the title neutralised, the content left
 * out), then its content fenced as data by core's `fenceUntrustedText` — every line prefixed,
 * passages that pose as instructions neutralised. `structuredContent` keeps it exactly as stored.
 */
export function artifactTexts(read: Artifact): string[] {
  const { content, ...fields } = read;
  const shown =
    fields.title === undefined ? fields : { ...fields, title: referenceTitle(fields.title) };
  const source = `artifact ${read.id} by ${read.author_tag}`;
  return [JSON.stringify(shown), fenceUntrustedText({ source, text: content }).text];
}
