// The checker itself: it accepts a correct history and names each anomaly a queue can have —
// lost, duplicated and stale-accepted completions, gaps, a stream that disagrees with the state.

import type { RunView } from "@task-context/contract";
import type { Artifact, CollaborationEvent } from "@task-context/protocols";
import { describe, expect, it } from "vitest";
import { check } from "./check.ts";
import type { FinalState, History, Operation } from "./history.ts";

const runId = "run_checker";
const at = (milliseconds: number) =>
  new Date(Date.UTC(2026, 10, 22, 10, 0, 0) + milliseconds).toISOString();

type EventInput = {
  [Type in CollaborationEvent["type"]]: Omit<
    Extract<CollaborationEvent, { type: Type }>,
    "id" | "seq" | "run_id" | "at"
  >;
}[CollaborationEvent["type"]];

/** Numbers events 1, 2, 3, … at one per millisecond. */
function numbered(inputs: readonly EventInput[]): CollaborationEvent[] {
  return inputs.map(
    (input, index) =>
      ({
        ...input,
        id: `evt_${index + 1}`,
        seq: index + 1,
        run_id: runId,
        at: at(index + 1),
      }) as CollaborationEvent,
  );
}

const artifactReference = (id: string, author: string) => ({
  artifact_id: id,
  stage_id: "work",
  author_tag: author,
  media_type: "text/plain",
  uri: `/v1/runs/${runId}/artifacts/${id}`,
});

/** wi_1 done by agent-a; wi_2 claimed by agent-a, which crashed, then done by agent-b. */
function scenario() {
  const inputs: EventInput[] = [
    { type: "run.created", goal: "Check", stage_ids: ["work"] },
    { type: "work_item.offered", work_item_id: "wi_1", stage_id: "work", kind: "task", attempt: 1 },
    { type: "work_item.offered", work_item_id: "wi_2", stage_id: "work", kind: "task", attempt: 1 },
    {
      type: "work_item.leased",
      work_item_id: "wi_1",
      agent_tag: "agent-a",
      attempt: 1,
      expires_at: at(300),
    },
    {
      type: "artifact.created",
      work_item_id: "wi_1",
      artifact: artifactReference("art_1", "agent-a"),
    },
    { type: "work_item.completed", work_item_id: "wi_1", agent_tag: "agent-a", attempt: 1 },
    {
      type: "work_item.leased",
      work_item_id: "wi_2",
      agent_tag: "agent-a",
      attempt: 1,
      expires_at: at(7),
    },
    { type: "work_item.lease_expired", work_item_id: "wi_2", agent_tag: "agent-a", attempt: 1 },
    { type: "work_item.offered", work_item_id: "wi_2", stage_id: "work", kind: "task", attempt: 2 },
    {
      type: "work_item.leased",
      work_item_id: "wi_2",
      agent_tag: "agent-b",
      attempt: 2,
      expires_at: at(400),
    },
    {
      type: "artifact.created",
      work_item_id: "wi_2",
      artifact: artifactReference("art_2", "agent-b"),
    },
    { type: "work_item.completed", work_item_id: "wi_2", agent_tag: "agent-b", attempt: 2 },
    { type: "stage.completed", stage_id: "work" },
    { type: "run.completed" },
  ];
  const events = numbered(inputs);
  let index = 0;
  const operation = (
    fields: Omit<Operation, "index" | "end" | "intent"> & Partial<Operation>,
  ): Operation => ({
    index: index++,
    intent: "work",
    end: fields.start + 1,
    ...fields,
  });
  const claimed = (item: string, attempt: number) => ({
    work_item: { id: item },
    lease: { attempt, expires_at: at(300) },
  });
  const history: History = {
    operations: [
      operation({
        process: "agent-a",
        action: "claim-next",
        start: 10,
        status: 200,
        body: claimed("wi_1", 1),
      }),
      operation({
        process: "agent-a",
        action: "complete",
        workItemId: "wi_1",
        attempt: 1,
        idempotencyKey: "agent-a-1",
        start: 20,
        status: 200,
        body: {
          work_item_id: "wi_1",
          status: "completed",
          artifact_id: "art_1",
          event_id: "evt_6",
        },
      }),
      operation({
        process: "agent-a",
        action: "claim-next",
        start: 30,
        status: 200,
        body: claimed("wi_2", 1),
      }),
      operation({
        process: "agent-b",
        action: "claim-next",
        start: 40,
        status: 200,
        body: claimed("wi_2", 2),
      }),
      operation({
        process: "agent-b",
        action: "complete",
        workItemId: "wi_2",
        attempt: 2,
        idempotencyKey: "agent-b-1",
        start: 50,
        status: 200,
        body: {
          work_item_id: "wi_2",
          status: "completed",
          artifact_id: "art_2",
          event_id: "evt_12",
        },
      }),
    ],
    crashes: [{ process: "agent-a", workItemId: "wi_2", attempt: 1, at: 31 }],
    restarts: [],
    faults: [],
  };
  const counts = { total: 2, offered: 0, leased: 0, completed: 2, dead_lettered: 0 };
  const run: RunView = {
    run_id: runId,
    status: "completed",
    goal: "Check",
    constraints: [],
    lease_ms: 300,
    max_attempts: 2,
    created_at: at(0),
    stages: [
      {
        id: "work",
        kind: "task",
        stage_description: "Do the work",
        expected_output: "A text",
        available_skills: [],
        items: 2,
        status: "completed",
        counts,
      },
    ],
  };
  const artifact = (id: string, item: string, attempt: number, author: string): Artifact => ({
    id,
    run_id: runId,
    stage_id: "work",
    work_item_id: item,
    author_tag: author,
    media_type: "text/plain",
    content: `${item}|${attempt}|${author}`,
    created_at: at(1),
  });
  const final: FinalState = {
    run,
    events,
    streamed: events.map((event) => ({ type: event.type, lastEventId: String(event.seq), event })),
    artifacts: [artifact("art_1", "wi_1", 1, "agent-a"), artifact("art_2", "wi_2", 2, "agent-b")],
    deadLetters: [],
    serverErrors: "",
  };
  return { history, final, inputs, expected: { taskItems: 2, reviewItems: 0 } };
}

