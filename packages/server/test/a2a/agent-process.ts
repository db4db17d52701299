// An A2A agent in a process of its own (the separate-process test starts it): the official SDK's
// server doing the stage's work, its URL printed on stdout, until SIGTERM.
import { startA2aAgent } from "./a2a-agent.ts";

const skills = (process.env.A2A_SKILLS ?? "copywriting").split(",").map((id) => ({ id }));
const agent = await startA2aAgent({
  name: process.env.A2A_NAME ?? "Process agent",
  skills,
  streaming: process.env.A2A_STREAMING !== "false",
});
console.log(agent.url);
process.once("SIGTERM", () => {
  agent.close().then(() => process.exit(0));
});
