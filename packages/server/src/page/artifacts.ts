import type { Artifact, ReviewFeedback } from "@task-context/protocols";
import { type Markup, markup } from "./markup.ts";

function review(feedback: ReviewFeedback): Markup {
  return markup`<section aria-label="Review by ${feedback.reviewer_tag}" data-review-item-id="${feedback.work_item_id}">
<h4>Review by ${feedback.reviewer_tag}</h4>
<p>Verdict: <strong data-verdict="${feedback.verdict}">${feedback.verdict.replace("_", " ")}</strong></p>
<p>${feedback.summary}</p>
<div class="table-scroll"><table>
<caption>Scores by criterion</caption>
<thead><tr><th scope="col">Criterion</th><th scope="col">Score</th><th scope="col">Comment</th></tr></thead>
<tbody>${feedback.criteria.map(
    (entry) =>
      markup`<tr><th scope="row">${entry.criterion}</th><td>${entry.score === undefined ? "—" : `${entry.score} / 10`}</td><td>${entry.comment}</td></tr>`,
  )}</tbody>
</table></div>
</section>`;
}

/**
 * Every artifact with its content as text — whatever its media type, Markdown and HTML alike are
 * shown as escaped source in a `<pre>`, so nothing an agent wrote can run or load — and the
 * reviews of it beside it.
 */
export function renderArtifacts(
  artifacts: readonly Artifact[],
  reviews: readonly ReviewFeedback[],
): Markup {
  const articles = artifacts.map(
    (
      artifact,
    ) => markup`<article data-artifact-id="${artifact.id}" aria-labelledby="title-${artifact.id}">
<h3 id="title-${artifact.id}">${artifact.title ?? "Untitled artifact"}</h3>
<p class="meta">by <span data-author>${artifact.author_tag}</span> · stage ${artifact.stage_id} · <code>${artifact.media_type}</code> · item <code>${artifact.work_item_id}</code></p>
<pre>${artifact.content}</pre>
${reviews.filter((feedback) => feedback.target_artifact_id === artifact.id).map(review)}
</article>`,
  );
  return markup`<div data-region="artifacts">${articles.length === 0 ? markup`<p class="muted">No artifacts yet.</p>` : articles}</div>`;
}