/** The scenario with its events replaced by `inputs`, numbered again. */
function withEvents(base: ReturnType<typeof scenario>, inputs: EventInput[]) {
  const events = numbered(inputs);
  return {
    ...base,
    final: {
      ...base.final,
      events,
      streamed: events.map((event) => ({
        type: event.type,
        lastEventId: String(event.seq),
        event,
      })),
    },
  };
}

describe("check", () => {
  it("accepts a history where every item is completed once, a crashed lease redelivered", () => {
    const { history, final, expected } = scenario();
    const result = check(history, final, expected);
    expect(result.problems).toEqual([]);
    expect(result).toMatchObject({
      valid: true,
      completedOnce: 2,
      lost: 0,
      duplicated: 0,
      staleAccepted: 0,
      acknowledged: 2,
      faults: { crashes: 1, redelivered: 1, expired: 1 },
      redeliveryMs: [10],
      expiryLagMs: [1],
      expiryLagWhileDownMs: [],
    });
  });

  it("counts an acknowledged completion missing from the stream as lost", () => {
    const { history, final, expected } = scenario();
    const answer = history.operations[4]?.body as { event_id: string };
    answer.event_id = "evt_unknown";
    const result = check(history, final, expected);
    expect(result).toMatchObject({ valid: false, lost: 1 });
    expect(result.problems).toEqual([
      "agent-b complete wi_2 attempt 2 (work, #4) was acknowledged (event evt_unknown), but the stream has no such completion.",
    ]);
  });

  it("counts an item the stream never completes as lost, and the replay disagrees with the run", () => {
    const base = scenario();
    const inputs = base.inputs.filter((_, index) => index !== 10 && index !== 11);
    const { history, final, expected } = withEvents(base, inputs);
    history.operations.splice(4, 1);
    final.artifacts.pop();
    const result = check(history, final, expected);
    expect(result).toMatchObject({ valid: false, lost: 1, completedOnce: 1 });
    expect(result.problems).toContain("work item wi_2 was never completed (it is leased).");
    expect(result.problems).toContain(
      'stage work: the run counts {"total":2,"offered":0,"leased":0,"completed":2,"dead_lettered":0}, replaying the stream gives {"total":2,"offered":0,"leased":1,"completed":1,"dead_lettered":0}.',
    );
  });

  it("counts a second completion of an item as duplicated", () => {
    const base = scenario();
    const inputs = [...base.inputs];
    inputs.splice(12, 0, {
      type: "work_item.completed",
      work_item_id: "wi_1",
      agent_tag: "agent-a",
      attempt: 1,
    });
    const { history, final, expected } = withEvents(base, inputs);
    const result = check(history, final, expected);
    expect(result).toMatchObject({ valid: false, duplicated: 1 });
    expect(result.problems).toContain("work item wi_1 was completed 2 times.");
  });

  it("counts two acknowledgements of one item under different events as duplicated", () => {
    const { history, final, expected } = scenario();
    history.operations.push({
      ...(history.operations[1] as Operation),
      index: 5,
      idempotencyKey: "agent-a-2",
      intent: "other-key",
      body: { work_item_id: "wi_1", status: "completed", event_id: "evt_2" },
    });
    const result = check(history, final, expected);
    expect(result.duplicated).toBe(1);
    expect(result.problems).toContain(
      "agent-a complete wi_1 attempt 1 (other-key, #5) was answered 200, not 409 ALREADY_COMPLETED.",
    );
  });

  it("counts a completion of an attempt that was no longer current as stale, in the stream and in real time", () => {
    const base = scenario();
    const inputs = [...base.inputs];
    // agent-a's crashed attempt 1 completes wi_2 after agent-b leased attempt 2.
    inputs.splice(
      10,
      2,
      {
        type: "artifact.created",
        work_item_id: "wi_2",
        artifact: artifactReference("art_2", "agent-a"),
      },
      {
        type: "work_item.completed",
        work_item_id: "wi_2",
        agent_tag: "agent-a",
        attempt: 1,
      },
    );
    const { history, final, expected } = withEvents(base, inputs);
    history.operations[4] = {
      ...(history.operations[4] as Operation),
      process: "agent-a",
      attempt: 1,
      intent: "stale",
    };
    (final.artifacts[1] as Artifact).content = "wi_2|1|agent-a";
    (final.artifacts[1] as Artifact).author_tag = "agent-a";
    const result = check(history, final, expected);
    expect(result).toMatchObject({ valid: false, staleAccepted: 2, lost: 0, duplicated: 0 });
    expect(result.problems).toContain(
      "event 12 (work_item.completed attempt 1) cannot follow: wi_2 is leased, last attempt 2 by agent-b.",
    );
    expect(result.problems).toContain(
      "agent-a complete wi_2 attempt 1 (stale, #4) was accepted after attempt 2 had been claimed.",
    );
  });

  it("finds a gap in seq, and an SSE client that missed or repeated a frame", () => {
    const { history, final, expected } = scenario();
    const gap = check(
      history,
      { ...final, events: final.events.filter((e) => e.seq !== 13) },
      expected,
    );
    expect(gap.problems).toContain("event #13 has seq 14: a gap.");
    const missed = check(
      history,
      { ...final, streamed: final.streamed.filter((_, i) => i !== 3) },
      expected,
    );
    expect(missed.problems).toContain("the SSE client received 13 events, the run has 14.");
    expect(missed.problems).toContain("SSE frame #4 (seq 5) differs from event 4.");
    const repeated = [...final.streamed];
    repeated.splice(3, 0, final.streamed[2] as (typeof repeated)[number]);
    expect(check(history, { ...final, streamed: repeated }, expected).valid).toBe(false);
  });

  it("measures expiry from the last heartbeat's expires_at: a lease it extended may not expire before", () => {
    const { history, final, expected } = scenario();
    history.operations.push({
      index: 5,
      process: "agent-a",
      action: "heartbeat",
      intent: "work",
      workItemId: "wi_2",
      attempt: 1,
      start: 31,
      end: 32,
      status: 200,
      body: { expires_at: at(20) },
    });
    const result = check(history, final, expected);
    expect(result.problems).toEqual(["lease wi_2 attempt 1 expired 12 ms early."]);
    expect(result.expiryLagMs).toEqual([-12]);
  });

  it("counts a lease that expired while the server was down apart", () => {
    const { history, final, expected } = scenario();
    history.restarts.push({
      signal: "SIGKILL",
      killedAt: 32,
      upAt: 35,
      killedAtEpoch: Date.parse(at(5)),
      upAtEpoch: Date.parse(at(8)),
    });
    const result = check(history, final, expected);
    expect(result).toMatchObject({
      valid: true,
      expiryLagMs: [],
      expiryLagWhileDownMs: [1],
      faults: { restarts: { SIGKILL: 1, SIGTERM: 0 } },
    });
  });

  it("finds a crashed lease never delivered again, a lease expired early and a server error", () => {
    const { history, final, expected } = scenario();
    history.crashes.push({ process: "agent-b", workItemId: "wi_1", attempt: 1, at: 60 });
    history.operations.push({
      ...(history.operations[0] as Operation),
      index: 5,
      status: 500,
      code: "INTERNAL_ERROR",
    });
    const events = final.events.map((event) =>
      event.type === "work_item.lease_expired" ? { ...event, at: at(2) } : event,
    );
    const result = check(
      history,
      {
        ...final,
        events,
        streamed: final.streamed.map((frame, i) => ({
          ...frame,
          event: events[i] as CollaborationEvent,
        })),
        serverErrors: "unexpected error: boom",
      },
      expected,
    );
    expect(result.problems).toEqual([
      "agent-a claim-next (work, #5) was answered 500 INTERNAL_ERROR.",
      "the server wrote to stderr: unexpected error: boom",
      "the lease agent-b crashed with (wi_1) was never claimed again.",
      "lease wi_2 attempt 1 expired 5 ms early.",
    ]);
  });
  it("takes a tolerated server error as no answer and counts it, with the codes the servers logged", () => {
    const { history, final, expected } = scenario();
    // agent-b's completion was first answered 500 (the database was away), then sent again.
    history.operations.splice(4, 0, {
      ...(history.operations[4] as Operation),
      status: 500,
      code: "INTERNAL_ERROR",
      body: { error: "The service failed to answer this request.", code: "INTERNAL_ERROR" },
    });
    history.operations.forEach((operation, index) => {
      operation.index = index;
    });
    const serverErrors = [
      "unexpected error: PostgresError: the database system is starting up",
      "    at ErrorResponse (connection.js:817:22) {",
      "  severity: 'FATAL',",
      "  code: '57P03',",
      "}",
      "unexpected error: Error: connect ECONNREFUSED 127.0.0.1:5432",
      "    at TCPConnectWrap.afterConnect [as oncomplete] {",
      "  code: 'ECONNREFUSED',",
      "}",
      "",
    ].join("\n");
    const tolerated = { answers: ["500 INTERNAL_ERROR"], logged: ["57P03", "ECONNREFUSED"] };
    const result = check(history, { ...final, serverErrors }, expected, tolerated);
    expect(result.problems).toEqual([]);
    expect(result.errors).toEqual({
      answered: { "500 INTERNAL_ERROR": 1 },
      logged: { "57P03": 1, ECONNREFUSED: 1 },
    });

    // Not tolerated: each is a problem.
    const strict = check(history, { ...final, serverErrors }, expected, {
      answers: ["503 SERVICE_UNAVAILABLE"],
      logged: ["57P03"],
    });
    expect(strict.problems).toEqual([
      "agent-b complete wi_2 attempt 2 (work, #4) was answered 500 INTERNAL_ERROR.",
      `the server wrote to stderr: ${serverErrors.slice(serverErrors.indexOf("unexpected error: Error"))}`,
    ]);
  });
});
