// A remote agent with plain fetch: claims the next work item (long poll), heartbeats while it
// works, completes with an Idempotency-Key (retried on network errors), fails what it cannot do.
import type { ReviewFeedback, WorkItem } from "@task-context/protocols/work-item";
import { call, ServiceError, sleep } from "./client.ts";

/** The agent's model calls; the signal aborts when the agent has lost the item. */
declare function writeDraft(item: WorkItem, signal: AbortSignal): Promise<string>;
declare function judge(
  item: WorkItem,
  artifact: string,
  signal: AbortSignal,
): Promise<Pick<ReviewFeedback, "verdict" | "summary" | "criteria">>;

const token = process.env.TASK_CONTEXT_AGENT_TOKEN ?? "";

//#region loop
interface Claim {
  work_item: WorkItem;
  lease: { attempt: number; expires_at: string };
}

for (;;) {
  // Held up to 30 s until something is on offer; undefined (204) when nothing came.
  const claim = await call<Claim | undefined>(token, "POST", "/v1/inbox/claim-next?wait=30");
  if (claim === undefined) continue;
  await work(claim).catch((error: unknown) => console.error(claim.work_item.id, error));
}
//#endregion

//#region work
async function work({ work_item: item, lease }: Claim): Promise<void> {
  const { attempt } = lease;
  const lost = new AbortController();
  // Renew the lease three times per lease_ms; LEASE_LOST or ALREADY_COMPLETED: stop working.
  const every = Math.max(1000, (Date.parse(lease.expires_at) - Date.now()) / 3);
  const heartbeat = setInterval(() => {
    call(token, "POST", `/v1/work-items/${item.id}/heartbeat`, { attempt }).catch(
      (error: unknown) => {
        if (error instanceof ServiceError && error.status === 409) lost.abort(error);
      },
    );
  }, every);
  try {
    if (item.kind === "task") {
      const content = await writeDraft(item, lost.signal);
      const artifact = { media_type: "text/markdown", content };
      await settle(item.id, "complete", { attempt, artifact });
    } else {
      // The reviewed artifact: the uri of its entry in previous_artifacts.
      const path = `/v1/runs/${item.run_id}/artifacts/${item.review_context.target_artifact_id}`;
      const { content } = await call<{ content: string }>(token, "GET", path);
      const review = await judge(item, content, lost.signal);
      await settle(item.id, "complete", { attempt, review });
    }
  } catch (error) {
    // 409: another attempt holds the item now, or it is done. Drop the work.
    if (lost.signal.aborted || (error instanceof ServiceError && error.status === 409)) return;
    const reason = error instanceof Error ? error.message : String(error);
    await settle(item.id, "fail", { attempt, reason }); // back on offer, or a dead letter
  } finally {
    clearInterval(heartbeat);
  }
}
//#endregion

//#region settle
/**
 * Completes or fails an item. One Idempotency-Key for every try: when the connection drops
 * before the answer arrives, the same key and body get the first answer again, not a 409.
 */
async function settle(id: string, action: "complete" | "fail", body: object): Promise<void> {
  const headers = { "Idempotency-Key": crypto.randomUUID() };
  for (let retry = 0; ; retry++) {
    try {
      await call(token, "POST", `/v1/work-items/${id}/${action}`, body, headers);
      return;
    } catch (error) {
      // The service answered (LEASE_LOST, INVALID_COMPLETION, …): sending again changes nothing.
      if (error instanceof ServiceError || retry === 5) throw error;
      await sleep(500 * 2 ** retry); // no answer: send the same request again
    }
  }
}
//#endregion
