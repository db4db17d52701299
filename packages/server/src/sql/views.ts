// The read views: runs, work items, artifacts, attempts, dead letters and the run page's overview
// as the contract shows them, with the receipts (context_sha256) of the run contexts.
import { sha256Hex } from "@task-context/core/internal";
import type {
  Artifact,
  ArtifactReference,
  ContentFinding,
  ReviewFeedback,
  TraceContext,
  WorkItem,
} from "@task-context/protocols";
import { type RunContext, renderRunContext } from "@task-context/protocols/work-item";
import type * as Contract from "../contract/schemas.ts";
import { artifactSubject, contentWarning, referenceTitle } from "../delivery/content-findings.ts";
import { DeliveryError } from "../delivery/delivery-error.ts";
import type { RunOverview, WorkItemOverview } from "../delivery/delivery-store.ts";
import { type ItemStatus, itemStatus, shownAttempt } from "../delivery/rules.ts";
import {
  scannedArtifactFindings,
  storedArtifactFindings,
  withFindings,
} from "./artifact-findings.ts";
import { type RunState, stageOf } from "./runs.ts";
import { type ArtifactRow, type AttemptRow, type ItemRow, iso, type RunRow } from "./schema.ts";
import { all, type SqlSteps } from "./sql-steps.ts";

/** Where an artifact's content is fetched: `GET /v1/runs/{run_id}/artifacts/{artifact_id}`. */
export function artifactUri(runId: string, artifactId: string): string {
  return `/v1/runs/${runId}/artifacts/${artifactId}`;
}

/**
 * The reference to an artifact that work items and `artifact.created` events carry: its title
 * neutralised, and a `warning` when the artifact holds findings (see ../delivery/content-findings.ts).
 */
export function artifactReferenceOf(
  runId: string,
  artifact: Pick<ArtifactRow, "id" | "stage_id" | "author_tag" | "title" | "media_type">,
  findings: readonly ContentFinding[],
): ArtifactReference {
  return {
    artifact_id: artifact.id,
    stage_id: artifact.stage_id,
    author_tag: artifact.author_tag,
    ...(artifact.title === null ? {} : { title: referenceTitle(artifact.title) }),
    media_type: artifact.media_type,
    uri: artifactUri(runId, artifact.id),
    ...(findings.length === 0
      ? {}
      : { warning: contentWarning(artifactSubject(artifact.id), findings) }),
  };
}

/**
 * An artifact as the contract shows it: title and content exactly as stored, with `findings` and
 * a `warning` when they hold passages that pose as instructions.
 */
export function artifactOf(runId: string, row: ArtifactRow): Artifact {
  return withFindings(
    {
      id: row.id,
      run_id: runId,
      stage_id: row.stage_id,
      work_item_id: row.work_item_id,
      author_tag: row.author_tag,
      ...(row.title === null ? {} : { title: row.title }),
      media_type: row.media_type,
      content: row.content,
      created_at: iso(row.created_at),
    },
    scannedArtifactFindings(runId, row),
  );
}

/** A run's artifact with its content; `ARTIFACT_NOT_FOUND` for an id the run does not have. */
export function* readArtifact(runId: string, artifactId: string): SqlSteps<Artifact> {
  const [row] = yield* all<ArtifactRow>(
    "SELECT * FROM artifacts WHERE run_id = ? AND id = ?",
    runId,
    artifactId,
  );
  if (row === undefined) {
    throw new DeliveryError({
      code: "ARTIFACT_NOT_FOUND",
      message: `The run has no artifact ${artifactId}. Take artifact ids from work items' previous_artifacts or from artifact.created events.`,
    });
  }
  return artifactOf(runId, row);
}

/** The run as the contract shows it: its stages with their items counted by status. */
export function* runView(state: RunState): SqlSteps<Contract.RunView> {
  const { run } = state;
  const counts = yield* all<{
    stage_position: number;
    status: ItemStatus;
    count: number;
  }>(
    "SELECT stage_position, status, count(*) AS count FROM work_items WHERE run_id = ? GROUP BY stage_position, status",
    run.id,
  );
  return {
    run_id: run.id,
    status: run.status,
    goal: run.goal,
    constraints: JSON.parse(run.constraints) as string[],
    lease_ms: run.lease_ms,
    max_attempts: run.max_attempts,
    created_at: iso(run.created_at),
    stages: state.stages.map(({ position, status, stage }) => {
      const tally = { total: 0, offered: 0, leased: 0, completed: 0, dead_lettered: 0 };
      for (const row of counts) {
        if (row.stage_position !== position) continue;
        tally[row.status] += Number(row.count);
        tally.total += Number(row.count);
      }
      return { ...stage, kind: stage.kind ?? "task", status, counts: tally };
    }),
  };
}

