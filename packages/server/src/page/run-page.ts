import type { AgentView } from "@task-context/contract";
import type { CollaborationEvent } from "@task-context/protocols";
import type { RunOverview } from "../delivery/delivery-store.ts";
import { renderAgents } from "./agents.ts";
import { renderArtifacts } from "./artifacts.ts";
import { renderEvents } from "./events.ts";
import { type PageAccess, renderItems } from "./items.ts";
import { layout } from "./layout.ts";
import { type Markup, markup } from "./markup.ts";
import { pageScript } from "./script.ts";
import { renderStages } from "./stages.ts";

/** What the run page shows. */
export interface RunPageInput {
  overview: RunOverview;
  /** The run's last events, oldest first; `skippedEvents` earlier ones are left out. */
  events: readonly CollaborationEvent[];
  skippedEvents: number;
  access: PageAccess;
  nonce: string;
  /** The service's clock, for the lease countdowns as rendered. */
  nowMs: number;
  /** What may keep the run from finishing (a review stage only a self-reviewer could take). */
  warnings?: readonly string[];
  /** The run's agents as the agent list shows them: the A2A agents' status is shown. */
  agents?: readonly AgentView[];
}

/** The warnings, in a region of their own, or nothing when there are none. */
function renderWarnings(warnings: readonly string[]): Markup | string {
  if (warnings.length === 0) return "";
  return markup`<section aria-labelledby="warnings-heading" class="warnings" data-region="warnings">
<h2 id="warnings-heading">⚠ Warnings</h2>
<ul>${warnings.map((warning) => markup`<li>${warning}</li>`)}</ul>
</section>`;
}

/** What the page says after a run's status: why a blocked run waits, when and why it was canceled. */
function statusNote(run: RunOverview["run"]): Markup | string {
  if (run.status === "blocked") return " — a dead-lettered item waits for a requeue";
  if (run.status !== "canceled") return "";
  const why = run.cancel_reason === undefined ? "" : markup`: ${run.cancel_reason}`;
  return markup` at <time datetime="${run.canceled_at ?? ""}">${run.canceled_at ?? ""}</time>${why} — its work items are withdrawn`;
}

/**
 * The run page: goal, constraints and status; warnings (what may keep the run from finishing);
 * the stages; the A2A agents' status; the work items; the artifacts with their reviews; the events. Complete without
 * JavaScript; the script only keeps it live.
 */
export function renderRunPage({
  overview,
  events,
  skippedEvents,
  access,
  nonce,
  nowMs,
  warnings = [],
  agents = [],
}: RunPageInput): Markup {
  const { run } = overview;
  const ended = run.status === "completed" || run.status === "canceled";
  const main = markup`<header>
<p class="meta">Run <code>${run.run_id}</code> · created <time datetime="${run.created_at}">${run.created_at}</time></p>
<h1>${run.goal}</h1>
<p data-region="status">Status: <strong class="status" data-run-status="${run.status}">${run.status}</strong>${statusNote(run)}</p>
<p id="live-status" role="status" class="muted">${ended ? (run.status === "completed" ? "The run is completed." : "The run was canceled.") : "Reload the page for the latest state."}</p>
</header>
${renderWarnings(warnings)}
<section aria-labelledby="constraints-heading">
<h2 id="constraints-heading">Constraints</h2>
${run.constraints.length === 0 ? markup`<p class="muted">None.</p>` : markup`<ul>${run.constraints.map((constraint) => markup`<li>${constraint}</li>`)}</ul>`}
</section>
<section aria-labelledby="stages-heading">
<h2 id="stages-heading">Stages</h2>
${renderStages(run)}
</section>
${renderAgents(agents)}
<section aria-labelledby="items-heading">
<h2 id="items-heading">Work items</h2>
${renderItems(overview.work_items, access, nowMs)}
</section>
<section aria-labelledby="artifacts-heading">
<h2 id="artifacts-heading">Artifacts</h2>
${renderArtifacts(overview.artifacts, overview.reviews)}
</section>
<section aria-labelledby="events-heading">
<h2 id="events-heading">Events</h2>
${renderEvents(events, skippedEvents)}
</section>`;
  return layout({
    title: `Run: ${run.goal.slice(0, 80)}`,
    nonce,
    main,
    data: {
      "run-id": run.run_id,
      view: access.viewToken,
      after: String(events.at(-1)?.seq ?? 0),
      completed: String(ended),
    },
    script: pageScript(),
  });
}
