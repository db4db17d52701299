import { operations } from "@task-context/contract";
import { agentStatus } from "../a2a/agent-status.ts";
import { selfReviewWarnings } from "../a2a/self-review.ts";
import { httpRequest } from "../execution/http-request.ts";
import { defineHandler } from "../execution/operation-handler.ts";
import { newNonce } from "../page/layout.ts";
import { errorPage, pageAccess, sendPage } from "../page/page-answer.ts";
import { renderRunPage } from "../page/run-page.ts";

/** The most events the page renders; earlier ones are a JSON request away. */
const PAGE_EVENTS = 500;

/** `GET /runs/{run_id}`: the run page, for the admin or a view link's holder. */
export const runPage = defineHandler(operations.runPage, {
  handle: async ({ path }, context) => {
    const c = httpRequest(context, "runPage");
    const { service } = context;
    const { store } = service;
    const runId = path.run_id;
    const nonce = newNonce();
    try {
      const access = await pageAccess(c, service, runId, undefined);
      // Events first: the overview read after them is at least as new, and the script's
      // stream replays anything in between.
      const lastSeq = await store.lastSeq(runId);
      const skipped = Math.max(0, lastSeq - PAGE_EVENTS);
      const { events } = await store.events(runId, skipped, PAGE_EVENTS);
      const overview = await store.overview(runId);
      const warnings = selfReviewWarnings(overview.run.stages, await store.a2aAgents(runId));
      const agents = await agentStatus(store, runId);
      const page = renderRunPage({
        warnings,
        agents,
        overview,
        events,
        skippedEvents: skipped,
        access,
        nonce,
        nowMs: service.timing.clock(),
      });
      return sendPage(c, page, 200, nonce);
    } catch (failure) {
      return errorPage(c, failure, nonce);
    }
  },
});
