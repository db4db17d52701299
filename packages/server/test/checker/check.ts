// The checker, in the spirit of Jepsen's total-queue checker: from the history of operations
// (what each client sent and what it was answered, or that it got no answer) and the final state
// (the run, its event stream as JSON pages and as an SSE client received it, its artifacts), it
// proves that every work item was completed exactly once — none lost, none duplicated — that no
// completion of a stale attempt was accepted, and that replaying the stream yields the final
// state. Pure: no I/O, no test framework.

import type { RunView } from "@task-context/contract";
import type { CollaborationEvent } from "@task-context/protocols";
import { validate } from "@task-context/protocols";
import type { Action, FinalState, History, Intent, Operation } from "./history.ts";

/** What the checker found. */
export interface CheckResult {
  /** No problem at all. */
  valid: boolean;
  /** Every violation, as a sentence (the first 100). */
  problems: string[];
  /** How many problems there were in all. */
  problemCount: number;
  items: { task: number; review: number };
  /** Items with exactly one completion. */
  completedOnce: number;
  /** Items never completed, and acknowledged completions missing from the stream. */
  lost: number;
  /** Items completed more than once (in the stream, or acknowledged under two events). */
  duplicated: number;
  /** Completions, heartbeats and failures accepted for an attempt that was no longer current. */
  staleAccepted: number;
  /** Completion requests answered 200 (replays of an idempotent request included). */
  acknowledged: number;
  /** Operations that got no answer (the server died under them). */
  unknown: number;
  faults: {
    crashes: number;
    /** Crashed leases whose item was claimed again. */
    redelivered: number;
    failed: number;
    expired: number;
    deadLettered: number;
    requeued: number;
    /** Stale completions (intent "stale") refused. */
    staleRefused: number;
    /** Duplicate completions sent, by kind, each answered as the contract says. */
    duplicates: Record<"same-key" | "other-key" | "other-body" | "late", number>;
    restarts: Record<"SIGKILL" | "SIGTERM", number>;
  };
  /**
   * The server errors that were tolerated: answers the agents got (`"500 INTERNAL_ERROR"`), and
   * errors the servers logged, by code (`"57P01"`), each with how many times.
   */
  errors: { answered: Record<string, number>; logged: Record<string, number> };
  /** Per crash: milliseconds from the crash to the next claim of its item (client clock). */
  redeliveryMs: number[];
  /**
   * Per expiry while the server ran: milliseconds from the lease's expiry (its claim's, or its
   * last heartbeat's) to its lease_expired event, when it is back on offer (server clock).
   */
  expiryLagMs: number[];
  /** The same, for leases that expired while the server was down (it finds them on restart). */
  expiryLagWhileDownMs: number[];
}

/** How many items the run was created with. */
export interface Expected {
  taskItems: number;
  reviewItems: number;
}

/**
 * The server errors a fault of the database may cause, which are then not problems. Without
 * them, any 5xx answer and anything the servers wrote to stderr is a problem.
 */
export interface Tolerated {
  /**
   * Answers such as `"500 INTERNAL_ERROR"`: taken as no answer at all (the operation may or may
   * not have happened, so the client sends it again), and counted.
   */
  answers?: readonly string[];
  /**
   * Codes of the errors the servers may log (`"57P01"`, `"CONNECTION_CLOSED"`, …), each counted;
   * any other entry of their stderr is still a problem.
   */
  logged?: readonly string[];
}

type ItemStatus = "offered" | "leased" | "between" | "requeued" | "completed" | "dead_lettered";

/** One work item as the stream tells it. */
interface ItemState {
  id: string;
  stageId: string;
  kind: "task" | "review";
  status: ItemStatus;
  /** The last leased attempt (0: never leased). */
  attempt: number;
  holder: string | undefined;
  lastOutcome: "leased" | "expired" | "failed" | undefined;
  expiresAt: Map<number, string>;
  /** Its completions; `stale` when the attempt was not the item's current one. */
  completions: Array<{ attempt: number; agent: string; eventId: string; stale: boolean }>;
  artifacts: string[];
  feedback: Array<{ target: string; reviewer: string; summary: string }>;
}

