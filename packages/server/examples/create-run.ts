// An admin script: creates a run with a task stage and a review stage, adds three agents and
// prints their tokens, which the service shows this once.
import { call } from "./client.ts";

const adminToken = process.env.TASK_CONTEXT_ADMIN_TOKEN ?? "change-me";

//#region createRun
interface Run {
  run_id: string;
  status: "active" | "blocked" | "completed";
}
interface Agent {
  agent_id: string;
  tag: string;
  token: string;
}

const run = await call<Run>(adminToken, "POST", "/v1/runs", {
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
  const agent = await call<Agent>(adminToken, "POST", `/v1/runs/${run.run_id}/agents`, { tag });
  console.log(`${agent.tag}\t${agent.token}`);
}
//#endregion
