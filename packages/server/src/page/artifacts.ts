import { neutralisePosingText } from "@task-context/core";
import type { Artifact, ReviewFeedback } from "@task-context/protocols";
import { contentWarning, reviewFindings, reviewSubject } from "../delivery/content-findings.ts";
import { type Markup, markup } from "./markup.ts";

/** Text as the page shows earlier work: passages that pose as instructions made inert, visibly. */
const shown = (text: string) => neutralisePosingText(text).text;

/**
 * The note on flagged text: an icon and words (not colour alone), the warning that names each
 * passage, and that the page shows them made visible.
 */
function flaggedNote(warning: string): Markup {
  return markup`<p class="flagged" role="note" data-flagged-note><span aria-hidden="true">⚠</span> <strong>Flagged:</strong> ${warning} Shown here with those passages made visible (‹ › ⟦ ⟧, [U+XXXX]); GET returns the text exactly as sent.</p>`;
}

function review(feedback: ReviewFeedback): Markup {
  const findings = reviewFindings(feedback);
  const flagged = findings.length > 0;
  return markup`<section aria-label="Review by ${feedback.reviewer_tag}" data-review-item-id="${feedback.work_item_id}"${flagged ? markup` data-flagged` : ""}>
<h4>Review by ${feedback.reviewer_tag}</h4>
${flagged ? flaggedNote(contentWarning(reviewSubject(feedback.work_item_id), findings)) : ""}
<p>Verdict: <strong data-verdict="${feedback.verdict}">${feedback.verdict.replace("_", " ")}</strong></p>
<p>${shown(feedback.summary)}</p>
<div class="table-scroll"><table>
<caption>Scores by criterion</caption>
<thead><tr><th scope="col">Criterion</th><th scope="col">Score</th><th scope="col">Comment</th></tr></thead>
<tbody>${feedback.criteria.map(
    (entry) =>
      markup`<tr><th scope="row">${entry.criterion}</th><td>${entry.score === undefined ? "—" : `${entry.score} / 10`}</td><td>${shown(entry.comment)}</td></tr>`,
  )}</tbody>
</table></div>
</section>`;
}

/**
 * Every artifact with its content as text — whatever its media type, Markdown and HTML alike are
 * shown as escaped source in a `<pre>`, so nothing an agent wrote can run or load — and the
 * reviews of it beside it. Passages that pose as instructions (the artifact's `findings`) are
 * shown made inert and visible, under a note that names them.
 */
export function renderArtifacts(
  artifacts: readonly Artifact[],
  reviews: readonly ReviewFeedback[],
): Markup {
  const articles = artifacts.map(
    (
      artifact,
    ) => markup`<article data-artifact-id="${artifact.id}" aria-labelledby="title-${artifact.id}"${artifact.findings === undefined ? "" : markup` data-flagged`}>
<h3 id="title-${artifact.id}">${artifact.title === undefined ? "Untitled artifact" : shown(artifact.title)}</h3>
<p class="meta">by <span data-author>${artifact.author_tag}</span> · stage ${artifact.stage_id} · <code>${artifact.media_type}</code> · item <code>${artifact.work_item_id}</code></p>
${artifact.warning === undefined ? "" : flaggedNote(artifact.warning)}
<pre>${shown(artifact.content)}</pre>
${reviews.filter((feedback) => feedback.target_artifact_id === artifact.id).map(review)}
</article>`,
  );
  return markup`<div data-region="artifacts">${articles.length === 0 ? markup`<p class="muted">No artifacts yet.</p>` : articles}</div>`;
}
