// The receipt of a work item's run context: what the delivery service puts in context_sha256.
import { renderRunContext, runContextSha256, type WorkItem } from "@task-context/protocols";

/** Stands in for a claim from the delivery service's inbox. */
async function claimWorkItem(): Promise<WorkItem> {
  return {
    kind: "task",
    id: "wi_01",
    run_id: "run_01",
    stage_id: "copy",
    goal: "Launch Lumen",
    constraints: ["Plain words"],
    stage_context: {
      stage_description: "Write the copy",
      expected_output: "Markdown",
      available_skills: [],
    },
    previous_artifacts: [],
    available_skills: [],
    attempt: 1,
    context_sha256: "01758c7e90d202252a401c16327a6a67b94cfe74bc4210cd0d55cb32f84faba3",
  };
}

//#region renderRunContext
renderRunContext({
  goal: "Launch Lumen",
  constraints: ["Plain words"],
  stage_context: {
    stage_description: "Write the copy",
    expected_output: "Markdown",
    available_skills: [],
  },
});
// '{"constraints":["Plain words"],"goal":"Launch Lumen","stage_context":{"available_skills":[],"expected_output":"Markdown","stage_description":"Write the copy"}}'
//#endregion

//#region runContextSha256
const item = await claimWorkItem(); // a work item from the delivery service
(await runContextSha256(item)) === item.context_sha256; // true
//#endregion
