import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, createRun, runInput, taskStage } from "./client.ts";
import type { Service, StartService } from "./harness.ts";

// Fake secrets, assembled here so that no literal in the repository looks like a live one.
const KEY = `sk-proj-${"Lumen7Key".repeat(4)}`;
const URL_PASSWORD = "hunter22!";
const secretRun = () =>
  runInput(
    [
      taskStage("draft", {
        background: `Readers are platform engineers.\nStaging: postgres://app:${URL_PASSWORD}@db/app`,
      }),
    ],
    { goal: `Publish the article. Use OPENAI_API_KEY=${KEY} for the images.` },
  );

/** Secrets in a new run's goal, constraints and stage contexts, under each policy. */
export function secretsSuite(start: StartService): void {
  describe("secrets in a new run", () => {
    const services: Service[] = [];
    const started = async (secrets?: "redact" | "refuse" | "allow") => {
      const service = await start(secrets === undefined ? {} : { secrets });
      services.push(service);
      return service;
    };
    let redacting: Service;
    beforeAll(async () => {
      redacting = await started();
    });
    afterAll(() => Promise.all(services.map((service) => service.stop())));

    it("redact (the default): the stored run and the work items carry [redacted: <kind>], the 201 a warning", async () => {
      const admin = new Client(redacting, redacting.adminToken);
      const created = await admin.createRun(secretRun());
      expect(created.status).toBe(201);
      const goal =
        "Publish the article. Use OPENAI_API_KEY=[redacted: openai-api-key] for the images.";
      const background =
        "Readers are platform engineers.\nStaging: postgres://app:[redacted: url-password]@db/app";
      expect(created.body).toMatchObject({
        goal,
        warning:
          "Redacted 2 secrets from the run before it was stored: openai-api-key in /goal (line 1), url-password in /stages/0/background (line 2). Every agent of the run receives these fields: remove them and pass credentials another way.",
      });
      expect(created.body.stages[0]).toMatchObject({ background });
      expect(created.text).not.toContain(KEY);
      const stored = await admin.getRun(created.body.run_id);
      expect(stored.body).toMatchObject({ goal });
      expect(stored.body).not.toHaveProperty("warning");
      const { agent } = await createRun(redacting, secretRun());
      const [offer] = (await (await agent("writer-1")).poll()).body.offers;
      expect(offer).toMatchObject({ goal, stage_context: { background } });
    });

    it("a run without secrets is answered without a warning", async () => {
      const created = await new Client(redacting, redacting.adminToken).createRun(
        runInput([taskStage("draft")]),
      );
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty("warning");
    });

    it("refuse: 422 SECRET_IN_CONTEXT naming kinds and fields, never values, and nothing stored", async () => {
      const service = await started("refuse");
      const admin = new Client(service, service.adminToken);
      const refused = await admin.createRun(secretRun());
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual({
        error:
          'The run holds 2 secrets: openai-api-key in /goal (line 1), url-password in /stages/0/background (line 2). Nothing was stored, because the service\'s secrets policy is "refuse": remove them and pass credentials another way.',
        code: "SECRET_IN_CONTEXT",
        issues: [
          {
            path: "/goal",
            message:
              "This looks like an OpenAI API key (openai-api-key, line 1): remove it; every agent of the run would receive it.",
          },
          {
            path: "/stages/0/background",
            message:
              "This looks like a password in a URL (url-password, line 2): remove it; every agent of the run would receive it.",
          },
        ],
      });
      expect(refused.text).not.toContain(KEY);
      expect(refused.text).not.toContain(URL_PASSWORD);
    });

    it("allow: the run is stored as sent", async () => {
      const service = await started("allow");
      const created = await new Client(service, service.adminToken).createRun(secretRun());
      expect(created.status).toBe(201);
      expect(created.body.goal).toBe(secretRun().goal);
      expect(created.body).not.toHaveProperty("warning");
    });
  });
}
