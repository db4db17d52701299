import type { AgentList } from "@task-context/client";
import { describe, expect, inject, it } from "vitest";
import { Client, createRun, runInput, taskStage } from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

/**
 * GET /v1/runs/{run_id}/agents: a run's agents in the order they were added, never a token; an
 * A2A agent with its card's interface and its last failed attempts (the failures themselves are
 * made by a dispatcher: test/a2a/list-agents.test.ts). Admin or an agent of the run.
 */
export function agentsSuite(start: StartService): void {
  describe("listing a run's agents (GET /v1/runs/{run_id}/agents)", () => {
    const service = suiteService(start);
    /** A run of two stages; the second's skill is the plain card's (test/a2a/card-hosts.ts). */
    const twoStages = () =>
      runInput([taskStage("draft"), taskStage("illustrate", { available_skills: ["illustrate"] })]);

    it("lists every agent in the order added: tag, kind, the stages it may take, no token", async () => {
      const { admin, run, agent } = await createRun(service, twoStages());
      const writer = await agent("writer");
      const editor = await agent("editor");
      const answer = await admin.get<AgentList>(`/v1/runs/${run.run_id}/agents`);
      expect([answer.status, answer.body]).toEqual([
        200,
        {
          agents: [
            {
              agent_id: writer.agentId,
              tag: "writer",
              kind: "http",
              stages: ["draft", "illustrate"],
            },
            {
              agent_id: editor.agentId,
              tag: "editor",
              kind: "http",
              stages: ["draft", "illustrate"],
            },
          ],
        },
      ]);
      expect(answer.text).not.toContain(writer.token as string);
    });

    it("shows an A2A agent's card: its interface, protocol version, concurrency and no errors yet", async () => {
      const { plain } = inject("a2aCardHosts");
      const { admin, run } = await createRun(service, twoStages());
      // Its stage's items are offered once the draft is done: nothing is sent to it meanwhile.
      const added = await admin.post<{ agent_id: string }>(`/v1/runs/${run.run_id}/agents`, {
        body: { tag: "illustrator", a2a: { url: plain, stages: ["illustrate"], concurrency: 2 } },
      });
      expect(added.status, added.text).toBe(201);
      const answer = await admin.get<AgentList>(`/v1/runs/${run.run_id}/agents`);
      expect([answer.status, answer.body]).toEqual([
        200,
        {
          agents: [
            {
              agent_id: added.body.agent_id,
              tag: "illustrator",
              kind: "a2a",
              stages: ["illustrate"],
              a2a: {
                url: plain,
                agent_name: "Plain",
                interface_url: `${plain}/`,
                protocol_binding: "JSONRPC",
                protocol_version: "1.0",
                concurrency: 2,
                card_signature: { verified: false },
                card_check: { at: expect.any(String), outcome: "registered" },
                transport_errors: [],
                last_errors: [],
              },
            },
          ],
        },
      ]);
    });

    it("an agent sees its own run's agents; another run's agent gets 404, no token 401", async () => {
      const mine = await createRun(service, runInput([taskStage("draft")]));
      const theirs = await createRun(service, runInput([taskStage("draft")]));
      const member = await mine.agent("member");
      const stranger = await theirs.agent("stranger");
      const path = `/v1/runs/${mine.run.run_id}/agents`;
      const own = await member.get<AgentList>(path);
      expect([own.status, own.body.agents.map((agent) => agent.tag)]).toEqual([200, ["member"]]);
      const other = await stranger.get(path);
      const missing = await stranger.get("/v1/runs/run_00000000000000000000000000/agents");
      expect([other.status, other.error?.code]).toEqual([404, "RUN_NOT_FOUND"]);
      expect(other.error?.error).toBe(
        missing.error?.error.replace("run_00000000000000000000000000", mine.run.run_id),
      );
      const anonymous = await new Client(service, undefined).get(path);
      expect([anonymous.status, anonymous.error?.code]).toEqual([401, "UNAUTHORIZED"]);
    });

    it("an unknown run is 404 RUN_NOT_FOUND", async () => {
      const admin = new Client(service, service.adminToken);
      const answer = await admin.get("/v1/runs/run_00000000000000000000000000/agents");
      expect([answer.status, answer.error?.code]).toEqual([404, "RUN_NOT_FOUND"]);
    });
  });
}
