import type { CompletionView } from "@task-context/contract";
import { describe, expect, it } from "vitest";
import { checkCompletionReceipt, type Receipt, warnOfReceipt } from "./receipt.ts";

const CURRENT = "ca567bc28f281aa1ae0c759b5431ab7fbdb46586b393b66c8b9578c09819d207";
const QUOTED = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";
const STALE = `Stale context: agent "writer" on work item wi_1 worked from context sha256 2c26b46b68ff…, but the current context is sha256 ca567bc28f28…; check its result against the current context.`;
const CONTENT = "Artifact art_1 holds 1 passage that poses as instructions.";

const view: CompletionView = {
  work_item_id: "wi_1",
  status: "completed",
  artifact_id: "art_1",
  event_id: "evt_1",
};
const stale: Receipt = { status: "stale", quoted: QUOTED, current: CURRENT };

describe("checkCompletionReceipt", () => {
  it("types core's check: current, stale, and none when nothing is quoted", () => {
    const check = (quoted: string | undefined) =>
      checkCompletionReceipt({ quoted, current: CURRENT, agentTag: "writer", workItemId: "wi_1" });
    expect(check(CURRENT)).toEqual({ status: "current", quoted: CURRENT, current: CURRENT });
    expect(check(QUOTED)).toEqual(stale);
    expect(check(undefined)).toEqual({ status: "none", current: CURRENT });
  });
});

describe("warnOfReceipt, the completion's edge", () => {
  it("words a stale receipt as today's warning, the answer's last field", () => {
    expect(JSON.stringify(warnOfReceipt(view, stale, "writer"))).toBe(
      JSON.stringify({ ...view, warning: STALE }),
    );
  });

  it("puts the stale sentence before the content's, joined by a space, in the warning's place", () => {
    const flagged = { ...view, warning: CONTENT };
    expect(JSON.stringify(warnOfReceipt(flagged, stale, "writer"))).toBe(
      JSON.stringify({ ...view, warning: `${STALE} ${CONTENT}` }),
    );
  });

  it("leaves the view as it is for a current receipt, none, and no receipt", () => {
    const flagged = { ...view, warning: CONTENT };
    for (const receipt of [
      { status: "current", quoted: CURRENT, current: CURRENT },
      { status: "none", current: CURRENT },
      undefined,
    ] satisfies (Receipt | undefined)[]) {
      expect(warnOfReceipt(view, receipt, "writer")).toBe(view);
      expect(warnOfReceipt(flagged, receipt, "writer")).toBe(flagged);
    }
  });
});
