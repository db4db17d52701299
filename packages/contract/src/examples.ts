// Examples of the contract's bodies, shown in the OpenAPI document beside each schema: one run
// with a draft stage and a review stage, as the service answers it. The lint of the document
// checks each against its JSON Schema, a test against its zod schema.

const runId = "run_qy78f9c66491mvp55vcr65r66m";
const draftItemId = "wi_ffnxz1cg6f1qz0jh5rzj9twwqt";
const reviewItemId = "wi_k33683fe0010vazf9amv7aw60q";
const artifactId = "art_r04nrkd4cy0qpbhxyh41w9z3z3";
const at = "2026-11-20T10:00:00.000Z";
const expiresAt = "2026-11-20T10:01:00.000Z";
const goal = "Publish an article about edge runtimes";
const constraints = ["At most 1200 words"];

const draftStage = {
  id: "draft",
  stage_description: "Write the draft",
  expected_output: "Markdown",
  available_skills: ["web_search"],
  background: "Readers are backend developers.",
};
const reviewStage = {
  id: "review",
  kind: "review",
  reviews: "draft",
  review_criteria: ["logic", "readability"],
  stage_description: "Review the draft",
  expected_output: "A verdict with a comment per criterion",
  available_skills: [],
};

export const stageInputExample = reviewStage;

export const createRunExample = { goal, constraints, stages: [draftStage, reviewStage] };

const counts = (offered: number, completed: number) => ({
  total: offered + completed,
  offered,
  leased: 0,
  completed,
  dead_lettered: 0,
});

export const stageExample = {
  ...draftStage,
  kind: "task",
  items: 1,
  status: "active",
  counts: counts(1, 0),
};

export const runExample = {
  run_id: runId,
  status: "active",
  goal,
  constraints,
  lease_ms: 60000,
  max_attempts: 5,
  created_at: at,
  stages: [stageExample, { ...reviewStage, status: "pending", counts: counts(0, 0) }],
};

export const addAgentExample = { tag: "writer-1" };

export const addA2aAgentExample = {
  tag: "illustrator",
  a2a: { url: "https://illustrator.example.com/a2a", stages: ["draft"] },
};

export const agentCreatedExample = {
  agent_id: "agt_wbpeqege0kxj7carerwws74cqy",
  tag: "writer-1",
  token: `tc_${runId}_agt_wbpeqege0kxj7carerwws74cqy_W26UNyR2gszQMygLvUDcQ5SWkCIyPejezQ9k-UEhnOA`,
};

const artifactReference = {
  artifact_id: artifactId,
  stage_id: "draft",
  author_tag: "writer-1",
  title: "Draft article",
  media_type: "text/markdown",
  uri: `/v1/runs/${runId}/artifacts/${artifactId}`,
};

/** A review item: it carries the draft stage's artifact and what to judge it by. */
export const workItemExample = {
  kind: "review",
  id: reviewItemId,
  run_id: runId,
  stage_id: "review",
  goal,
  constraints,
  stage_context: {
    stage_description: reviewStage.stage_description,
    expected_output: reviewStage.expected_output,
    available_skills: [],
  },
  previous_artifacts: [artifactReference],
  available_skills: [],
  attempt: 1,
  review_context: {
    target_artifact_id: artifactId,
    target_author_tag: "writer-1",
    review_criteria: reviewStage.review_criteria,
  },
  // runContextSha256 of its goal, constraints and stage_context.
  context_sha256: "a584c2c942c1d1899ebc7a2ce9af4886d7fd5263ffc94336aba1f71c0866b03f",
};

export const offersExample = { offers: [workItemExample] };

export const leaseExample = { attempt: 1, expires_at: expiresAt };

export const claimExample = { work_item: workItemExample, lease: leaseExample };

export const heartbeatExample = { attempt: 1 };

export const leaseExtendedExample = { expires_at: expiresAt };

export const artifactInputExample = {
  media_type: "text/markdown",
  content: "# Edge runtimes\n\nCode that runs close to its users…",
  title: "Draft article",
};

