// Stage progression: a stage starts with its items on offer (a task stage its `items`, a review
// stage one item per artifact of the stage it reviews); once none of its items is open, the next
// one starts, and after the last the run is completed.
import { itemStatus } from "../rules.ts";
import type { Draft } from "./draft.ts";
import { offerItem } from "./items.ts";
import { type ArtifactRecord, type ItemRecord, stageStatus } from "./run-state.ts";

/** Makes a stage the run's current one and offers its items. */
export function startStage(draft: Draft, position: number): void {
  const entry = draft.state.stages[position];
  if (entry === undefined) return;
  const { stage } = entry;
  draft.run.current_stage = position;
  const targets: Array<ArtifactRecord | undefined> =
    stage.kind === "review"
      ? draft.artifactsOf(stage.reviews ?? "")
      : Array.from({ length: stage.items ?? 1 }, () => undefined);
  for (const target of targets) {
    const item: ItemRecord = {
      id: draft.newId("wi"),
      stage_position: position,
      kind: target === undefined ? "task" : "review",
      status: itemStatus.offered,
      attempt: 0,
      failures: 0,
      offered_seq: 0,
      holder_id: null,
      holder_tag: null,
      lease_expires_at: null,
      target_artifact_id: target?.id ?? null,
      target_author_id: target?.author_id ?? null,
      target_author_tag: target?.author_tag ?? null,
      dead_lettered_at: null,
      outcome: null,
    };
    offerItem(draft, item, { insert: true });
  }
}

/** After a completion in the stage at `position`: when none of its items is open, the next starts. */
export function advanceStage(draft: Draft, position: number): void {
  const open =
    draft.count(position, itemStatus.offered) +
    draft.count(position, itemStatus.leased) +
    draft.count(position, itemStatus.deadLettered);
  if (open > 0) return;
  const entry = draft.state.stages[position];
  if (entry === undefined || stageStatus(draft.run, position) === "completed") return;
  draft.emit("stage.completed", { stage_id: entry.id });
  if (position + 1 < draft.state.stages.length) {
    startStage(draft, position + 1);
    return;
  }
  draft.run.status = "completed";
  draft.emit("run.completed", {});
}
