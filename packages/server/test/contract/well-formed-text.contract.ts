// Text is stored exactly as sent, or refused, never altered: a string that is not well-formed
// Unicode (a lone surrogate, a byte that is not UTF-8, in a body, a path or a query) gets 400
// INVALID_REQUEST with an issue at its JSON Pointer and changes nothing (/mcp: mcp-text.contract.ts);
// well-formed text (emoji, combining marks, U+FFFD, NUL and control characters, non-BMP CJK) is
// read back identical from the run, its events, its work items and its artifacts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  artifactCompletion,
  Client,
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
import {
  advice,
  bodyWithBytes,
  kept,
  keptTexts,
  loneString,
  notUtf8Body,
  refusal,
} from "./unicode-text.ts";

/** The refusal of a path or query string whose escapes are not UTF-8. */
const urlRefusal = (issues: [path: string, what: string, escapes: string][]) => ({
  error:
    "The request's path or query string holds bytes that are not UTF-8. Fix the issues listed.",
  code: "INVALID_REQUEST",
  issues: issues.map(([path, what, escapes]) => ({
    path,
    message: `The ${what} holds ${escapes}, which is not UTF-8: percent-encode the UTF-8 bytes of well-formed Unicode text.`,
  })),
});

export function wellFormedTextSuite(start: StartService): void {
  describe("text is stored as sent, or refused", () => {
    // Secrets allowed: random text that looks like a key must come back as sent, not redacted.
    const service = suiteService(start, { secrets: "allow" });

    describe("lone surrogates in JSON bodies", () => {
      it("a run's goal, constraints, stage fields and keys: an issue each at its pointer", async () => {
        const admin = new Client(service, service.adminToken);
        const input = {
          ...runInput(
            [
              taskStage("draft", {
                available_skills: ["web_search", "\ud83d"],
                background: "ok\udc00",
              }),
            ],
            { goal: "x\ud800y", constraints: ["fine", "\udfff at the start"] },
          ),
          "note\ud800": "a key with a lone surrogate, its value fine",
        };
        const refused = await admin.post("/v1/runs", { body: input });
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual(
          refusal("request body", [
            loneString("/goal", "D800", 1),
            loneString("/constraints/1", "DFFF", 0),
            loneString("/stages/0/available_skills/1", "D83D", 0),
            loneString("/stages/0/background", "DC00", 2),
            {
              path: "/note\ud800",
              message: `The key contains a lone surrogate (U+D800) at index 4: ${advice}.`,
            },
          ]),
        );
      });

      it("agent tags: \\ud800 and \\udc00 are both refused, not stored as one tag", async () => {
        const { run, admin } = await createRun(service, runInput([taskStage("draft")]));
        for (const [tag, unit] of [
          ["\ud800", "D800"],
          ["\udc00", "DC00"],
        ] as const) {
          const refused = await admin.addAgent(run.run_id, tag);
          expect(refused.status).toBe(400);
          expect(refused.body).toEqual(refusal("request body", [loneString("/tag", unit, 0)]));
        }
        expect((await admin.addAgent(run.run_id, "\ufffd")).status).toBe(201);
      });

      it("artifacts, failure reasons and reviews: refused, and the lease is untouched", async () => {
        const { critic, events } = await writtenDraft(service);
        const review = (await critic.claimNext()).body.work_item;
        const before = await events();
        const badReview = reviewCompletion(1);
        badReview.review.summary = "Strong \ud800opening";
        (badReview.review.criteria[1] as { comment: string }).comment = "\udbff";
        const refusedReview = await critic.complete(review.id, badReview);
        expect(refusedReview.body).toEqual(
          refusal("request body", [
            loneString("/review/summary", "D800", 7),
            loneString("/review/criteria/1/comment", "DBFF", 0),
          ]),
        );
        const refusedFailure = await critic.fail(review.id, {
          attempt: 1,
          reason: "gave up \udc00",
        });
        expect(refusedFailure.body).toEqual(
          refusal("request body", [loneString("/reason", "DC00", 8)]),
        );
        // The draft is written already: a task item of another run shows the artifact case.
        const { agent } = await createRun(service, runInput([taskStage("draft")]));
        const second = await agent("writer-2");
        const task = (await second.claimNext()).body.work_item;
        const completion = artifactCompletion(1, "# Draft \ud800");
        const refusedArtifact = await second.complete(task.id, {
          ...completion,
          artifact: { ...completion.artifact, title: "\udfffTitle" },
        });
        expect(refusedArtifact.body).toEqual(
          refusal("request body", [
            loneString("/artifact/content", "D800", 8),
            loneString("/artifact/title", "DFFF", 0),
          ]),
        );
        // Nothing was written: the same attempts complete now, and no event was added.
        expect(await events()).toEqual(before);
        expect((await critic.complete(review.id, reviewCompletion(1))).status).toBe(200);
        expect((await second.complete(task.id, artifactCompletion(1))).status).toBe(200);
      });

      it("POST /v1/validate refuses such text too, rather than calling it valid", async () => {
        const { agent } = await createRun(service, runInput([taskStage("draft")]));
        const [offer] = (await (await agent("worker")).poll()).body.offers;
        const refused = await new Client(service, undefined).post("/v1/validate/work-item.v1", {
          body: { ...offer, goal: "\ud800" },
        });
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual(refusal("request body", [loneString("/goal", "D800", 0)]));
      });

      it("at most 50 issues, the last saying how many more", async () => {
        const admin = new Client(service, service.adminToken);
        const constraints = Array.from({ length: 60 }, () => "\ud800");
        const refused = await admin.createRun(runInput([taskStage("draft")], { constraints }));
        const issues = refused.error?.issues ?? [];
        expect(issues).toHaveLength(50);
        expect(issues[48]).toEqual(loneString("/constraints/48", "D800", 0));
        expect(issues[49]).toEqual({
          path: "",
          message: "11 more strings are not well-formed Unicode. Fix these first.",
        });
      });
    });

    describe("bytes that are not UTF-8", () => {
      it("a body with \\xFF or an encoded surrogate (ED A0 80) is refused, not decoded to U+FFFD", async () => {
        const admin = new Client(service, service.adminToken);
        for (const bytes of [[0xff], [0xed, 0xa0, 0x80], [0xc3]]) {
          const { raw, offset } = bodyWithBytes(
            runInput([taskStage("draft")], { goal: "x@y" }),
            bytes,
          );
          const refused = await admin.post("/v1/runs", {
            raw,
            headers: { "Content-Type": "application/json" },
          });
          expect(refused.status).toBe(400);
          expect(refused.body).toEqual(notUtf8Body(offset));
        }
      });

      it("path parameters: %ED%A0%80, %FF and overlong %C0%AF get 400 at /path/<name>, not 404", async () => {
        const { run, admin, agent } = await createRun(service, runInput([taskStage("draft")]));
        const refusedRun = await admin.get("/v1/runs/%ED%A0%80");
        expect(refusedRun.status).toBe(400);
        expect(refusedRun.body).toEqual(
          urlRefusal([["/path/run_id", "path parameter run_id", "%ED%A0%80"]]),
        );
        const refusedArtifact = await admin.get(`/v1/runs/${run.run_id}/artifacts/art_%FF`);
        expect(refusedArtifact.body).toEqual(
          urlRefusal([["/path/artifact_id", "path parameter artifact_id", "%FF"]]),
        );
        const worker = await agent("worker");
        const refusedClaim = await worker.post("/v1/work-items/%C0%AF/claim");
        expect(refusedClaim.body).toEqual(
          urlRefusal([["/path/id", "path parameter id", "%C0%AF"]]),
        );
        // A well-formed escape of a character that is not an id is still just not found.
        expect((await admin.get("/v1/runs/%F0%9F%98%80")).error?.code).toBe("RUN_NOT_FOUND");
      });

      it("query strings: a value (the cursor) and a name, each at its pointer", async () => {
        const { run, admin } = await createRun(service, runInput([taskStage("draft")]));
        const refused = await admin.get(
          `/v1/runs/${run.run_id}/events?after=%FF&limit=2&x%ED%B0%80=1`,
        );
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual(
          urlRefusal([
            ["/after", "query parameter after", "%FF"],
            ["", "name of a query parameter", "%ED%B0%80"],
          ]),
        );
      });

      it("headers that are stored or echoed take visible ASCII only", async () => {
        const { run, admin, agent } = await createRun(service, runInput([taskStage("draft")]));
        const worker = await agent("worker");
        const task = (await worker.claimNext()).body.work_item;
        const failed = await worker.fail(task.id, { attempt: 1, reason: "x" }, "key-\u00ff");
        expect(failed.error?.issues).toEqual([
          { path: "/headers/idempotency-key", message: "1 to 255 visible ASCII characters" },
        ]);
        const resumed = await admin.get(`/v1/runs/${run.run_id}/events`, {
          headers: { Accept: "text/event-stream", "Last-Event-ID": "1\u00ff" },
        });
        expect(resumed.error?.issues).toEqual([
          { path: "/headers/last-event-id", message: "Last-Event-ID must be a whole number ≥ 0." },
        ]);
      });
    });

    describe("well-formed text is kept exactly", () => {
      it("in the run, its events, its work items, its artifacts and reviews", async () => {
        const fixture = await createRun(
          service,
          runInput([taskStage("draft", { background: kept }), reviewStage("review", "draft")], {
            goal: kept,
            constraints: keptTexts,
          }),
        );
        const { run, admin } = fixture;
        expect(run.goal).toBe(kept);
        expect((await admin.getRun(run.run_id)).body).toMatchObject({
          goal: kept,
          constraints: keptTexts,
        });
        const writer = await fixture.agent("writer 😀\u0301");
        const [offer] = (await writer.poll()).body.offers;
        expect(offer?.goal).toBe(kept);
        expect(offer?.constraints).toEqual(keptTexts);
        expect(offer?.stage_context.background).toBe(kept);
        const task = (await writer.claimNext()).body.work_item;
        expect((await writer.fail(task.id, { attempt: 1, reason: kept })).status).toBe(200);
        await writer.claimNext();
        const completion = artifactCompletion(2, kept);
        const written = await writer.complete(task.id, {
          ...completion,
          artifact: { ...completion.artifact, title: keptTexts[4] },
        });
        expect(written.status).toBe(200);
        const critic = await fixture.agent("critic \ufffd");
        const reviewItem = (await critic.claimNext()).body.work_item;
        const [reviewed] = reviewItem.previous_artifacts;
        const artifact = await admin.artifact(run.run_id, reviewed?.artifact_id ?? "");
        expect(artifact.body).toMatchObject({ content: kept, title: keptTexts[4] });
        const review = reviewCompletion(1);
        review.review.summary = kept;
        expect((await critic.complete(reviewItem.id, review)).status).toBe(200);

        const events = await fixture.events();
        expect(ofType(events, "run.created")[0]?.goal).toBe(kept);
        expect(ofType(events, "work_item.failed")[0]?.reason).toBe(kept);
        expect(ofType(events, "work_item.leased")[0]?.agent_tag).toBe("writer 😀\u0301");
        expect(ofType(events, "review.feedback")[0]?.feedback.summary).toBe(kept);
      });

      it("any well-formed string (property): the run and its run.created event keep it", async () => {
        const admin = new Client(service, service.adminToken);
        await fc.assert(
          fc.asyncProperty(
            fc.string({ unit: "binary", minLength: 1, maxLength: 40 }),
            async (goal) => {
              const created = await admin.createRun(runInput([taskStage("draft")], { goal }));
              expect(created.status, created.text).toBe(201);
              const runId = created.body.run_id;
              expect((await admin.getRun(runId)).body.goal).toBe(goal);
              const [first] = (await admin.events(runId)).body.events;
              expect(first).toMatchObject({ type: "run.created", goal });
            },
          ),
          { numRuns: 25 },
        );
      });

      it("any lone surrogate inserted into well-formed text (property): refused at its index", async () => {
        const admin = new Client(service, service.adminToken);
        const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff });
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), { maxLength: 20 }),
            fc.nat(),
            loneSurrogate,
            async (codePoints, at, unit) => {
              const index = at % (codePoints.length + 1);
              const head = codePoints.slice(0, index).join("");
              const goal = `${head}${String.fromCharCode(unit)}${codePoints.slice(index).join("")}`;
              const refused = await admin.createRun(runInput([taskStage("draft")], { goal }));
              expect(refused.body).toEqual(
                refusal("request body", [
                  loneString("/goal", unit.toString(16).toUpperCase(), head.length),
                ]),
              );
            },
          ),
          { numRuns: 25 },
        );
      });
    });
  });
}
