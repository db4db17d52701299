// An admin script: creates a run with a task stage and a review stage, adds three agents and
// prints their tokens, which the service shows this once.
import { admin } from "./client.ts";

//#region createRun
const run = await admin.createRun({
  goal: "Publish an article about edge runtimes",
  constraints: ["At most 1200 words", "No vendor comparisons"],
  lease_ms: 120_000, // a claim holds an item 2 minutes without a heartbeat
  max_attempts: 3, // the third failed or expired attempt dead-letters an item
  stages: [
    {
      id: "draft",
      stage_description: "Write a draft of the article",
      expected_output: "Markdown, with a title",
      available_skills: ["web_search"],
      items: 2, // two drafts, by two writers
    },
    {
      id: "review",
      kind: "review",
      reviews: "draft", // one review item per draft, never offered to the draft's author
      review_criteria: ["logic", "readability"],
      stage_description: "Review a draft",
      expected_output: "A verdict and one comment per criterion",
      available_skills: [],
    },
  ],
});

for (const tag of ["writer-1", "writer-2", "critic-1"]) {
  const agent = await admin.addAgent(run.run_id, { tag });
  console.log(`${agent.tag}\t${agent.token}`);
}
//#endregion
