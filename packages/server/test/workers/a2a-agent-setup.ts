// Global setup of the workerd suites (runs in Node): a real A2A agent (the official SDK's server)
// on loopback, for the run objects to dispatch to. Its URL reaches the tests by inject().
import type { TestProject } from "vitest/node";
import { startA2aAgent } from "../a2a/a2a-agent.ts";

declare module "vitest" {
  export interface ProvidedContext {
    a2aAgentUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const agent = await startA2aAgent({
    name: "Edge writer",
    skills: [{ id: "web_search" }, { id: "write_file" }, { id: "read_file" }],
    // A Durable Object's alarm polls tasks/get; the card may offer streaming all the same.
    streaming: true,
  });
  project.provide("a2aAgentUrl", agent.url);
  return () => agent.close();
}
