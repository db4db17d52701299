import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";
import { describeClaim } from "../execution/work-item-span.ts";
import { waitFor } from "../http/wait.ts";

/**
 * `POST /v1/inbox/claim-next` (`claim_work_item` without an item): the oldest offer claimed (or
 * up to `max_items` of them, listed in `claims`), waiting for one up to `wait` s; nothing when
 * none came.
 */
export const claimNext = defineHandler(operations.claimNext, {
  handle: async ({ query }, { caller, service, signal }) => {
    const { runId, agent } = caller;
    const { store, timing } = service;
    return waitFor(store, runId, (query.wait ?? 0) * 1000, timing, signal, () =>
      store.claim(runId, agent, undefined, query.max_items),
    );
  },
  span: { name: "claim work_item", workItemId: () => undefined, describe: describeClaim },
});
