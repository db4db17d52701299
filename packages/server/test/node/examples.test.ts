// The documentation's client examples, run as a user runs them: separate processes against the
// Node server on a socket. create-run.ts prints the agents' tokens; the test's agents work the run
// through; follow-events.ts prints every event and returns when the run completes. typed-client.ts
// starts its own server.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  artifactCompletion,
  Client,
  createRun,
  reviewCompletion,
  runInput,
  taskStage,
} from "../contract/client.ts";
import { overSocket } from "./services.ts";

const run = promisify(execFile);

/**
 * How long an example may run before a test calls it blocked. It bounds a hang and asserts no
 * speed: with both cores of a CI machine busy, loading the MCP SDK from source took over 20 s.
 */
const HANG_GUARD_MS = 100_000;

/** A test that runs examples, on a machine that may be busy. */
const EXAMPLE_TEST_MS = 240_000;
const examples = fileURLToPath(new URL("../../examples/", import.meta.url));

/** Runs an example with Node (type stripping), as the docs do. */
async function example(
  name: string,
  url: string,
  adminToken: string,
  ...args: string[]
): Promise<string> {
  return exampleWith(name, { TASK_CONTEXT_URL: url, TASK_CONTEXT_ADMIN_TOKEN: adminToken }, args);
}

/** Runs an example with `variables` in its environment. */
async function exampleWith(
  name: string,
  variables: Record<string, string>,
  args: string[] = [],
): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ["--conditions=@task-context/source", join(examples, name), ...args],
    {
      env: { ...process.env, ...variables },
      timeout: HANG_GUARD_MS,
    },
  );
  return stdout;
}

describe("the delivery service's examples", () => {
  it("create-run.ts makes a run with three agents; follow-events.ts prints it to run.completed and returns", {
    timeout: EXAMPLE_TEST_MS,
  }, async ({ onTestFinished }) => {
    const service = await overSocket();
    onTestFinished(() => service.stop());
    const url = service.baseUrl;

    const printed = (await example("create-run.ts", url, service.adminToken)).trim().split("\n");
    expect(printed.map((line) => line.split("\t")[0])).toEqual([
      "writer-1",
      "writer-2",
      "critic-1",
    ]);
    const [writer1, writer2, critic] = printed.map(
      (line) => new Client(service, line.split("\t")[1]),
    ) as [Client, Client, Client];

    for (const writer of [writer1, writer2]) {
      const claim = await writer.request<{ work_item: { id: string } }>(
        "POST",
        "/v1/inbox/claim-next",
      );
      const done = await writer.request(
        "POST",
        `/v1/work-items/${claim.body.work_item.id}/complete`,
        {
          body: artifactCompletion(1),
        },
      );
      expect(done.status, done.text).toBe(200);
    }
    let runId = "";
    for (let review = 0; review < 2; review++) {
      const claim = await critic.request<{ work_item: { id: string; run_id: string } }>(
        "POST",
        "/v1/inbox/claim-next",
      );
      runId = claim.body.work_item.run_id;
      const done = await critic.request(
        "POST",
        `/v1/work-items/${claim.body.work_item.id}/complete`,
        {
          body: reviewCompletion(1, ["logic", "readability"]),
        },
      );
      expect(done.status, done.text).toBe(200);
    }

    const admin = new Client(service, service.adminToken);
    const { events } = (
      await admin.request<{ events: { seq: number; type: string }[] }>(
        "GET",
        `/v1/runs/${runId}/events`,
        { query: { limit: 1000 } },
      )
    ).body;
    expect(events.at(-1)?.type).toBe("run.completed");
    const followed = await example("follow-events.ts", url, service.adminToken, runId);
    expect(followed).toBe(events.map((event) => `${event.seq} ${event.type}\n`).join(""));
  });

  it("typed-client.ts, the client README's, works a run through with the client and prints what the README shows", {
    timeout: EXAMPLE_TEST_MS,
  }, async () => {
    const readme = readFileSync(new URL("../../../client/README.md", import.meta.url), "utf8");
    const shown = /<!-- check: output -->\n```text\n([\s\S]*?)```/.exec(readme);
    expect(await exampleWith("typed-client.ts", {})).toBe(shown?.[1]);
  });

  it("mcp-agent.ts reads the run's context, claims and completes an item over MCP", {
    timeout: EXAMPLE_TEST_MS,
  }, async ({ onTestFinished }) => {
    const service = await overSocket();
    onTestFinished(() => service.stop());
    const { run, agent, admin } = await createRun(service, runInput([taskStage("draft")]));
    const writer = await agent("writer");
    const printed = await exampleWith("mcp-agent.ts", {
      TASK_CONTEXT_URL: service.baseUrl,
      TASK_CONTEXT_AGENT_TOKEN: writer.token ?? "",
    });
    const read = await admin.request<{ status: string; stages: unknown[] }>(
      "GET",
      `/v1/runs/${run.run_id}`,
    );
    expect(read.body.status).toBe("completed");
    const [line, goal] = printed.trim().split("\n");
    expect(line).toMatch(/^wi_\S+ completed$/);
    expect(goal).toBe(run.goal);
  });
});
