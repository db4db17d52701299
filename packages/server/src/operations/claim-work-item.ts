import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";
import { describeClaim } from "../execution/work-item-span.ts";

/** `POST /v1/work-items/{id}/claim` (`claim_work_item` with an item): a new attempt on it. */
export const claimWorkItem = defineHandler(operations.claimWorkItem, {
  handle: async ({ path }, { caller, service }) => {
    const claimed = await service.store.claim(caller.runId, caller.agent, path.id);
    if (claimed === undefined) {
      throw new Error(`The store claimed nothing for work item ${path.id}, nor refused it.`);
    }
    return claimed;
  },
  span: { name: "claim work_item", workItemId: ({ path }) => path.id, describe: describeClaim },
});
