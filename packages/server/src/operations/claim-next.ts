import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";
import { describeClaim } from "../execution/work-item-span.ts";

/**
 * `POST /v1/inbox/claim-next` (`claim_work_item` without an item): the oldest offer claimed (or
 * up to `max_items` of them, listed in `claims`), waiting for one up to `wait` s in the run's line
 * of claim-next callers (woken by the offer itself, one waiter per item); nothing when none came.
 * The store is asked again at least every `recheckMs`, the safety net for a wake-up that never
 * came.
 */
export const claimNext = defineHandler(operations.claimNext, {
  handle: async ({ query }, context) => {
    const { caller, service } = context;
    const { runId, agent } = caller;
    const { store, timing } = service;
    const deadline = timing.clock() + (query.wait ?? 0) * 1000;
    for (;;) {
      const remaining = Math.max(0, deadline - timing.clock());
      const timeoutMs = Math.min(remaining, timing.recheckMs);
      const claim = await store.claimNext(runId, agent, {
        timeoutMs,
        // Only a wait needs the signal, made when first asked for: none for `wait=0`.
        ...(timeoutMs > 0 ? { signal: context.signal } : {}),
        limit: query.max_items,
        recheckMs: timing.recheckMs,
      });
      if (claim !== undefined || remaining <= timeoutMs || context.signal.aborted) return claim;
    }
  },
  span: { name: "claim work_item", workItemId: () => undefined, describe: describeClaim },
});
