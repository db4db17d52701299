import { operations } from "@task-context/contract";
import { defineHandler } from "../execution/operation-handler.ts";
import { waitForOffers } from "../http/wait.ts";

/** `GET /v1/inbox/poll` (the `poll_inbox` tool): the offers, waiting for one up to `wait` s. */
export const pollInbox = defineHandler(operations.pollInbox, {
  handle: async ({ query }, { caller, service, signal }) => {
    const { runId, agent } = caller;
    const { store, timing } = service;
    const { wait = 0, limit = 10 } = query;
    const waitMs = wait * 1000;
    return { offers: await waitForOffers(store, runId, agent, { limit, waitMs }, timing, signal) };
  },
});
