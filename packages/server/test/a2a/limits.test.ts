// What an A2A agent sends is held to the limits of the HTTP entry, and refused as it would be
// there, with a reason naming the limit: a result over the 1 MiB body limit (PAYLOAD_TOO_LARGE),
// text that is not well-formed Unicode, a failure's words over 10 000 characters; an answer is
// not even read past 4 MiB. A store error while the result is stored fails the attempt with its
// reason instead of escaping. Nothing is stored or served from a refused result.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { TaskState } from "@a2a-js/sdk";
import type { ServiceClient } from "@task-context/client";
import { describe, expect, it } from "vitest";
import { textPart } from "./a2a-agent.ts";
import { a2aHarness, events, lumenRun, ofType, settled } from "./harness.ts";
import { taskJson } from "./hostile-agent.ts";

const adminToken = "a2a-limits-admin-token-0123456789";
const { service, agent, hostile, onClose } = a2aHarness(adminToken, { a2aPollMs: 20 });

const oneItem = lumenRun({ max_attempts: 1 });

/** The reason of the run's one failed attempt, once the run is blocked by its dead letter. */
async function onlyReason(admin: ServiceClient, runId: string): Promise<string | undefined> {
  expect((await settled(admin, runId)).status).toBe("blocked");
  const all = await events(admin, runId);
  expect(ofType(all, "artifact.created")).toEqual([]);
  const failed = ofType(all, "work_item.failed");
  expect(failed).toHaveLength(1);
  return failed[0]?.reason;
}

describe("an A2A agent's result", () => {
  it("over the 1 MiB body limit fails its attempt with PAYLOAD_TOO_LARGE, the limit and code of a completion over HTTP", async () => {
    const { admin } = await service();
    const content = "x".repeat(1.2 * 1024 * 1024);
    const bulky = await agent({
      name: "Bulky",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => task.complete([textPart(content, "text/plain")]),
    });
    const run = await admin.createRun(oneItem);
    await admin.addAgent(run.run_id, { tag: "bulky", a2a: { url: bulky.url } });
    const reason = await onlyReason(admin, run.run_id);
    const [task] = bulky.tasks;
    const completion = {
      attempt: 1,
      context_sha256: task?.item.context_sha256,
      artifact: { media_type: "text/plain", content, title: "draft result" },
    };
    const bytes = Buffer.byteLength(JSON.stringify(completion));
    expect(reason).toBe(
      `The A2A task's result is ${bytes} bytes as a completion, over the service's limit of 1048576 bytes for one (PAYLOAD_TOO_LARGE, as for a completion sent over HTTP). Have the agent send less: store large content elsewhere and reference it.`,
    );
  });

  it.each([
    ["a stream event of 4 MiB", true],
    ["an answer to GetTask of 4 MiB", false],
  ])("is not read past 4 MiB: %s fails its attempt, saying so", async (_name, streaming) => {
    const { admin } = await service();
    // Just over the limit once framed as an answer (the limit counts the JSON around it too).
    const content = "x".repeat(4 * 1024 * 1024);
    const huge = streaming
      ? (
          await agent({
            name: "Huge",
            skills: [{ id: "copywriting" }],
            behaviour: async (task) => task.complete([textPart(content, "text/plain")]),
          })
        ).url
      : (
          await hostile({
            answer: ({ method }) => ({
              result:
                method === "SendMessage"
                  ? { task: taskJson("huge-1", "TASK_STATE_SUBMITTED") }
                  : taskJson("huge-1", "TASK_STATE_COMPLETED", [{ text: content }]),
            }),
          })
        ).url;
    const run = await admin.createRun(oneItem);
    await admin.addAgent(run.run_id, { tag: "huge", a2a: { url: huge } });
    expect(await onlyReason(admin, run.run_id)).toBe(
      `The A2A agent's answer to ${streaming ? "SendStreamingMessage" : "GetTask"} is larger than 4194304 bytes, the most the service reads of one answer or stream event (4 × its 1048576-byte request body limit, room for the task and its history): it stopped reading there. A result may be at most 1048576 bytes as a completion (PAYLOAD_TOO_LARGE, as over HTTP).`,
    );
  });

  it("with text that is not well-formed Unicode fails its attempt, as HTTP refuses it (INVALID_REQUEST)", async () => {
    const { admin } = await service();
    const broken = await agent({
      name: "Broken",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => task.complete([textPart("ok\uD800ok", "text/plain")]),
    });
    const run = await admin.createRun(oneItem);
    await admin.addAgent(run.run_id, { tag: "broken", a2a: { url: broken.url } });
    expect(await onlyReason(admin, run.run_id)).toBe(
      "The A2A task's result holds text that is not well-formed Unicode (INVALID_REQUEST, as for a completion sent over HTTP). /artifact/content: The string contains a lone surrogate (U+D800) at index 2: send well-formed Unicode text (a surrogate only as half of a pair).",
    );
  });
});

describe("an A2A agent's failure", () => {
  it("whose words are over the 10 000 characters of a reason is recorded without them, saying so", async () => {
    const { admin } = await service();
    const verbose = await agent({
      name: "Verbose",
      skills: [{ id: "copywriting" }],
      behaviour: async (task) => task.finish(TaskState.TASK_STATE_FAILED, "no ".repeat(5000)),
    });
    const run = await admin.createRun(oneItem);
    await admin.addAgent(run.run_id, { tag: "verbose", a2a: { url: verbose.url } });
    expect(await onlyReason(admin, run.run_id)).toBe(
      "The A2A task ended failed; what it said (15000 characters) is not recorded: a failure's reason holds at most 10000 characters (INVALID_REQUEST, as for one sent over HTTP)",
    );
  });
});

describe("a store error while an A2A result is stored", () => {
  it("fails the attempt with the store's reason (and tells the server's onUnexpectedError)", async () => {
    const directory = mkdtempSync(join(tmpdir(), "a2a-store-error-"));
    onClose(async () => rmSync(directory, { recursive: true, force: true }));
    const database = join(directory, "service.db");
    const told: unknown[] = [];
    const { admin } = await service({
      database,
      onUnexpectedError: (error) => told.push(error),
    });
    // A real SQLite error, raised by the database itself whenever an artifact is written.
    const other = new DatabaseSync(database);
    other.exec(
      "CREATE TRIGGER full BEFORE INSERT ON artifacts BEGIN SELECT RAISE(ABORT, 'the artifact store is full'); END",
    );
    other.close();
    const writer = await agent({ name: "Writer", skills: [{ id: "copywriting" }] });
    const run = await admin.createRun(oneItem);
    await admin.addAgent(run.run_id, { tag: "writer", a2a: { url: writer.url } });
    expect(await onlyReason(admin, run.run_id)).toBe(
      "The service could not store the A2A task's result: the artifact store is full. The item goes back on offer.",
    );
    expect(told.map((error) => (error as Error).message)).toEqual(["the artifact store is full"]);
  });
});
