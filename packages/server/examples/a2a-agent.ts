// An A2A 1.0 agent the delivery service sends work items to, served with the official SDK
// (`@a2a-js/sdk`, on express) by `startWorkItemAgent` of `@task-context/server/a2a-agent`. Its card
// declares one skill, "illustration"; it completes each task with one artifact: Markdown for a
// task item, a data part { verdict, summary, criteria } for a review item. It listens on
// http://127.0.0.1:41241 (PORT; 0 picks a free port) until stopped; register it with
// POST /v1/runs/{run_id}/agents.
//#region agent
import { dataPart, startWorkItemAgent } from "@task-context/server/a2a-agent";

const agent = await startWorkItemAgent({
  name: "Illustrator",
  description: "Draws the illustrations a stage asks for",
  // The service gives the agent the stages whose available_skills its skills' ids or tags cover.
  skills: [{ id: "illustration", tags: ["illustration", "image_generation"] }],
  port: Number(process.env.PORT ?? 41241),
  async execute(task) {
    // task.item is the work item (work-item.v1), task.text its context rendered for a model.
    console.log(
      `${task.item.kind} ${task.item.id}, attempt ${task.attempt}, stage ${task.item.stage_id}`,
    );
    task.working(); // the service renews the item's lease at each working update
    if (task.item.kind === "task") {
      return `# ${task.item.stage_id}\n\nAn illustration of: ${task.item.goal}`; // Markdown
    }
    // A review: a data part { verdict, summary, criteria }, one entry per criterion.
    const criteria = task.item.review_context.review_criteria.map((criterion) => ({
      criterion,
      score: 8,
      comment: `${criterion}: fine`,
    }));
    return [dataPart({ verdict: "approve", summary: "Fits the brief", criteria })];
  },
});
console.log(`A2A agent "${agent.card.name}" on ${agent.url}`);
//#endregion
