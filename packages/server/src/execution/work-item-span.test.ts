import { recordSpans, type SpanRecorder } from "@task-context/trace-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Receipt } from "../delivery/receipt.ts";
import { describeReceipt, traceWorkItem } from "./work-item-span.ts";

const CURRENT = "a".repeat(64);
const QUOTED = "b".repeat(64);

let recorder: SpanRecorder;
beforeEach(() => {
  recorder = recordSpans();
});
afterEach(async () => {
  await recorder.stop();
});

/** The attributes a completion's span ends with when its answer carries `receipt`. */
async function attributesOf(receipt: Receipt | undefined): Promise<Record<string, unknown>> {
  const agent = { agent_id: "agt_1", tag: "writer" };
  await traceWorkItem(
    "complete work_item",
    "run_1",
    agent,
    "wi_1",
    async () => ({ receipt }),
    (span, answer) => describeReceipt(span, answer.receipt),
  );
  const [record] = recorder.records();
  return record?.attributes ?? {};
}

const common = {
  "task_context.run.id": "run_1",
  "gen_ai.agent.id": "agt_1",
  "task_context.recipient.kind": "work-item",
  "task_context.recipient.id": "wi_1",
  "task_context.outcome": "success",
};

describe("describeReceipt", () => {
  it("records a current receipt: the hash quoted, not stale", async () => {
    expect(await attributesOf({ status: "current", quoted: CURRENT, current: CURRENT })).toEqual({
      ...common,
      "task_context.context.quoted_sha256": CURRENT,
      "task_context.context.stale": false,
    });
  });

  it("records a stale receipt: the hash quoted, stale", async () => {
    expect(await attributesOf({ status: "stale", quoted: QUOTED, current: CURRENT })).toEqual({
      ...common,
      "task_context.context.quoted_sha256": QUOTED,
      "task_context.context.stale": true,
    });
  });

  it("records nothing of a receipt that quotes none, nor of an answer without one", async () => {
    expect(await attributesOf({ status: "none", current: CURRENT })).toEqual(common);
    await recorder.stop();
    recorder = recordSpans();
    expect(await attributesOf(undefined)).toEqual(common);
  });
});
