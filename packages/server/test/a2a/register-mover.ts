// What the service does, on any store, with an agent whose card moves after its first attempt
// failed (moving-card.ts): registered, then checked from the run's events and agent list.
import type { AgentView, ServiceClient } from "@task-context/client";
import { expect } from "vitest";
import { events, ofType, settled } from "./harness.ts";

/**
 * Registers the agent at `moverUrl` (its card first naming an interface where nothing listens,
 * then the successor's) for the run and checks what follows: attempt 1 fails unreachable, the
 * card is read again, `agent.card_changed` says the interface moved, attempt 2 goes to the
 * successor and completes the run. Answers the agent as the agent list shows it then.
 */
export async function registerMover(
  admin: ServiceClient,
  runId: string,
  moverUrl: string,
  successor: { url: string; tasks: { attempt: number }[] },
): Promise<AgentView | undefined> {
  await admin.addAgent(runId, { tag: "mover", a2a: { url: moverUrl } });
  expect((await settled(admin, runId)).status).toBe("completed");
  expect(successor.tasks.map((task) => task.attempt)).toEqual([2]);
  const [changed] = ofType(await events(admin, runId), "agent.card_changed");
  expect(changed?.changes).toEqual([
    { field: "interface_url", before: "http://127.0.0.1:9/", after: `${successor.url}/` },
  ]);
  const [listed] = (await admin.listAgents(runId)).agents;
  expect(listed?.a2a?.interface_url).toBe(`${successor.url}/`);
  return listed;
}
