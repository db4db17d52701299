// An A2A agent behind a bearer token: `startWorkItemAgent` with `bearerToken` answers every A2A
// request without `Authorization: Bearer <token>` with 401, and its card (served to anyone) asks
// for the token with an HTTP Bearer security scheme named "bearer". The delivery service sends the
// token once the agent is registered with it (`a2a.credentials`). It listens on
// http://127.0.0.1:41241 (PORT) with the token in AGENT_TOKEN until stopped.
//#region agent
import { startWorkItemAgent } from "@task-context/server/a2a-agent";

const token = process.env.AGENT_TOKEN;
if (token === undefined || token.length < 16) throw new Error("Set AGENT_TOKEN (16+ characters).");

const agent = await startWorkItemAgent({
  name: "Illustrator",
  skills: [{ id: "illustration", tags: ["illustration"] }],
  port: Number(process.env.PORT ?? 41241),
  bearerToken: token, // its card now asks for a bearer token; requests without it get 401
  async execute(task) {
    task.working();
    if (task.item.kind === "task") return `# ${task.item.stage_id}\n\nFor: ${task.item.goal}`;
    throw new Error("This agent takes no reviews.");
  },
});
console.log(`A2A agent "${agent.card.name}" on ${agent.url}, behind a bearer token`);
//#endregion