const allowedAnswers: Record<Action, readonly string[]> = {
  "claim-next": ["200", "204"],
  claim: ["200", "409 NOT_ON_OFFER"],
  heartbeat: ["200", "409 LEASE_LOST", "409 ALREADY_COMPLETED"],
  complete: ["200", "409 LEASE_LOST", "409 ALREADY_COMPLETED", "422 IDEMPOTENCY_KEY_REUSED"],
  fail: ["200", "409 LEASE_LOST", "409 ALREADY_COMPLETED"],
  "dead-letters": ["200"],
  requeue: ["200", "409 NOT_DEAD_LETTERED"],
  run: ["200", "201"],
};

/** The answer each kind of duplicate completion must get. */
const duplicateAnswers: Partial<Record<Intent, string>> = {
  "same-key": "200",
  "other-key": "409 ALREADY_COMPLETED",
  "other-body": "422 IDEMPOTENCY_KEY_REUSED",
  late: "409 ALREADY_COMPLETED",
};

const answerOf = (operation: Operation) =>
  operation.code === undefined ? String(operation.status) : `${operation.status} ${operation.code}`;

const describe = (operation: Operation) =>
  `${operation.process} ${operation.action}${operation.workItemId === undefined ? "" : ` ${operation.workItemId}`}${operation.attempt === undefined ? "" : ` attempt ${operation.attempt}`} (${operation.intent}${operation.retry ? ", retried" : ""}, #${operation.index})`;

/**
 * The entries the servers wrote to stderr: each `unexpected error:` (the Node server's log of an
 * error it answered 500 for, or met in the background) with the rest of its lines, and the code
 * it names (a PostgreSQL SQLSTATE or the driver's code), or none.
 */
export function serverLogEntries(
  stderr: string,
): Array<{ text: string; code: string | undefined }> {
  const entries = stderr
    .split(/^(?=unexpected error:|instance \d+: )/m)
    .filter((entry) => entry.trim() !== "");
  return entries.map((text) => ({
    text,
    code: /^\s*code: '([0-9A-Z_]+)'/m.exec(text)?.[1],
  }));
}

/**
 * Checks a history and the final state; `expected` is what the run was created with, `tolerated`
 * the server errors a fault of the database may cause.
 */
