import { describe, expect, it } from "vitest";
import { createRun, runInput, taskStage } from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

/** Nothing listens on port 9 of the loopback address (discard): a card nobody serves. */
const NOBODY = "http://127.0.0.1:9";

/**
 * Registering an A2A agent, as far as every store and runtime answers it alike: a card that
 * cannot be read is refused with AGENT_CARD_INVALID and nothing is kept. Dispatch to real
 * A2A agents is tested on Node (test/a2a).
 */
export function a2aSuite(start: StartService): void {
  describe("A2A agents", () => {
    const service = suiteService(start);

    it("an agent whose card cannot be read is refused (422), and its tag stays free", async () => {
      const { admin, run } = await createRun(service, runInput([taskStage("draft")]));
      const refused = await admin.post(`/v1/runs/${run.run_id}/agents`, {
        body: { tag: "illustrator", a2a: { url: NOBODY } },
      });
      expect(refused.status).toBe(422);
      expect(refused.error?.code).toBe("AGENT_CARD_INVALID");
      expect(refused.error?.error).toMatch(
        /^The A2A agent card at http:\/\/127\.0\.0\.1:9\/\.well-known\/agent-card\.json (could not be read \(.+\)|answered HTTP \d+)\. Check the agent's URL and that it serves an A2A 1\.0 agent card there\.$/,
      );
      const added = await admin.addAgent(run.run_id, "illustrator");
      expect(added.status).toBe(201);
    });

    it("an A2A URL that is not http(s), or a concurrency out of range, is a bad request", async () => {
      const { admin, run } = await createRun(service, runInput([taskStage("draft")]));
      const ftp = await admin.post(`/v1/runs/${run.run_id}/agents`, {
        body: { tag: "a", a2a: { url: "ftp://127.0.0.1/agent" } },
      });
      expect([ftp.status, ftp.error?.issues?.map((issue) => issue.path)]).toEqual([
        400,
        ["/a2a/url"],
      ]);
      const many = await admin.post(`/v1/runs/${run.run_id}/agents`, {
        body: { tag: "a", a2a: { url: NOBODY, concurrency: 17 } },
      });
      expect([many.status, many.error?.issues?.map((issue) => issue.path)]).toEqual([
        400,
        ["/a2a/concurrency"],
      ]);
    });
  });
}
