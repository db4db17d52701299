import type * as Contract from "../contract/schemas.ts";

/** A run's status as its row stores it. */
export type RunStatus = Contract.RunView["status"];

/** A work item's status as its row stores it. */
export type ItemStatus = "offered" | "leased" | "completed" | "dead_lettered";

/** A row of `runs`. */
export interface RunRow {
  id: string;
  goal: string;
  constraints: string;
  lease_ms: number;
  max_attempts: number;
  status: RunStatus;
  current_stage: number;
  last_seq: number;
  created_at: number;
}

/** A row of `stages`. */
export interface StageRow {
  position: number;
  id: string;
  definition: string;
  status: Contract.StageView["status"];
}

/** A row of `work_items`. */
export interface ItemRow {
  id: string;
  stage_position: number;
  kind: "task" | "review";
  status: ItemStatus;
  attempt: number;
  failures: number;
  holder_id: string | null;
  holder_tag: string | null;
  lease_expires_at: number | null;
  target_artifact_id: string | null;
  target_author_id: string | null;
  target_author_tag: string | null;
  dead_lettered_at: number | null;
}

/** A row of `attempts`. */
export interface AttemptRow {
  attempt: number;
  agent_tag: string;
  leased_at: number;
  ended_at: number | null;
  outcome: Contract.AttemptRecord["outcome"];
  reason: string | null;
}

/** A row of `artifacts`. */
export interface ArtifactRow {
  id: string;
  stage_id: string;
  stage_position: number;
  work_item_id: string;
  author_id: string;
  author_tag: string;
  title: string | null;
  media_type: string;
  content: string;
  created_at: number;
}

/** A time the rows store (milliseconds since the epoch) as the contract shows it: ISO 8601. */
export const iso = (milliseconds: number) => new Date(milliseconds).toISOString();