/** What a work item's receipt is the hash of: the run's goal and constraints, its stage's context. */
export function runContextOf(state: RunState, item: ItemRow): RunContext {
  const stage = stageOf(state, item);
  return {
    goal: state.run.goal,
    constraints: JSON.parse(state.run.constraints) as string[],
    stage_context: {
      stage_description: stage.stage_description,
      expected_output: stage.expected_output,
      available_skills: stage.available_skills,
      ...(stage.background === undefined ? {} : { background: stage.background }),
    },
  };
}

/** The trace context a run was created in, as its work items carry it; none when it had none. */
export function traceContextOf(run: RunRow): { trace_context?: TraceContext } {
  return run.trace_context === null || run.trace_context === undefined
    ? {}
    : { trace_context: JSON.parse(run.trace_context) as TraceContext };
}

/**
 * A work item as the contract shows it, with the artifacts of the stages before its own and the
 * trace context of its run.
 */
export function* workItemView(state: RunState, item: ItemRow): SqlSteps<WorkItem> {
  const { run } = state;
  const stage = stageOf(state, item);
  // The first stage has no earlier artifacts to look for.
  const earlier =
    item.stage_position === 0
      ? []
      : yield* all<ArtifactRow>(
          "SELECT id, stage_id, author_tag, title, media_type FROM artifacts WHERE run_id = ? AND stage_position < ? ORDER BY stage_position, seq",
          run.id,
          item.stage_position,
        );
  const previous: ArtifactReference[] = [];
  for (const artifact of earlier) {
    const findings = yield* storedArtifactFindings(run.id, artifact);
    previous.push(artifactReferenceOf(run.id, artifact, findings));
  }
  const fields = {
    id: item.id,
    run_id: run.id,
    stage_id: stage.id,
    ...runContextOf(state, item),
    previous_artifacts: previous,
    available_skills: stage.available_skills,
    attempt: shownAttempt(item),
    ...traceContextOf(run),
  };
  if (item.kind === "task") return { kind: "task", ...fields };
  return {
    kind: "review",
    ...fields,
    review_context: {
      target_artifact_id: item.target_artifact_id ?? "",
      target_author_tag: item.target_author_tag ?? "",
      review_criteria: stage.review_criteria ?? [],
    },
  };
}

/** The receipt of a run context: `(item) => its context_sha256`. */
export type ContextReceipts = (item: RunContext) => Promise<string>;

/**
 * Receipts of run contexts by protocols' `runContextSha256` (`sha256` of `renderRunContext`) — the
 * definition every reader can recompute — remembered by their canonical text for one read, so
 * that the items of a stage, which share one context, are hashed once.
 */
export function contextReceipts(): ContextReceipts {
  const known = new Map<string, Promise<string>>();
  return (item) => {
    const text = renderRunContext(item);
    let receipt = known.get(text);
    if (receipt === undefined) {
      receipt = sha256Hex(text);
      known.set(text, receipt);
    }
    return receipt;
  };
}

/**
 * A work item with its receipt: `context_sha256`, the hash of the run context (goal, constraints,
 * stage context) it was built from.
 */
export async function withContextSha256(
  item: WorkItem,
  receipts: ContextReceipts = contextReceipts(),
): Promise<WorkItem> {
  return { ...item, context_sha256: await receipts(item) };
}

/** A work item's attempts, first to last, as the contract shows them. */
export function* readAttempts(
  runId: string,
  workItemId: string,
): SqlSteps<Contract.AttemptRecord[]> {
  return (yield* all<AttemptRow>(
    "SELECT attempt, agent_tag, leased_at, ended_at, outcome, reason FROM attempts WHERE run_id = ? AND work_item_id = ? ORDER BY attempt",
    runId,
    workItemId,
  )).map(attemptRecord);
}