export function check(
  history: History,
  final: FinalState,
  expected: Expected,
  tolerated: Tolerated = {},
): CheckResult {
  const problems: string[] = [];
  let problemCount = 0;
  const problem = (sentence: string) => {
    problemCount += 1;
    if (problems.length < 100) problems.push(sentence);
  };
  const { events } = final;

  // 1. The stream: gap-free seq from 1, valid events, the SSE client got exactly the same.
  events.forEach((event, index) => {
    if (event.seq !== index + 1) problem(`event #${index + 1} has seq ${event.seq}: a gap.`);
    const { valid, issues } = validate("collaboration-event.v1", event);
    if (!valid)
      problem(`event ${event.seq} is not a collaboration-event.v1: ${issues[0]?.message}`);
    if (event.run_id !== final.run.run_id) problem(`event ${event.seq} is of another run.`);
  });
  if (new Set(events.map((event) => event.id)).size !== events.length) {
    problem("two events share an id.");
  }
  if (final.streamed.length !== events.length) {
    problem(
      `the SSE client received ${final.streamed.length} events, the run has ${events.length}.`,
    );
  }
  final.streamed.forEach((frame, index) => {
    const event = events[index];
    if (JSON.stringify(frame.event) !== JSON.stringify(event)) {
      problem(`SSE frame #${index + 1} (seq ${frame.event.seq}) differs from event ${event?.seq}.`);
    }
    if (frame.type !== frame.event.type || frame.lastEventId !== String(frame.event.seq)) {
      problem(`SSE frame #${index + 1} has event: ${frame.type} and id: ${frame.lastEventId}.`);
    }
  });

  // 2. Replay: every event is a legal step of its item; the replay yields the final counts.
  const items = replay(events, final.run, problem);
  const stageCounts = new Map<string, Record<string, number>>();
  for (const item of items.values()) {
    const counts = stageCounts.get(item.stageId) ?? {
      total: 0,
      offered: 0,
      leased: 0,
      completed: 0,
      dead_lettered: 0,
    };
    counts.total = (counts.total ?? 0) + 1;
    counts[item.status] = (counts[item.status] ?? 0) + 1;
    stageCounts.set(item.stageId, counts);
  }
  for (const stage of final.run.stages) {
    const replayed = stageCounts.get(stage.id);
    const keys = ["total", "offered", "leased", "completed", "dead_lettered"] as const;
    if (keys.some((key) => replayed?.[key] !== stage.counts[key])) {
      problem(
        `stage ${stage.id}: the run counts ${JSON.stringify(stage.counts)}, replaying the stream gives ${JSON.stringify(replayed)}.`,
      );
    }
  }
  if (final.run.status !== "completed" || events.at(-1)?.type !== "run.completed") {
    problem(`the run is ${final.run.status}, its last event ${events.at(-1)?.type}.`);
  }
  const ofKind = (kind: ItemState["kind"]) => [...items.values()].filter((i) => i.kind === kind);
  const taskItems = ofKind("task");
  const reviewItems = ofKind("review");
  if (taskItems.length !== expected.taskItems || reviewItems.length !== expected.reviewItems) {
    problem(
      `the stream has ${taskItems.length} task and ${reviewItems.length} review items; expected ${expected.taskItems} and ${expected.reviewItems}.`,
    );
  }

  // 3. Exactly once, in the stream.
  let lost = 0;
  let duplicated = 0;
  let staleAccepted = 0;
  for (const item of items.values()) {
    if (item.completions.length === 0) {
      lost += 1;
      problem(`work item ${item.id} was never completed (it is ${item.status}).`);
    }
    if (item.completions.length > 1) {
      duplicated += 1;
      problem(`work item ${item.id} was completed ${item.completions.length} times.`);
    }
  }
  for (const item of items.values()) {
    staleAccepted += item.completions.filter((completion) => completion.stale).length;
  }

  // 4. The history against the stream. A tolerated server error is as if no answer had come.
  const answered: Record<string, number> = {};
  const isTolerated = (operation: Operation) => {
    if (typeof operation.status !== "number" || operation.status < 500) return false;
    return tolerated.answers?.includes(answerOf(operation)) === true;
  };
  const operations = history.operations;
  const okClaims = new Map<string, Array<{ attempt: number; end: number }>>();
  for (const operation of operations) {
    if (isTolerated(operation)) {
      answered[answerOf(operation)] = (answered[answerOf(operation)] ?? 0) + 1;
    } else if (typeof operation.status === "number" && operation.status >= 500) {
      problem(`${describe(operation)} was answered ${answerOf(operation)}.`);
    } else if (
      operation.status !== "unknown" &&
      !allowedAnswers[operation.action].includes(answerOf(operation))
    ) {
      problem(`${describe(operation)} was answered ${answerOf(operation)}.`);
    }
    if (
      (operation.action === "claim-next" || operation.action === "claim") &&
      operation.status === 200
    ) {
      const { work_item, lease } = operation.body as {
        work_item: { id: string };
        lease: { attempt: number };
      };
      const claims = okClaims.get(work_item.id) ?? [];
      claims.push({ attempt: lease.attempt, end: operation.end });
      okClaims.set(work_item.id, claims);
    }
  }
  // No heartbeat, completion or failure of an attempt is accepted after a later attempt's claim
  // was answered (real-time order: the claim's answer came before the request was sent).
  for (const operation of operations) {
    if (!["heartbeat", "complete", "fail"].includes(operation.action) || operation.status !== 200) {
      continue;
    }
    const later = (okClaims.get(operation.workItemId ?? "") ?? []).filter(
      (claim) => claim.attempt > (operation.attempt ?? 0) && claim.end < operation.start,
    );
    if (later.length > 0) {
      staleAccepted += 1;
      problem(
        `${describe(operation)} was accepted after attempt ${later[0]?.attempt} had been claimed.`,
      );
    }
  }
  const completions = operations.filter((operation) => operation.action === "complete");
  const acknowledged = completions.filter((operation) => operation.status === 200);
  const eventIdsOf = new Map<string, Set<string>>();
  for (const operation of acknowledged) {
    const answer = operation.body as { work_item_id: string; event_id: string };
    const item = items.get(operation.workItemId ?? "");
    const accepted = item?.completions.find((entry) => entry.eventId === answer.event_id);
    if (answer.work_item_id !== operation.workItemId || accepted === undefined) {
      lost += 1;
      problem(
        `${describe(operation)} was acknowledged (event ${answer.event_id}), but the stream has no such completion.`,
      );
    } else if (accepted.attempt !== operation.attempt || accepted.agent !== operation.process) {
      problem(
        `${describe(operation)} was acknowledged as the completion of attempt ${accepted.attempt} by ${accepted.agent}.`,
      );
    }
    const ids = eventIdsOf.get(answer.work_item_id) ?? new Set<string>();
    ids.add(answer.event_id);
    eventIdsOf.set(answer.work_item_id, ids);
  }
  for (const [id, ids] of eventIdsOf) {
    if (ids.size > 1) {
      duplicated += 1;
      problem(`work item ${id} was acknowledged as completed by ${ids.size} different events.`);
    }
  }
  // Idempotency: one key, one answer; every duplicate got the answer the contract gives it.
  const firstAnswer = new Map<string, string>();
  for (const operation of acknowledged) {
    const key = `${operation.process} ${operation.idempotencyKey}`;
    const body = JSON.stringify(operation.body);
    const first = firstAnswer.get(key);
    if (first === undefined) firstAnswer.set(key, body);
    else if (first !== body) problem(`${describe(operation)} got another answer for the same key.`);
  }
  const duplicates = { "same-key": 0, "other-key": 0, "other-body": 0, late: 0 };
  let staleRefused = 0;
  for (const operation of completions) {
    if (operation.status === "unknown" || isTolerated(operation)) continue;
    const wanted = duplicateAnswers[operation.intent];
    if (wanted !== undefined) {
      duplicates[operation.intent as keyof typeof duplicates] += 1;
      if (answerOf(operation) !== wanted) {
        problem(`${describe(operation)} was answered ${answerOf(operation)}, not ${wanted}.`);
      }
    }
    if (operation.intent === "stale" && operation.status === 409) staleRefused += 1;
  }

  // 5. Artifacts and reviews: one per completed item, each the accepted completion's.
  const artifactsById = new Map(final.artifacts.map((artifact) => [artifact.id, artifact]));
  if (final.artifacts.length !== taskItems.length || artifactsById.size !== taskItems.length) {
    problem(`${final.artifacts.length} artifacts for ${taskItems.length} task items.`);
  }
  const reviewed = new Map<string, number>();
  for (const item of items.values()) {
    const [completion] = item.completions;
    if (completion === undefined) continue;
    const content = `${item.id}|${completion.attempt}|${completion.agent}`;
    if (item.kind === "task") {
      const artifact = artifactsById.get(item.artifacts[0] ?? "");
      if (item.artifacts.length !== 1 || artifact === undefined) {
        problem(`task item ${item.id} has ${item.artifacts.length} artifacts.`);
      } else if (
        artifact.work_item_id !== item.id ||
        artifact.content !== content ||
        artifact.author_tag !== completion.agent
      ) {
        problem(
          `the artifact of ${item.id} is "${artifact.content}" by ${artifact.author_tag}, not the accepted completion's "${content}".`,
        );
      }
    } else {
      const [feedback] = item.feedback;
      if (item.feedback.length !== 1 || feedback === undefined || feedback.summary !== content) {
        problem(
          `review item ${item.id} has ${item.feedback.length} feedbacks, not the accepted completion's.`,
        );
      } else {
        reviewed.set(feedback.target, (reviewed.get(feedback.target) ?? 0) + 1);
        const author = artifactsById.get(feedback.target)?.author_tag;
        if (author === undefined || author === feedback.reviewer) {
          problem(
            `review item ${item.id} reviews ${feedback.target} by ${author}, reviewed by ${feedback.reviewer}.`,
          );
        }
      }
    }
  }
  if (reviewItems.length > 0) {
    for (const artifact of final.artifacts) {
      if (reviewed.get(artifact.id) !== 1) {
        problem(`artifact ${artifact.id} was reviewed ${reviewed.get(artifact.id) ?? 0} times.`);
      }
    }
  }

  // 6. Nothing left behind; every crashed lease delivered again; expiry never early.
  if (final.deadLetters.length > 0)
    problem(`${final.deadLetters.length} items are still dead-lettered.`);
  const logged: Record<string, number> = {};
  for (const entry of serverLogEntries(final.serverErrors)) {
    if (entry.code !== undefined && tolerated.logged?.includes(entry.code) === true) {
      logged[entry.code] = (logged[entry.code] ?? 0) + 1;
    } else {
      problem(`the server wrote to stderr: ${entry.text.slice(0, 500)}`);
    }
  }
  const redeliveryMs: number[] = [];
  /** Crashed leases claimed again for an A2A agent (in the stream only, so not timed). */
  let redeliveredToA2a = 0;
  for (const crash of history.crashes) {
    const next = (okClaims.get(crash.workItemId) ?? [])
      .filter((claim) => claim.attempt > crash.attempt)
      .sort((a, b) => a.end - b.end)[0];
    // A claim the service made for an A2A agent is not in the history: the stream has it.
    const leasedAgain = final.events.some(
      (event) =>
        event.type === "work_item.leased" &&
        event.work_item_id === crash.workItemId &&
        event.attempt > crash.attempt,
    );
    if (next !== undefined) redeliveryMs.push(next.end - crash.at);
    else if (leasedAgain) redeliveredToA2a += 1;
    else
      problem(
        `the lease ${crash.process} crashed with (${crash.workItemId}) was never claimed again.`,
      );
  }
  // A lease expires at its claim's expires_at, or at the last one a heartbeat was answered with.
  const expiryLagMs: number[] = [];
  const expiryLagWhileDownMs: number[] = [];
  const leases = new Map<string, number>();
  const extend = (key: string, expiresAt: string) =>
    leases.set(key, Math.max(leases.get(key) ?? 0, Date.parse(expiresAt)));
  for (const operation of operations) {
    if (operation.action === "heartbeat" && operation.status === 200) {
      const { expires_at } = operation.body as { expires_at: string };
      extend(`${operation.workItemId} ${operation.attempt}`, expires_at);
    }
  }
  for (const event of events) {
    if (event.type === "work_item.leased") {
      extend(`${event.work_item_id} ${event.attempt}`, event.expires_at);
    }
    if (event.type === "work_item.lease_expired") {
      const expiresAt = leases.get(`${event.work_item_id} ${event.attempt}`);
      const lag = Date.parse(event.at) - (expiresAt ?? Date.parse(event.at));
      if (lag < 0) {
        problem(`lease ${event.work_item_id} attempt ${event.attempt} expired ${-lag} ms early.`);
      }
      const expired = Date.parse(event.at) - lag;
      const down = history.restarts.some(
        (restart) => expired >= restart.killedAtEpoch && expired <= restart.upAtEpoch,
      );
      (down ? expiryLagWhileDownMs : expiryLagMs).push(lag);
    }
  }

  const count = (type: CollaborationEvent["type"]) => events.filter((e) => e.type === type).length;
  return {
    valid: problemCount === 0,
    problems,
    problemCount,
    items: { task: taskItems.length, review: reviewItems.length },
    completedOnce: [...items.values()].filter((item) => item.completions.length === 1).length,
    lost,
    duplicated,
    staleAccepted,
    acknowledged: acknowledged.length,
    unknown: operations.filter((operation) => operation.status === "unknown").length,
    errors: { answered, logged },
    faults: {
      crashes: history.crashes.length,
      redelivered: redeliveryMs.length + redeliveredToA2a,
      failed: count("work_item.failed"),
      expired: count("work_item.lease_expired"),
      deadLettered: count("work_item.dead_lettered"),
      requeued: count("work_item.requeued"),
      staleRefused,
      duplicates,
      restarts: {
        SIGKILL: history.restarts.filter((restart) => restart.signal === "SIGKILL").length,
        SIGTERM: history.restarts.filter((restart) => restart.signal === "SIGTERM").length,
      },
    },
    redeliveryMs,
    expiryLagMs,
    expiryLagWhileDownMs,
  };
}

