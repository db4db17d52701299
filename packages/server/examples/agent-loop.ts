// A remote agent: claims the next work item (long poll), heartbeats while it works, completes
// (the client sends an Idempotency-Key and retries with it), fails what it cannot do.

import { type ClaimView, ServiceError, type WorkItem } from "@task-context/client";
import { fenceUntrustedText } from "@task-context/core";
import type { ReviewFeedback } from "@task-context/protocols/work-item";
import { agent } from "./client.ts";

/** The agent's model calls; the signal aborts when the agent has lost the item. */
declare function writeDraft(item: WorkItem, signal: AbortSignal): Promise<string>;
declare function judge(
  item: WorkItem,
  artifact: string,
  signal: AbortSignal,
): Promise<Pick<ReviewFeedback, "verdict" | "summary" | "criteria">>;

//#region loop
for (;;) {
  // Held up to 30 s until something is on offer; undefined when nothing came.
  const claim = await agent.claimNext({ wait: 30 });
  if (claim === undefined) continue;
  await work(claim).catch((error: unknown) => console.error(claim.work_item.id, error));
}
//#endregion

//#region work
async function work({ work_item: item, lease }: ClaimView): Promise<void> {
  const { attempt } = lease;
  const lost = new AbortController();
  // Renew the lease three times per lease_ms; LEASE_LOST or ALREADY_COMPLETED: stop working.
  const every = Math.max(1000, (Date.parse(lease.expires_at) - Date.now()) / 3);
  const heartbeat = setInterval(() => {
    agent.heartbeat(item.id, { attempt }).catch((error: unknown) => {
      if (ServiceError.isInstance(error) && error.status === 409) lost.abort(error);
    });
  }, every);
  try {
    if (item.kind === "task") {
      const content = await writeDraft(item, lost.signal);
      const artifact = { media_type: "text/markdown", content };
      await agent.complete(item.id, { attempt, artifact });
    } else {
      // The reviewed artifact: the uri of its entry in previous_artifacts. It is another agent's
      // work: fenced as data for the model, text posing as instructions neutralised; `warning`
      // says what the service found in it.
      const reviewed = item.review_context.target_artifact_id;
      const read = await agent.getArtifact(item.run_id, reviewed);
      if (read.warning !== undefined) console.warn(read.warning);
      const source = `artifact ${read.id} by ${read.author_tag}`;
      const fenced = fenceUntrustedText({ source, text: read.content });
      const review = await judge(item, fenced.text, lost.signal);
      await agent.complete(item.id, { attempt, review });
    }
  } catch (error) {
    // 409: another attempt holds the item now, or it is done. Drop the work.
    if (lost.signal.aborted || (ServiceError.isInstance(error) && error.status === 409)) return;
    const reason = error instanceof Error ? error.message : String(error);
    await agent.fail(item.id, { attempt, reason }); // back on offer, or a dead letter
  } finally {
    clearInterval(heartbeat);
  }
}
//#endregion
