import { describe, expect, it } from "vitest";
import {
  artifactCompletion,
  type Client,
  createRun,
  ofType,
  reviewCompletion,
  runInput,
  taskStage,
  writtenDraft,
} from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

/** Every scenario of spec 003 (task-context delivery), by name. */
export function spec003Suite(start: StartService): void {
  describe("spec 003: task-context delivery", () => {
    const service = suiteService(start);

    it("Spec 003: Agent receives work item with stage context", async () => {
      const stage = taskStage("draft", { background: "Readers are platform engineers." });
      const { agent } = await createRun(service, runInput([stage]));
      const writer = await agent("writer-1");
      const polled = await writer.poll();
      expect(polled.status).toBe(200);
      expect(polled.body.offers).toHaveLength(1);
      expect(polled.body.offers[0]?.stage_context).toEqual({
        stage_description: stage.stage_description,
        expected_output: stage.expected_output,
        available_skills: stage.available_skills,
        background: "Readers are platform engineers.",
      });
    });

    it("Spec 003: Work item contains run context", async () => {
      const input = runInput([taskStage("draft")]);
      const { agent } = await createRun(service, input);
      const writer = await agent("writer-1");
      const [offer] = (await writer.poll()).body.offers;
      expect(offer).toMatchObject({ goal: input.goal, constraints: input.constraints });
      const claimed = await writer.claimNext();
      expect(claimed.body.work_item).toMatchObject({
        goal: input.goal,
        constraints: input.constraints,
      });
    });

    it("Spec 003: Subsequent stage receives prior work", async () => {
      const { run, agent, admin } = await createRun(
        service,
        runInput([taskStage("research", { items: 2 }), taskStage("draft")]),
      );
      const researchers = [await agent("researcher-1"), await agent("researcher-2")];
      const artifactIds: string[] = [];
      for (const [index, researcher] of researchers.entries()) {
        const { body } = await researcher.claimNext();
        const done = await researcher.complete(
          body.work_item.id,
          artifactCompletion(1, `notes ${index}`),
        );
        expect(done.status).toBe(200);
        artifactIds.push(done.body.artifact_id ?? "");
      }
      const writer = await agent("writer-1");
      const [offer] = (await writer.poll()).body.offers;
      expect(offer?.stage_id).toBe("draft");
      expect(offer?.previous_artifacts).toEqual(
        artifactIds.map((id, index) => ({
          artifact_id: id,
          stage_id: "research",
          author_tag: `researcher-${index + 1}`,
          title: "Draft article",
          media_type: "text/markdown",
          uri: `/v1/runs/${run.run_id}/artifacts/${id}`,
        })),
      );
      for (const [index, reference] of (offer?.previous_artifacts ?? []).entries()) {
        const fetched = await writer.get<{ content: string }>(reference.uri ?? "");
        expect(fetched.status).toBe(200);
        expect(fetched.body.content).toBe(`notes ${index}`);
        expectArtifact(await admin.artifact(run.run_id, reference.artifact_id));
      }
    });

    it("Spec 003: Agent sees available skills", async () => {
      const stage = taskStage("draft", {
        items: 3,
        available_skills: ["generate_image", "web_search"],
      });
      const { agent } = await createRun(service, runInput([stage]));
      const writer = await agent("writer-1");
      const { offers } = (await writer.poll()).body;
      expect(offers).toHaveLength(3);
      for (const offer of offers)
        expect(offer.available_skills).toEqual(["generate_image", "web_search"]);
    });

    it("Spec 003: Reviewer receives review assignment", async () => {
      const { written, critic } = await writtenDraft(service);
      const [offer] = (await critic.poll()).body.offers;
      expect(offer?.kind).toBe("review");
      expect(offer?.kind === "review" ? offer.review_context : undefined).toEqual({
        target_artifact_id: written.body.artifact_id,
        target_author_tag: "writer-1",
        review_criteria: ["creativity", "logic", "readability"],
      });
    });

    it("Spec 003: Agent submits review feedback", async () => {
      const { events, written, critic } = await writtenDraft(service);
      const review = await critic.claimNext();
      const done = await critic.complete(review.body.work_item.id, reviewCompletion(1));
      expect(done.status).toBe(200);
      expect(done.body).toEqual({
        work_item_id: review.body.work_item.id,
        status: "completed",
        event_id: expect.any(String),
      });
      const all = await events();
      const [feedback] = ofType(all, "review.feedback");
      expect(feedback).toMatchObject({
        artifact_id: written.body.artifact_id,
        feedback: {
          work_item_id: review.body.work_item.id,
          target_artifact_id: written.body.artifact_id,
          reviewer_tag: "critic",
          verdict: "request_changes",
          summary: "Strong opening; section 2 skips a step.",
          criteria: reviewCompletion(1).review.criteria,
        },
      });
      // Emitted with the completion, in the same transaction: the next event is its completion.
      const completed = all.find((event) => event.id === done.body.event_id);
      expect(completed).toMatchObject({
        type: "work_item.completed",
        seq: (feedback?.seq ?? 0) + 1,
      });
    });

    it("Spec 003: Reviewer sees evaluation criteria", async () => {
      const criteria = ["creativity", "logic", "readability", "tone"];
      const { critic } = await writtenDraft(service, criteria);
      const claimed = await critic.claimNext();
      const item = claimed.body.work_item;
      expect(item.kind === "review" ? item.review_context.review_criteria : []).toEqual(criteria);
    });
  });
}

function expectArtifact(answer: Awaited<ReturnType<Client["artifact"]>>): void {
  expect(answer.status).toBe(200);
  expect(Object.keys(answer.body).sort()).toEqual([
    "author_tag",
    "content",
    "created_at",
    "id",
    "media_type",
    "run_id",
    "stage_id",
    "title",
    "work_item_id",
  ]);
}
