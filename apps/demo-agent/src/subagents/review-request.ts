/**
 * A review request in the shape the demo's reviewers send: the criteria as a list, the text under
 * review between `<artifact>` tags, and the JSON answer asked for.
 */
export function reviewRequest(options: {
  instruction: string;
  criteria: readonly string[];
  artifact: string;
  artifactId?: string;
}): string {
  const id = options.artifactId === undefined ? "" : ` id="${options.artifactId}"`;
  return [
    options.instruction,
    "Criteria:",
    ...options.criteria.map((criterion) => `- ${criterion}`),
    "",
    `<artifact${id}>`,
    options.artifact,
    "</artifact>",
    "",
    'Answer with a JSON object: {"verdict": "approve" | "request_changes" | "comment", "summary": string, "criteria": [{"criterion": string, "comment": string}]}, one entry per criterion.',
  ].join("\n");
}

/** A review as the demo's reviewers use it. */
export interface Review {
  verdict: "approve" | "request_changes" | "comment";
  summary: string;
  criteria: { criterion: string; comment: string }[];
}

/**
 * The review in a model's answer: its JSON object (inside a code fence or not), checked; or, when
 * the answer holds none, a `comment` verdict with the answer as the summary and every criterion
 * pointing to it — a real model may answer in prose.
 */
export function parseReview(answer: string, criteria: readonly string[]): Review {
  const json = /\{[\s\S]*\}/.exec(answer)?.[0];
  try {
    const parsed = JSON.parse(json ?? "") as Partial<Review>;
    const verdicts = ["approve", "request_changes", "comment"];
    if (typeof parsed.verdict === "string" && verdicts.includes(parsed.verdict)) {
      const comments = new Map(
        (Array.isArray(parsed.criteria) ? parsed.criteria : []).map((entry) => [
          entry?.criterion,
          String(entry?.comment ?? ""),
        ]),
      );
      return {
        verdict: parsed.verdict,
        summary: String(parsed.summary ?? ""),
        criteria: criteria.map((criterion) => ({
          criterion,
          comment: comments.get(criterion) || "(no comment)",
        })),
      };
    }
  } catch {
    // not JSON: below
  }
  return {
    verdict: "comment",
    summary: answer.trim() || "(empty answer)",
    criteria: criteria.map((criterion) => ({ criterion, comment: "See the summary." })),
  };
}
