import { describe, expect, it } from "vitest";
import type { AgentIdentity } from "./delivery-store.ts";
import {
  afterFailedAttempt,
  claimRefusal,
  completionKindIssues,
  completionRefusal,
  type ItemState,
  liveLeaseRefusal,
  reviewIssues,
  runStatusFor,
  shownAttempt,
} from "./rules.ts";

const ada: AgentIdentity = { agent_id: "agt_ada", tag: "ada" };
const bob: AgentIdentity = { agent_id: "agt_bob", tag: "bob" };

const item = (fields: Partial<ItemState> = {}): ItemState => ({
  id: "wi_1",
  kind: "task",
  status: "leased",
  attempt: 2,
  failures: 1,
  holder_id: ada.agent_id,
  target_artifact_id: null,
  target_author_id: null,
  ...fields,
});

const refusal = (error: { code: string; message: string } | undefined) =>
  error === undefined ? undefined : `${error.code}: ${error.message}`;

describe("the delivery rules", () => {
  describe("claimRefusal", () => {
    it("lets anyone claim an item on offer, except the author of the artifact it reviews", () => {
      expect(claimRefusal(item({ status: "offered" }), bob)).toBeUndefined();
      const review = item({
        status: "offered",
        kind: "review",
        target_artifact_id: "art_1",
        target_author_id: bob.agent_id,
      });
      expect(claimRefusal(review, ada)).toBeUndefined();
      expect(refusal(claimRefusal(review, bob))).toBe(
        "SELF_REVIEW: Work item wi_1 reviews your own artifact art_1: another agent must review it. Claim another item.",
      );
    });

    it("says why an item is not on offer", () => {
      expect(refusal(claimRefusal(item(), bob))).toBe(
        "NOT_ON_OFFER: Work item wi_1 is not on offer: another agent holds its lease. Poll the inbox for items you can claim.",
      );
      expect(refusal(claimRefusal(item({ status: "completed" }), bob))).toContain(
        "not on offer: it is completed.",
      );
      expect(refusal(claimRefusal(item({ status: "dead_lettered" }), bob))).toContain(
        "it is dead-lettered (an admin can requeue it)",
      );
    });
  });

  describe("liveLeaseRefusal (heartbeat, fail)", () => {
    it("accepts the current attempt from its holder while leased, and nothing else", () => {
      expect(liveLeaseRefusal(item(), ada, 2)).toBeUndefined();
      expect(refusal(liveLeaseRefusal(item(), ada, 1))).toBe(
        "LEASE_LOST: Attempt 1 of work item wi_1 is no longer current (its current attempt is 2). Stop working on it and poll the inbox.",
      );
      expect(refusal(liveLeaseRefusal(item(), bob, 2))).toBe(
        "LEASE_LOST: Attempt 2 of work item wi_1 is no longer current (another agent holds it). Stop working on it and poll the inbox.",
      );
      expect(refusal(liveLeaseRefusal(item({ status: "offered" }), ada, 2))).toBe(
        "LEASE_LOST: Attempt 2 of work item wi_1 is no longer current (its lease expired; the item is offered). Stop working on it and poll the inbox.",
      );
      expect(refusal(liveLeaseRefusal(item({ status: "offered", attempt: 0 }), ada, 1))).toContain(
        "(nobody has claimed it yet; the item is offered)",
      );
    });

    it("refuses a completed item as completed", () => {
      expect(refusal(liveLeaseRefusal(item({ status: "completed" }), ada, 2))).toBe(
        "ALREADY_COMPLETED: Work item wi_1 is already completed. Poll the inbox for more work.",
      );
    });
  });

  describe("completionRefusal", () => {
    it("accepts the current attempt from its holder: leased, or expired with nobody else since", () => {
      expect(completionRefusal(item(), ada, 2, undefined)).toBeUndefined();
      expect(completionRefusal(item({ status: "offered" }), ada, 2, "expired")).toBeUndefined();
      expect(
        completionRefusal(item({ status: "dead_lettered" }), ada, 2, "expired"),
      ).toBeUndefined();
    });

    it("refuses a stale attempt, another agent's attempt, a failed one and a second completion", () => {
      expect(completionRefusal(item(), ada, 1, undefined)?.code).toBe("LEASE_LOST");
      expect(completionRefusal(item(), bob, 2, undefined)?.code).toBe("LEASE_LOST");
      expect(completionRefusal(item({ status: "offered" }), ada, 2, "failed")?.code).toBe(
        "LEASE_LOST",
      );
      expect(refusal(completionRefusal(item({ status: "completed" }), ada, 2, "completed"))).toBe(
        "ALREADY_COMPLETED: Work item wi_1 is already completed; a second completion is refused. Poll the inbox for more work.",
      );
    });
  });

  describe("completionKindIssues", () => {
    const artifact = { media_type: "text/plain", content: "x" };
    const review = { verdict: "approve" as const, summary: "ok", criteria: [] };

    it("wants an artifact for a task item and a review for a review item, never both", () => {
      expect(completionKindIssues(item(), { attempt: 2, artifact })).toEqual([]);
      expect(completionKindIssues(item({ kind: "review" }), { attempt: 2, review })).toEqual([]);
      expect(completionKindIssues(item(), { attempt: 2, review })).toEqual([
        {
          path: "/review",
          message: "Work item wi_1 is a task item: complete it with an artifact, not a review.",
        },
        {
          path: "/artifact",
          message:
            "artifact is required for a task item: { media_type, content, title? }, what the stage asked for.",
        },
      ]);
      expect(completionKindIssues(item({ kind: "review" }), { attempt: 2 })).toEqual([
        {
          path: "/review",
          message:
            "review is required for a review item: { verdict, summary, criteria: [{ criterion, comment, score? }] }.",
        },
      ]);
    });
  });

  describe("reviewIssues", () => {
    const judged = (...criteria: string[]) =>
      criteria.map((criterion) => ({ criterion, comment: "fine" }));

    it("accepts a review of the item's artifact that judges each criterion once", () => {
      const review = {
        verdict: "approve" as const,
        summary: "s",
        criteria: judged("logic", "tone"),
      };
      expect(reviewIssues("art_1", ["logic", "tone"], review)).toEqual([]);
      expect(
        reviewIssues("art_1", ["logic", "tone"], { ...review, target_artifact_id: "art_1" }),
      ).toEqual([]);
    });

    it("names another artifact, an unknown criterion, a criterion judged twice and one missing", () => {
      const review = {
        verdict: "request_changes" as const,
        summary: "s",
        target_artifact_id: "art_2",
        criteria: judged("logic", "style", "logic"),
      };
      expect(reviewIssues("art_1", ["logic", "tone"], review)).toEqual([
        {
          path: "/review/target_artifact_id",
          message:
            "review.target_artifact_id must be art_1, the artifact this item reviews, not art_2.",
        },
        {
          path: "/review/criteria/1/criterion",
          message:
            'review.criteria[1].criterion "style" is not a criterion of this review. The criteria are: logic, tone.',
        },
        {
          path: "/review/criteria/2/criterion",
          message:
            'review.criteria[2].criterion "logic" is judged twice. Give one entry per criterion.',
        },
        {
          path: "/review/criteria",
          message:
            'review.criteria has no entry for "tone". Give one entry per criterion of the review context.',
        },
      ]);
    });
  });

  it("afterFailedAttempt: back on offer while the budget lasts, then a dead letter", () => {
    expect(afterFailedAttempt(1, 3)).toBe("offered");
    expect(afterFailedAttempt(2, 3)).toBe("offered");
    expect(afterFailedAttempt(3, 3)).toBe("dead_lettered");
    expect(afterFailedAttempt(1, 1)).toBe("dead_lettered");
  });

  it("runStatusFor: blocked while any item is dead-lettered", () => {
    expect(runStatusFor(0)).toBe("active");
    expect(runStatusFor(2)).toBe("blocked");
  });

  it("shownAttempt: on offer, the attempt a claim starts; else the current (or last) one", () => {
    expect(shownAttempt({ status: "offered", attempt: 0 })).toBe(1);
    expect(shownAttempt({ status: "offered", attempt: 2 })).toBe(3);
    expect(shownAttempt({ status: "leased", attempt: 2 })).toBe(2);
    expect(shownAttempt({ status: "dead_lettered", attempt: 0 })).toBe(1);
  });
});