export const reviewInputExample = {
  verdict: "request_changes",
  summary: "Strong opening; section 2 skips a step.",
  criteria: [
    { criterion: "logic", score: 6, comment: "Section 2 jumps from cold starts to pricing." },
    { criterion: "readability", score: 8, comment: "Short paragraphs, clear headings." },
  ],
};

export const completeExamples = [
  { attempt: 1, artifact: artifactInputExample },
  { attempt: 1, review: reviewInputExample },
  {
    attempt: 1,
    artifact: artifactInputExample,
    // The draft item's context_sha256, quoted back: the receipt of what the agent worked from.
    context_sha256: "c3c8942de3fb3f52879df2b71c364edebd3769b5acd920a7e578dc5baf322232",
  },
];

export const completionExample = {
  work_item_id: draftItemId,
  status: "completed",
  artifact_id: artifactId,
  event_id: "evt_bzj0rgy99r9jr3jadyd9qqn4h2",
};

export const failExample = { attempt: 1, reason: "The draft did not load" };

export const failureExample = {
  work_item_id: reviewItemId,
  status: "offered",
  attempts_left: 4,
  event_id: "evt_kqqse10znb4vsz31enqwta7hr6",
};

export const attemptExample = {
  attempt: 1,
  agent_tag: "reviewer-1",
  leased_at: at,
  ended_at: at,
  outcome: "failed",
  reason: "The draft did not load",
};

export const deadLetterExample = {
  work_item: workItemExample,
  dead_lettered_at: at,
  attempts: [attemptExample],
};

export const deadLettersExample = { dead_letters: [deadLetterExample] };

export const requeuedExample = { work_item: { ...workItemExample, attempt: 2 } };

export const artifactExample = {
  id: artifactId,
  run_id: runId,
  stage_id: "draft",
  work_item_id: draftItemId,
  author_tag: "writer-1",
  title: "Draft article",
  media_type: "text/markdown",
  content: artifactInputExample.content,
  created_at: at,
};

export const collaborationEventExample = {
  type: "review.feedback",
  id: "evt_5k0n8r2v4x6z8b0d2f4h6j8m0p",
  seq: 15,
  run_id: runId,
  at,
  artifact_id: artifactId,
  feedback: {
    work_item_id: reviewItemId,
    target_artifact_id: artifactId,
    reviewer_tag: "reviewer-1",
    ...reviewInputExample,
  },
};

export const eventPageExample = {
  events: [
    {
      type: "run.created",
      id: "evt_88vw3y1bn3abe03yb8cthememm",
      seq: 1,
      run_id: runId,
      at,
      goal,
      stage_ids: ["draft", "review"],
    },
    {
      type: "work_item.offered",
      id: "evt_54z53f6xeaakysaz296sw0p8f3",
      seq: 2,
      run_id: runId,
      at,
      work_item_id: draftItemId,
      stage_id: "draft",
      kind: "task",
      attempt: 1,
    },
  ],
  next_after: 2,
};

export const errorExample = {
  error: "The request body does not match the contract. Fix the issues listed.",
  code: "INVALID_REQUEST",
  issues: [{ path: "/lease_ms", message: "lease_ms must be at least 100, not the number 50." }],
};

export const healthExample = { status: "ok" };

export const schemaListExample = {
  schemas: [
    {
      name: "work-item.v1",
      id: "urn:task-context:schema:work-item.v1",
      url: "/v1/schemas/work-item.v1",
    },
  ],
};

export const validationResultExample = {
  valid: false,
  issues: [{ path: "/stage_id", message: "stage_id is required: a non-empty string." }],
};

export const createViewLinkExample = { ttl_seconds: 3600, can_requeue: true };

export const viewLinkExample = {
  url: `https://delivery.example/runs/${runId}?view=v1.${runId}.1795172400.rq.q1Yk3mP0cF4x7aB2dE9gH5jK8lN1oQ3rS6tU0vW2xY4`,
  expires_at: "2026-11-20T11:00:00.000Z",
  can_requeue: true,
};
