// The service as an A2A agent on PostgreSQL, two instances on one database: the task a message
// created through one is the same task when the message is sent again through the other (its id
// is named by the message, nothing is looked up), and a stream opened on one follows the run as
// an agent completes it through the other.
import { TaskState } from "@a2a-js/sdk";
import { createServiceClient } from "@task-context/client";
import { afterEach, describe, expect, it } from "vitest";
import { startNodeServer } from "../../src/node.ts";
import { draftStage } from "../a2a/harness.ts";
import { manualClock } from "../contract/harness.ts";
import { newDatabase, reason, title } from "../postgres/services.ts";
import { a2aClientOf, completeAsWriter, send, stagedTask } from "./a2a-client.ts";

const adminToken = "postgres-a2a-server-admin-token-0123456789";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(reason !== undefined)(title("the service as an A2A agent on PostgreSQL"), () => {
  it("answers the same task through either instance, and streams through one what happens through the other", async () => {
    const database = await newDatabase();
    closers.push(() => database.drop());
    const [one, two] = await Promise.all(
      [0, 1].map(async () => {
        const server = await startNodeServer({
          port: 0,
          databaseUrl: database.url,
          adminToken,
          clock: manualClock().now,
          limits: { rateLimit: false },
        });
        closers.push(() => server.close());
        return server;
      }),
    );
    if (one === undefined || two === undefined) throw new Error("no instances");
    const clientOne = await a2aClientOf(one.url, adminToken);
    const clientTwo = await a2aClientOf(two.url, adminToken);
    const task = await send(clientOne, stagedTask("pg-1", [draftStage]));
    expect((await send(clientTwo, stagedTask("pg-1", [draftStage]))).id).toBe(task.id);
    const admin = createServiceClient({ url: two.url, token: adminToken });
    expect((await admin.listRuns()).runs.map((run) => run.run_id)).toEqual([task.id]);

    const stream = clientTwo.resubscribeTask({ tenant: "", id: task.id });
    expect((await stream.next()).value?.payload?.$case).toBe("task");
    await completeAsWriter(
      one.url,
      createServiceClient({ url: one.url, token: adminToken }),
      task.id,
    );
    const cases: string[] = [];
    for await (const event of stream) cases.push(String(event.payload?.$case));
    expect(cases).toEqual(["statusUpdate", "artifactUpdate", "statusUpdate", "statusUpdate"]);
    expect((await clientOne.getTask({ tenant: "", id: task.id })).status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
  });
});
