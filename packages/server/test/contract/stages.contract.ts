import { describe, expect, it } from "vitest";
import {
  artifactCompletion,
  createRun,
  ofType,
  reviewCompletion,
  reviewStage,
  runInput,
  taskStage,
  writtenDraft,
} from "./client.ts";
import type { StartService } from "./harness.ts";
import { suiteService } from "./suite-service.ts";

/** Stages run in order; review stages review an earlier stage's artifacts, never by their author. */
export function stagesSuite(start: StartService): void {
  describe("stages", () => {
    const service = suiteService(start);

    it("advance: the next stage's items are offered once every item of the stage is completed", async () => {
      const { agent, events, admin, run } = await createRun(
        service,
        runInput([taskStage("research", { items: 2 }), taskStage("draft")]),
      );
      const worker = await agent("worker");
      const first = await worker.claimNext();
      const second = await worker.claimNext();
      await worker.complete(first.body.work_item.id, artifactCompletion(1));
      expect((await worker.poll()).body.offers).toEqual([]);
      expect(ofType(await events(), "stage.completed")).toEqual([]);
      await worker.complete(second.body.work_item.id, artifactCompletion(1));
      const offers = (await worker.poll()).body.offers;
      expect(offers.map((offer) => offer.stage_id)).toEqual(["draft"]);
      const tail = (await events()).slice(-3).map((event) => event.type);
      expect(tail).toEqual(["work_item.completed", "stage.completed", "work_item.offered"]);
      const view = await admin.getRun(run.run_id);
      expect(view.body.stages.map((stage) => [stage.id, stage.status, stage.counts])).toEqual([
        [
          "research",
          "completed",
          { total: 2, offered: 0, leased: 0, completed: 2, dead_lettered: 0 },
        ],
        ["draft", "active", { total: 1, offered: 1, leased: 0, completed: 0, dead_lettered: 0 }],
      ]);
    });

    it("the run completes after its last stage", async () => {
      const { agent, events, admin, run } = await createRun(service, runInput([taskStage("only")]));
      const worker = await agent("worker");
      const claimed = await worker.claimNext();
      await worker.complete(claimed.body.work_item.id, artifactCompletion(1));
      expect((await admin.getRun(run.run_id)).body.status).toBe("completed");
      expect((await events()).slice(-2).map((event) => event.type)).toEqual([
        "stage.completed",
        "run.completed",
      ]);
      expect((await worker.claimNext()).status).toBe(204);
    });

    it("a review stage gets one review item per artifact of the stage it reviews", async () => {
      const { agent } = await createRun(
        service,
        runInput([taskStage("draft", { items: 3 }), reviewStage("review", "draft")]),
      );
      const writers = [await agent("writer-1"), await agent("writer-2"), await agent("writer-3")];
      const artifacts: string[] = [];
      for (const writer of writers) {
        const claimed = await writer.claimNext();
        const done = await writer.complete(claimed.body.work_item.id, artifactCompletion(1));
        artifacts.push(done.body.artifact_id ?? "");
      }
      const critic = await agent("critic");
      const { offers } = (await critic.poll()).body;
      expect(
        offers.map((offer) => (offer.kind === "review" ? offer.review_context : undefined)),
      ).toEqual(
        artifacts.map((id, index) => ({
          target_artifact_id: id,
          target_author_tag: `writer-${index + 1}`,
          review_criteria: ["creativity", "logic", "readability"],
        })),
      );
    });

    it("a review item is never offered to the author of the artifact it reviews", async () => {
      const { agent } = await createRun(
        service,
        runInput([taskStage("draft", { items: 2 }), reviewStage("review", "draft")]),
      );
      const one = await agent("writer-1");
      const two = await agent("writer-2");
      for (const writer of [one, two]) {
        const claimed = await writer.claimNext();
        await writer.complete(claimed.body.work_item.id, artifactCompletion(1));
      }
      const offersOfOne = (await one.poll()).body.offers;
      expect(offersOfOne).toHaveLength(1);
      const offered = offersOfOne[0];
      expect(offered?.kind === "review" ? offered.review_context.target_author_tag : "").toBe(
        "writer-2",
      );
      const next = await one.claimNext();
      const claimed = next.body.work_item;
      expect(claimed.kind === "review" ? claimed.review_context.target_author_tag : "").toBe(
        "writer-2",
      );
      expect((await one.claimNext()).status).toBe(204);
    });

    it("self-review: claiming the review of one's own artifact is refused with 403", async () => {
      const { writer, critic } = await writtenDraft(service);
      const [review] = (await critic.poll()).body.offers;
      const refused = await writer.claim(review?.id ?? "");
      expect(refused.status).toBe(403);
      expect(refused.error?.code).toBe("SELF_REVIEW");
      expect((await critic.claim(review?.id ?? "")).status).toBe(200);
    });

    it("review feedback is checked against the review context: criteria exactly the stage's, the reviewed artifact", async () => {
      const { written, critic } = await writtenDraft(service, ["logic", "tone"]);
      const claimed = await critic.claimNext();
      const id = claimed.body.work_item.id;
      const missing = await critic.complete(id, reviewCompletion(1, ["logic"]));
      expect(missing.status).toBe(422);
      expect(missing.error).toMatchObject({
        code: "INVALID_COMPLETION",
        issues: [{ path: "/review/criteria", message: expect.stringContaining('"tone"') }],
      });
      const unknown = await critic.complete(id, reviewCompletion(1, ["logic", "tone", "humour"]));
      expect(unknown.error?.issues).toEqual([
        { path: "/review/criteria/2/criterion", message: expect.stringContaining('"humour"') },
      ]);
      const twice = await critic.complete(id, reviewCompletion(1, ["logic", "tone", "logic"]));
      expect(twice.error?.issues?.map((issue) => issue.path)).toEqual([
        "/review/criteria/2/criterion",
      ]);
      const body = reviewCompletion(1, ["logic", "tone"]);
      const wrongTarget = await critic.complete(id, {
        ...body,
        review: { ...body.review, target_artifact_id: "art_other" },
      });
      expect(wrongTarget.error?.issues?.map((issue) => issue.path)).toEqual([
        "/review/target_artifact_id",
      ]);
      const accepted = await critic.complete(id, {
        ...body,
        review: { ...body.review, target_artifact_id: written.body.artifact_id },
      });
      expect(accepted.status).toBe(200);
    });

    it("a completion must fit its item: an artifact for a task, a review for a review", async () => {
      const { agent } = await createRun(
        service,
        runInput([taskStage("draft"), reviewStage("review", "draft")]),
      );
      const writer = await agent("writer-1");
      const task = await writer.claimNext();
      const withReview = await writer.complete(task.body.work_item.id, reviewCompletion(1));
      expect(withReview.status).toBe(422);
      expect(withReview.error?.issues?.map((issue) => issue.path)).toEqual([
        "/review",
        "/artifact",
      ]);
      await writer.complete(task.body.work_item.id, artifactCompletion(1));
      const critic = await agent("critic");
      const review = await critic.claimNext();
      const withArtifact = await critic.complete(review.body.work_item.id, artifactCompletion(1));
      expect(withArtifact.error?.issues?.map((issue) => issue.path)).toEqual([
        "/artifact",
        "/review",
      ]);
    });

    it("bad stage graphs are refused with 400 and an issue per problem", async () => {
      const admin = (await createRun(service, runInput([taskStage("x")]))).admin;
      const refused = await admin.createRun(
        runInput([
          taskStage("draft"),
          taskStage("draft"),
          { ...reviewStage("review", "draft"), review_criteria: undefined } as never,
          reviewStage("early", "later"),
          reviewStage("meta", "review"),
          taskStage("later", { reviews: "draft" }),
        ]),
      );
      expect(refused.status).toBe(400);
      expect(refused.error?.code).toBe("INVALID_STAGES");
      expect(refused.error?.issues?.map((issue) => issue.path)).toEqual([
        "/stages/1/id",
        "/stages/2/review_criteria",
        "/stages/3/reviews",
        "/stages/4/reviews",
        "/stages/5/reviews",
      ]);
    });
  });
}
