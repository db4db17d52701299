// A2A agents' cards read again on PostgreSQL: after an attempt's transport error, the card is read
// again before the next attempt, the changed endpoint is written over the agent's row (one UPDATE
// of the agents table, with the run's other writes) and the change is an event of the run; the
// next attempt goes to the card's new interface. A real agent (the official SDK's server) on
// loopback; the instance's clock never moves.
import { createServiceClient } from "@task-context/client";
import { afterEach, describe, expect, it } from "vitest";
import { startNodeServer } from "../../src/node.ts";
import { startA2aAgent } from "../a2a/a2a-agent.ts";
import { lumenRun } from "../a2a/harness.ts";
import { movingCard } from "../a2a/moving-card.ts";
import { registerMover } from "../a2a/register-mover.ts";
import { manualClock } from "../contract/harness.ts";
import { newDatabase, reason, title } from "./services.ts";

const adminToken = "postgres-a2a-cards-admin-token-0123456789";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(reason !== undefined)(title("A2A agents' cards on PostgreSQL"), () => {
  it("a card read again after a transport error is stored, with its event, and used", async () => {
    const database = await newDatabase();
    closers.push(() => database.drop());
    const skills = [{ id: "copywriting" }];
    const successor = await startA2aAgent({ name: "Successor", skills });
    closers.push(() => successor.close());
    const mover = await startA2aAgent({
      name: "Mover",
      skills,
      card: movingCard("http://127.0.0.1:9/", () => `${successor.url}/`),
    });
    closers.push(() => mover.close());
    const server = await startNodeServer({
      port: 0,
      databaseUrl: database.url,
      adminToken,
      a2aPollMs: 20,
      clock: manualClock().now,
      limits: { rateLimit: false },
    });
    closers.push(() => server.close());
    const admin = createServiceClient({ url: server.url, token: adminToken });
    const run = await admin.createRun(lumenRun({ max_attempts: 3 }));
    const listed = await registerMover(admin, run.run_id, mover.url, successor);
    expect(listed?.a2a?.card_check?.outcome).toBe("changed");
  });
});
