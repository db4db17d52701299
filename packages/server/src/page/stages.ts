import type { RunView } from "@task-context/contract";
import { type Markup, markup } from "./markup.ts";

const countNames = [
  ["offered", "offered"],
  ["leased", "leased"],
  ["completed", "completed"],
  ["dead_lettered", "dead-lettered"],
] as const;

/** The run's stages as a pipeline, in order: each with its kind, status and item counts. */
export function renderStages(run: RunView): Markup {
  const stages = run.stages.map(
    (stage) => markup`<li data-stage-id="${stage.id}" data-status="${stage.status}">
<h3>${stage.id}</h3>
<p class="meta">${stage.kind === "review" ? `review of ${stage.reviews ?? ""}` : "task"} · <span class="status">${stage.status}</span></p>
<p>${stage.stage_description}</p>
<ul class="counts" aria-label="Work items of stage ${stage.id}">${countNames.map(
      ([key, label]) =>
        markup`<li data-count="${key}"><strong>${stage.counts[key]}</strong> ${label}</li>`,
    )}</ul>
</li>`,
  );
  return markup`<ol aria-label="Stages" class="stages" data-region="stages">${stages}</ol>`;
}
