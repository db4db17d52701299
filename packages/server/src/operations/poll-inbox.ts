import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";
import { waitFor } from "../http/wait.ts";

/** `GET /v1/inbox/poll` (the `poll_inbox` tool): the offers, waiting for one up to `wait` s. */
export const pollInbox = defineHandler(operations.pollInbox, {
  handle: async ({ query }, { caller, service, signal }) => {
    const { runId, agent } = caller;
    const { store, timing } = service;
    const { wait = 0, limit = 10 } = query;
    const offers = await waitFor(store, runId, wait * 1000, timing, signal, async () => {
      const found = await store.offers(runId, agent, limit);
      return found.length > 0 ? found : undefined;
    });
    return { offers: offers ?? [] };
  },
});
