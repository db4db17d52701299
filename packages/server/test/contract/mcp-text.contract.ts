// Text over /mcp is stored exactly as sent, or refused, as over HTTP: tool arguments with lone
// surrogates get the contract's INVALID_REQUEST with the HTTP routes' pointers, a message whose
// bytes are not UTF-8 the HTTP answer. Not with the HTTP suites: /mcp is outside the OpenAPI
// document their answers are checked against.
import { describe, expect, it } from "vitest";
import { artifactCompletion, createRun, runInput, taskStage } from "./client.ts";
import type { StartService } from "./harness.ts";
import { call, mcpClient } from "./mcp.contract.ts";
import { suiteService } from "./suite-service.ts";
import { bodyWithBytes, kept, loneString, notUtf8Body, refusal } from "./unicode-text.ts";

export function mcpTextSuite(start: StartService): void {
  describe("text over /mcp is stored as sent, or refused", () => {
    const service = suiteService(start);

    it("tool arguments with lone surrogates: INVALID_REQUEST with the HTTP routes' pointers", async () => {
      const { agent } = await createRun(service, runInput([taskStage("draft")]));
      const worker = await agent("worker");
      const client = await mcpClient(service, worker.token);
      try {
        const task = (await worker.claimNext()).body.work_item;
        const completion = artifactCompletion(1, "# Draft \ud800");
        const refused = await call(client, "complete_work_item", {
          work_item_id: task.id,
          ...completion,
        });
        expect(refused.isError).toBe(true);
        expect(refused.structured).toEqual(
          refusal("tool arguments", [loneString("/artifact/content", "D800", 8)]),
        );
        const failed = await call(client, "fail_work_item", {
          work_item_id: `${task.id}\udc00`,
          attempt: 1,
          reason: "\ud800",
        });
        expect(failed.structured).toEqual(
          refusal("tool arguments", [
            loneString("/work_item_id", "DC00", task.id.length),
            loneString("/reason", "D800", 0),
          ]),
        );
        const done = await call(client, "complete_work_item", {
          work_item_id: task.id,
          ...artifactCompletion(1, kept),
        });
        expect(done.isError).toBe(false);
      } finally {
        await client.close();
      }
    });

    it("a message whose bytes are not UTF-8 gets 400 INVALID_REQUEST", async () => {
      const { agent } = await createRun(service, runInput([taskStage("draft")]));
      const worker = await agent("worker");
      const message = {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "fail_work_item", arguments: { work_item_id: "wi_1@", attempt: 1 } },
      };
      const { raw, offset } = bodyWithBytes(message, [0xff]);
      const refused = await worker.post("/mcp", {
        raw,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual(notUtf8Body(offset));
    });
  });
}
