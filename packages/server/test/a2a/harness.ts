// What the A2A tests share: a Node service on an in-memory database and A2A agents on loopback,
// each closed after its test (in reverse order), with anything else the test registers.
import { afterEach } from "vitest";
import { createServiceClient, type ServiceClient } from "../../src/client.ts";
import { type NodeServer, type NodeServerOptions, startNodeServer } from "../../src/node.ts";
import { type A2aAgentOptions, type RunningA2aAgent, startA2aAgent } from "./a2a-agent.ts";

/** The service and agent starters of a test file, with `adminToken` and `options` for the service. */
export function a2aHarness(adminToken: string, options: Partial<NodeServerOptions> = {}) {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  /** Closes `close` after the test. */
  const onClose = (close: () => Promise<void>) => closers.push(close);
  async function service(): Promise<{ server: NodeServer; admin: ServiceClient }> {
    const server = await startNodeServer({
      port: 0,
      database: ":memory:",
      adminToken,
      limits: { rateLimit: false },
      ...options,
    });
    onClose(() => server.close());
    return { server, admin: createServiceClient({ url: server.url, token: adminToken }) };
  }
  async function agent(agentOptions: A2aAgentOptions): Promise<RunningA2aAgent> {
    const started = await startA2aAgent(agentOptions);
    onClose(() => started.close());
    return started;
  }
  return { service, agent, onClose };
}
