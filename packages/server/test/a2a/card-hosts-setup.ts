// Global setup of the Node suites: the agent cards every runtime must refuse (card-hosts.ts), for
// the contract suite's A2A cases (test/contract/a2a.contract.ts).
import type { TestProject } from "vitest/node";
import { startCardHosts } from "./card-hosts.ts";

export default async function setup(project: TestProject) {
  const hosts = await startCardHosts();
  project.provide("a2aCardHosts", hosts.urls);
  return () => hosts.close();
}
