import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createServiceClient } from "@task-context/client";
import { describe, expect, it } from "vitest";
import { startNodeServer } from "../../src/node.ts";
import { manualClock } from "../contract/harness.ts";
import { completeNextByPolling } from "./a2a-agent.ts";
import { a2aHarness, draftStage, lumenRun, reviewStage, settled } from "./harness.ts";

const adminToken = "a2a-test-admin-token-0123456789";

const { service, agent, onClose } = a2aHarness(adminToken, { a2aPollMs: 20 });

const twoStages = lumenRun({
  constraints: ["Say Lumen, never Lumen App"],
  stages: [draftStage, reviewStage],
});

describe.each([
  ["streaming", true],
  ["tasks/get", false],
])("an A2A agent followed by %s", (_name, streaming) => {
  it("does a run's two stages: a draft and a review, each one A2A task, with the run's context", async () => {
    const { admin } = await service();
    const writer = await agent({ name: "Writer", skills: [{ id: "copywriting" }], streaming });
    const critic = await agent({
      name: "Critic",
      skills: [{ id: "review", tags: ["reviewing"] }],
      streaming,
    });
    const run = await admin.createRun(twoStages);
    const added = await admin.addAgent(run.run_id, { tag: "writer", a2a: { url: writer.url } });
    expect(added.a2a).toEqual({
      url: writer.url,
      agent_name: "Writer",
      stages: ["draft"],
      protocol_version: "1.0",
      streaming,
      concurrency: 1,
      card_signature: { verified: false },
    });
    await admin.addAgent(run.run_id, { tag: "critic", a2a: { url: critic.url } });
    expect((await settled(admin, run.run_id)).status).toBe("completed");

    expect(writer.tasks).toHaveLength(1);
    const [draft] = writer.tasks;
    expect(draft?.message.contextId).toBe(run.run_id);
    expect(draft?.message.messageId).toBe(`${run.run_id}.${draft?.item.id}.1`);
    expect(draft?.message.metadata?.task_context).toEqual({
      run_id: run.run_id,
      work_item_id: draft?.item.id,
      attempt: 1,
      context_sha256: draft?.item.context_sha256,
      kind: "task",
      stage_id: "draft",
    });
    expect(draft?.item.goal).toBe("Launch Lumen, a reading lamp");
    expect(draft?.text).toContain(
      "[Task Context]\nGoal: Launch Lumen, a reading lamp\nConstraints:\n- Say Lumen, never Lumen App",
    );
    expect(draft?.text).toContain("\n\n[Request]\n");

    const [review] = critic.tasks;
    expect(review?.item.kind).toBe("review");
    expect(review?.item.previous_artifacts).toHaveLength(1);
    const reference = review?.item.previous_artifacts[0];
    const urlPart = review?.message.parts.find((part) => part.content?.$case === "url");
    expect(urlPart?.content?.value).toMatch(
      new RegExp(
        `^http://127\\.0\\.0\\.1:\\d+/v1/runs/${run.run_id}/artifacts/${reference?.artifact_id}$`,
      ),
    );
    expect(review?.text).toContain("# draft by Writer");

    const events = await admin.listEvents(run.run_id, { after: 0, limit: 100 });
    const types = events.events.map((event) => event.type);
    expect(types).toContain("review.feedback");
    expect(types.filter((type) => type === "work_item.completed")).toHaveLength(2);
  });
});

describe("an A2A agent in a process of its own", () => {
  it("is registered by its URL and does the draft the run offers it", async () => {
    const { admin } = await service();
    const child = spawn(
      process.execPath,
      [
        "--conditions=@task-context/source",
        fileURLToPath(new URL("agent-process.ts", import.meta.url)),
      ],
      {
        env: { ...process.env, A2A_NAME: "Separate", A2A_SKILLS: "copywriting" },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    onClose(async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
    });
    const [line] = (await once(child.stdout, "data")) as [Buffer];
    const url = line.toString().trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const run = await admin.createRun(lumenRun());
    const added = await admin.addAgent(run.run_id, { tag: "separate", a2a: { url } });
    expect(added.a2a?.agent_name).toBe("Separate");
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    const { events } = await admin.listEvents(run.run_id, { after: 0, limit: 100 });
    const created = events.find((event) => event.type === "artifact.created");
    const artifact = await admin.getArtifact(
      run.run_id,
      created?.type === "artifact.created" ? created.artifact.artifact_id : "",
    );
    expect([artifact.author_tag, artifact.content]).toEqual([
      "separate",
      "# draft by Separate\n\nLaunch Lumen, a reading lamp",
    ]);
  });
});

describe("a service that restarts", () => {
  it("dispatches to the A2A agents its database already holds", async () => {
    const directory = mkdtempSync(join(tmpdir(), "a2a-restart-"));
    onClose(async () => rmSync(directory, { recursive: true, force: true }));
    const database = join(directory, "service.db");
    const options = {
      port: 0,
      database,
      adminToken,
      a2aPollMs: 20,
      clock: manualClock().now,
      limits: { rateLimit: false } as const,
    };
    const critic = await agent({ name: "Critic", skills: [{ id: "reviewing" }] });
    const first = await startNodeServer(options);
    let admin = createServiceClient({ url: first.url, token: adminToken });
    const run = await admin.createRun(twoStages);
    await admin.addAgent(run.run_id, {
      tag: "critic",
      a2a: { url: critic.url, stages: ["review"] },
    });
    const writer = await admin.addAgent(run.run_id, { tag: "writer" });
    await first.close();
    expect(critic.tasks).toHaveLength(0); // nothing was on offer to it yet

    const second = await startNodeServer(options);
    onClose(() => second.close());
    admin = createServiceClient({ url: second.url, token: adminToken });
    const polling = createServiceClient({ url: second.url, token: writer.token });
    await completeNextByPolling(polling);
    expect((await settled(admin, run.run_id)).status).toBe("completed");
    expect(critic.tasks.map((task) => [task.item.kind, task.attempt])).toEqual([["review", 1]]);
  });
});
