// An A2A agent behind a bearer token, in a process of its own (the official SDK's server, through
// the server package's public `startWorkItemAgent`): it writes each draft it is given, prints its
// URL on stdout, and runs until SIGTERM: in a process of its own, as an agent a team deploys.
import { startWorkItemAgent } from "../../server/src/a2a/start-work-item-agent.ts";

const agent = await startWorkItemAgent({
  name: "Illustrator",
  skills: [{ id: "write" }],
  bearerToken: process.env.A2A_BEARER_TOKEN ?? "",
  execute: (task) => `# ${task.item.stage_id}\n\nFor: ${task.item.goal}`,
});
console.log(agent.url);
process.once("SIGTERM", () => {
  agent.close().then(() => process.exit(0));
});
