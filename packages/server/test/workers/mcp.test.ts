import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { artifactCompletion, runInput, taskStage } from "../contract/client.ts";
import { call, mcpClient, mcpSuite } from "../contract/mcp.contract.ts";
import { mcpRevisionsSuite } from "../contract/mcp-revisions.contract.ts";
import { onWorkers } from "./services.ts";

describe("on workerd: the router Worker and a Durable Object per run (SQLite)", () => {
  mcpSuite(onWorkers);
  mcpRevisionsSuite(onWorkers);
});

describe("on workerd: the deployed Worker's fetch (src/workers.ts) as the MCP client's transport", () => {
  it("an agent made over HTTP claims and completes its item over MCP", async () => {
    const worker = {
      baseUrl: "http://edge.test",
      fetch: exports.default.fetch.bind(exports.default),
    };
    const admin = {
      Authorization: `Bearer ${env.TASK_CONTEXT_ADMIN_TOKEN}`,
      "Content-Type": "application/json",
    };
    const created = await worker.fetch("http://edge.test/v1/runs", {
      method: "POST",
      headers: admin,
      body: JSON.stringify(runInput([taskStage("draft")])),
    });
    const { run_id } = (await created.json()) as { run_id: string };
    const added = await worker.fetch(`http://edge.test/v1/runs/${run_id}/agents`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify({ tag: "remote" }),
    });
    const { token } = (await added.json()) as { token: string };
    const client = await mcpClient(worker, token);
    try {
      const claimed = await call(client, "claim_work_item", {});
      const id = (claimed.structured.work_item as { id: string }).id;
      const done = await call(client, "complete_work_item", {
        work_item_id: id,
        ...artifactCompletion(1),
      });
      expect(done.structured).toMatchObject({ work_item_id: id, status: "completed" });
      const context = await client.readResource({ uri: `task-context://runs/${run_id}/context` });
      const [document] = context.contents as { text: string }[];
      expect(JSON.parse(document?.text ?? "")).toMatchObject({
        run_id,
        status: "completed",
        current_stages: [],
      });
    } finally {
      await client.close();
    }
  });
});