/** Replays the stream item by item; every illegal step is a problem. */
function replay(
  events: readonly CollaborationEvent[],
  run: RunView,
  problem: (sentence: string) => void,
): Map<string, ItemState> {
  const items = new Map<string, ItemState>();
  const stageOrder = run.stages.map((stage) => stage.id);
  let currentStage = 0;
  const completedStages = new Set<string>();
  let blocked = false;
  const itemOf = (event: CollaborationEvent & { work_item_id: string }) => {
    const item = items.get(event.work_item_id);
    if (item === undefined) problem(`event ${event.seq} (${event.type}) is about an unknown item.`);
    return item;
  };
  const expect = (ok: boolean, event: CollaborationEvent, item: ItemState | undefined) => {
    if (!ok) {
      problem(
        `event ${event.seq} (${event.type}${"attempt" in event ? ` attempt ${event.attempt}` : ""}) cannot follow: ${item === undefined ? "no item" : `${item.id} is ${item.status}, last attempt ${item.attempt} by ${item.holder}`}.`,
      );
    }
    return ok;
  };
  for (const event of events) {
    switch (event.type) {
      case "run.created":
        expect(event.seq === 1, event, undefined);
        break;
      case "work_item.offered": {
        const item = items.get(event.work_item_id);
        if (item === undefined) {
          expect(event.attempt === 1 && event.stage_id === stageOrder[currentStage], event, item);
          items.set(event.work_item_id, {
            id: event.work_item_id,
            stageId: event.stage_id,
            kind: event.kind,
            status: "offered",
            attempt: 0,
            holder: undefined,
            lastOutcome: undefined,
            expiresAt: new Map(),
            completions: [],
            artifacts: [],
            feedback: [],
          });
        } else if (
          expect(
            (item.status === "between" || item.status === "requeued") &&
              event.attempt === item.attempt + 1,
            event,
            item,
          )
        ) {
          item.status = "offered";
        }
        break;
      }
      case "work_item.leased": {
        const item = itemOf(event);
        if (
          item !== undefined &&
          expect(item.status === "offered" && event.attempt === item.attempt + 1, event, item)
        ) {
          Object.assign(item, {
            status: "leased",
            attempt: event.attempt,
            holder: event.agent_tag,
            lastOutcome: "leased",
          });
          item.expiresAt.set(event.attempt, event.expires_at);
        }
        break;
      }
      case "work_item.lease_expired":
      case "work_item.failed": {
        const item = itemOf(event);
        if (
          item !== undefined &&
          expect(
            item.status === "leased" &&
              event.attempt === item.attempt &&
              event.agent_tag === item.holder,
            event,
            item,
          )
        ) {
          item.status = "between";
          item.lastOutcome = event.type === "work_item.failed" ? "failed" : "expired";
        }
        break;
      }
      case "work_item.dead_lettered": {
        const item = itemOf(event);
        if (item !== undefined && expect(item.status === "between", event, item)) {
          item.status = "dead_lettered";
        }
        break;
      }
      case "work_item.requeued": {
        const item = itemOf(event);
        if (
          item !== undefined &&
          expect(item.status === "dead_lettered" && event.attempt === item.attempt + 1, event, item)
        ) {
          item.status = "requeued";
        }
        break;
      }
      case "context.stale": {
        // Part of a completion's transaction: the item is not completed yet, and the two hashes differ.
        const item = itemOf(event);
        if (item !== undefined) {
          expect(
            item.status !== "completed" &&
              event.attempt === item.attempt &&
              event.quoted_context_sha256 !== event.context_sha256,
            event,
            item,
          );
        }
        break;
      }
      case "artifact.created": {
        const item = itemOf(event);
        if (
          item !== undefined &&
          expect(item.kind === "task" && item.status !== "completed", event, item)
        ) {
          item.artifacts.push(event.artifact.artifact_id);
        }
        break;
      }
      case "review.feedback": {
        const item = items.get(event.feedback.work_item_id);
        if (
          expect(
            item?.kind === "review" && event.artifact_id === event.feedback.target_artifact_id,
            event,
            item,
          ) &&
          item !== undefined
        ) {
          item.feedback.push({
            target: event.artifact_id,
            reviewer: event.feedback.reviewer_tag,
            summary: event.feedback.summary,
          });
        }
        break;
      }
      case "content.flagged": {
        // Part of a completion's transaction, after its artifact or review: the item is not
        // completed yet, and a flagged artifact is the one the item just created.
        const item = itemOf(event);
        if (item !== undefined) {
          expect(
            item.status !== "completed" &&
              (event.artifact_id === undefined
                ? item.kind === "review"
                : item.artifacts.at(-1) === event.artifact_id) &&
              event.findings.length > 0,
            event,
            item,
          );
        }
        break;
      }
      case "work_item.completed": {
        const item = itemOf(event);
        if (item === undefined) break;
        const wasCompleted = item.status === "completed";
        const current = event.attempt === item.attempt && event.agent_tag === item.holder;
        // An expired lease nobody claimed since may still complete (the contract's rule).
        const lateButLast =
          (item.status === "offered" || item.status === "dead_lettered") &&
          item.lastOutcome === "expired";
        const stale = !wasCompleted && !(current && (item.status === "leased" || lateButLast));
        if (stale) expect(false, event, item);
        item.completions.push({
          attempt: event.attempt,
          agent: event.agent_tag,
          eventId: event.id,
          stale,
        });
        item.status = "completed";
        break;
      }
      case "stage.completed": {
        const open = [...items.values()].filter(
          (item) => item.stageId === event.stage_id && item.status !== "completed",
        );
        expect(
          event.stage_id === stageOrder[currentStage] &&
            open.length === 0 &&
            !completedStages.has(event.stage_id),
          event,
          open[0],
        );
        completedStages.add(event.stage_id);
        currentStage += 1;
        break;
      }
      case "run.completed":
        expect(completedStages.size === stageOrder.length, event, undefined);
        break;
      case "run.blocked":
      case "run.resumed": {
        const deadLettered = [...items.values()].some((item) => item.status === "dead_lettered");
        const nowBlocked = event.type === "run.blocked";
        expect(
          nowBlocked === deadLettered && nowBlocked !== blocked,
          event,
          items.get(event.work_item_id),
        );
        blocked = nowBlocked;
        break;
      }
    }
  }
  for (const item of items.values()) {
    if (item.status === "between" || item.status === "requeued") {
      problem(`work item ${item.id} was left ${item.status} by the stream.`);
    }
  }
  return items;
}
