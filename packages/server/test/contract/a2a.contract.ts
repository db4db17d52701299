import { describe, expect, inject, it } from "vitest";
import { createRun, runInput, taskStage } from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

/** Nothing listens on port 9 of the loopback address (discard): a card nobody serves. */
const NOBODY = "http://127.0.0.1:9";

/** Where the card of an agent at `url` is. */
const cardAt = (url: string) => `${url}/.well-known/agent-card.json`;

/**
 * Registering an A2A agent, as far as every store and runtime answers it alike: a card that
 * cannot be read, or that the service cannot serve (credentials it was not given, only A2A 0.3,
 * larger than 1 MiB), is refused with AGENT_CARD_INVALID (AGENT_CREDENTIALS_MISSING for credentials)
 * and nothing is kept. The cards are
 * served by the suites' global setup (test/a2a/card-hosts.ts). Dispatch to real A2A agents is
 * tested on Node (test/a2a), on PostgreSQL and on workerd.
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

    it("a card that asks for credentials is refused without them, naming the scheme; with them it is taken", async () => {
      const { secured } = inject("a2aCardHosts");
      const { admin, run } = await createRun(
        service,
        runInput([taskStage("draft", { available_skills: ["draft"] })]),
      );
      const path = `/v1/runs/${run.run_id}/agents`;
      const refused = await admin.post(path, { body: { tag: "guarded", a2a: { url: secured } } });
      expect([refused.status, refused.error]).toEqual([
        422,
        {
          error: `The A2A agent card of "Secured" asks for credentials the registration does not give. Add them to a2a.credentials under the security scheme's name.`,
          code: "AGENT_CREDENTIALS_MISSING",
          issues: [
            {
              path: "/securityRequirements/0",
              message:
                'The card asks for credentials of "bearer"; a2a.credentials has none for "bearer" (an HTTP Bearer scheme: give { "bearer_token": "…" }).',
            },
          ],
        },
      ]);
      const token = "contract-bearer-s3cret-7Yt";
      const added = await admin.post(path, {
        body: {
          tag: "guarded",
          a2a: { url: secured, credentials: { bearer: { bearer_token: token } } },
        },
      });
      expect(added.status, added.text).toBe(201);
      const listed = await admin.get(path);
      expect(listed.text).toContain("Secured");
      expect(`${added.text}${listed.text}`).not.toContain(token);
    });

    it("a card whose only interface speaks A2A 0.3 is refused, naming its protocolVersion", async () => {
      const { legacy } = inject("a2aCardHosts");
      const { admin, run } = await createRun(service, runInput([taskStage("draft")]));
      const refused = await admin.post(`/v1/runs/${run.run_id}/agents`, {
        body: { tag: "old", a2a: { url: legacy } },
      });
      expect([refused.status, refused.error]).toEqual([
        422,
        {
          error: `The A2A agent card at ${cardAt(legacy)} offers no interface the service speaks. Fix the issues listed.`,
          code: "AGENT_CARD_INVALID",
          issues: [
            {
              path: "/supportedInterfaces/0/protocolVersion",
              message:
                'The service speaks A2A 1.0, not "0.3": offer an interface with protocolVersion "1.0".',
            },
          ],
        },
      ]);
    });

    it("a card of 20 MiB is refused once 1 MiB of it is read (422, not a 500)", async () => {
      const { huge } = inject("a2aCardHosts");
      const { admin, run } = await createRun(service, runInput([taskStage("draft")]));
      const refused = await admin.post(`/v1/runs/${run.run_id}/agents`, {
        body: { tag: "huge", a2a: { url: huge } },
      });
      expect([refused.status, refused.error]).toEqual([
        422,
        {
          error: `The A2A agent card at ${cardAt(huge)} is larger than 1048576 bytes, the most the service reads of a card (it stopped reading there). Check the agent's URL and that it serves an A2A 1.0 agent card there.`,
          code: "AGENT_CARD_INVALID",
        },
      ]);
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