/** An attempt as the contract shows it. */
export function attemptRecord(row: AttemptRow): Contract.AttemptRecord {
  return {
    attempt: row.attempt,
    agent_tag: row.agent_tag,
    leased_at: iso(row.leased_at),
    ...(row.ended_at === null ? {} : { ended_at: iso(row.ended_at) }),
    outcome: row.outcome,
    ...(row.reason === null ? {} : { reason: row.reason }),
  };
}

/** The run's dead-lettered items with their attempts, oldest first (before `context_sha256`). */
export function* listDeadLetters(state: RunState): SqlSteps<Contract.DeadLetter[]> {
  const runId = state.run.id;
  const letters: Contract.DeadLetter[] = [];
  for (const item of yield* all<ItemRow>(
    `SELECT * FROM work_items WHERE run_id = ? AND status = '${itemStatus.deadLettered}' ORDER BY dead_lettered_at, offered_seq`,
    runId,
  )) {
    letters.push({
      work_item: yield* workItemView(state, item),
      dead_lettered_at: iso(item.dead_lettered_at ?? state.now),
      attempts: yield* readAttempts(runId, item.id),
    });
  }
  return letters;
}

/** What the run page shows, as one transaction reads it: the rows before any hashing. */
export interface OverviewRows {
  /** The run with its stages' counts. */
  run: Contract.RunView;
  /** Every work item: its row, stage, attempt and run context, by stage then offer order. */
  items: Array<{ row: ItemRow; stageId: string; attempt: number; context: RunContext }>;
  /** Each work item's attempts, first to last, by work item id. */
  attempts: Map<string, Contract.AttemptRecord[]>;
  /** Every artifact, by stage then creation order. */
  artifacts: Artifact[];
  /** Every review's feedback, oldest first. */
  reviews: ReviewFeedback[];
}

/** Reads the run, its work items, attempts, artifacts and reviews at one instant. */
export function* readOverviewRows(state: RunState): SqlSteps<OverviewRows> {
  const runId = state.run.id;
  const attempts = new Map<string, Contract.AttemptRecord[]>();
  for (const row of yield* all<AttemptRow & { work_item_id: string }>(
    "SELECT work_item_id, attempt, agent_tag, leased_at, ended_at, outcome, reason FROM attempts WHERE run_id = ? ORDER BY work_item_id, attempt",
    runId,
  )) {
    const list = attempts.get(row.work_item_id) ?? [];
    list.push(attemptRecord(row));
    attempts.set(row.work_item_id, list);
  }
  const items = (yield* all<ItemRow>(
    "SELECT * FROM work_items WHERE run_id = ? ORDER BY stage_position, offered_seq, id",
    runId,
  )).map((row) => ({
    row,
    stageId: stageOf(state, row).id,
    attempt: shownAttempt(row),
    context: runContextOf(state, row),
  }));
  const artifacts = (yield* all<ArtifactRow>(
    "SELECT * FROM artifacts WHERE run_id = ? ORDER BY stage_position, seq",
    runId,
  )).map((row) => artifactOf(runId, row));
  const reviews = (yield* all<{ feedback: string }>(
    "SELECT feedback FROM reviews WHERE run_id = ? ORDER BY created_at, work_item_id",
    runId,
  )).map((row) => JSON.parse(row.feedback) as ReviewFeedback);
  return { run: yield* runView(state), items, attempts, artifacts, reviews };
}

/** The run page's overview of the rows read, each work item with its `context_sha256`. */
export async function runOverview(read: OverviewRows): Promise<RunOverview> {
  const receipts = contextReceipts();
  const workItems = await Promise.all(
    read.items.map(
      async ({ row, stageId, attempt, context }): Promise<WorkItemOverview> => ({
        id: row.id,
        stage_id: stageId,
        kind: row.kind,
        state: row.status,
        attempt,
        ...(row.holder_tag === null ? {} : { holder_tag: row.holder_tag }),
        ...(row.status === itemStatus.leased && row.lease_expires_at !== null
          ? { lease_expires_at: iso(row.lease_expires_at) }
          : {}),
        context_sha256: await receipts(context),
        ...(row.target_artifact_id === null ? {} : { target_artifact_id: row.target_artifact_id }),
        attempts: read.attempts.get(row.id) ?? [],
      }),
    ),
  );
  return {
    run: read.run,
    work_items: workItems,
    artifacts: read.artifacts,
    reviews: read.reviews,
  };
}
