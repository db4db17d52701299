// A review stage that only an agent reviewing its own work could take: no agent ever reviews
// its own artifact, so the review items of what that agent writes wait for another agent, and
// the run stalls. Said in the A2A registration's answer and on the run page.
import type { StageView } from "@task-context/contract";
import type { A2aAgent } from "../delivery/delivery-store.ts";

/**
 * A sentence per review stage not yet completed whose only A2A agent also takes the stage it
 * reviews: what that agent writes there can be reviewed only by another agent (a polling agent
 * may take any stage). Empty when there is none.
 */
export function selfReviewWarnings(
  stages: readonly Pick<StageView, "id" | "kind" | "reviews" | "status">[],
  agents: readonly Pick<A2aAgent, "tag" | "a2a">[],
): string[] {
  return stages.flatMap((stage) => {
    const reviewed = stage.reviews;
    if (stage.kind !== "review" || reviewed === undefined || stage.status === "completed") {
      return [];
    }
    const takers = agents.filter((agent) => agent.a2a.stages.includes(stage.id));
    const [only] = takers;
    if (takers.length !== 1 || only === undefined || !only.a2a.stages.includes(reviewed)) {
      return [];
    }
    return [
      `Stage "${stage.id}" reviews stage "${reviewed}", and the only A2A agent that takes it, "${only.tag}", takes stage "${reviewed}" too: an agent never reviews its own artifact, so the reviews of what "${only.tag}" writes wait for another agent. Add an A2A agent for stage "${stage.id}", or a polling agent.`,
    ];
  });
}
