// The machine's writes of many commands folded, row by row, into what they leave behind: a row
// inserted then updated is inserted as it ends; a row updated twice is updated once, as it ends.
// Each store then writes the rows its own way: SQLite and a Durable Object one prepared statement
// a row (persist-writes.ts: cheaper there than one statement for many rows), PostgreSQL one
// statement per table and kind (../postgres/coalesced-writes.ts).
import type { Write } from "../delivery/machine/writes.ts";
import { a2aColumns } from "./agents.ts";

/** A row as columns and values. */
export type Row = Record<string, string | number | null>;

/** A table's columns: their PostgreSQL types, its key first. */
export interface Table {
  name: string;
  key: readonly string[];
  columns: Readonly<Record<string, "text" | "bigint">>;
  /** The columns an update sets only where they are still null (it never moves them). */
  keepFirst?: readonly string[];
}

const text = "text" as const;
const bigint = "bigint" as const;

/** The tables in the order their rows are inserted (none references another: any would do). */
export const tables = {
  runs: {
    name: "runs",
    key: ["id"],
    columns: {
      id: text,
      goal: text,
      constraints: text,
      lease_ms: bigint,
      max_attempts: bigint,
      status: text,
      current_stage: bigint,
      last_seq: bigint,
      created_at: bigint,
      trace_context: text,
      version: bigint,
      canceled_at: bigint,
      cancel_reason: text,
    },
  },
  stages: {
    name: "stages",
    key: ["run_id", "position"],
    columns: { run_id: text, position: bigint, id: text, definition: text, status: text },
  },
  agents: {
    name: "agents",
    key: ["run_id", "id"],
    columns: {
      run_id: text,
      id: text,
      tag: text,
      token_hash: text,
      created_at: bigint,
      a2a_endpoint: text,
      a2a_credentials: text,
    },
  },
  work_items: {
    name: "work_items",
    key: ["run_id", "id"],
    columns: {
      run_id: text,
      id: text,
      stage_position: bigint,
      kind: text,
      status: text,
      attempt: bigint,
      failures: bigint,
      offered_seq: bigint,
      holder_id: text,
      holder_tag: text,
      lease_expires_at: bigint,
      target_artifact_id: text,
      target_author_id: text,
      target_author_tag: text,
      dead_lettered_at: bigint,
    },
  },
  attempts: {
    name: "attempts",
    key: ["run_id", "work_item_id", "attempt"],
    columns: {
      run_id: text,
      work_item_id: text,
      attempt: bigint,
      agent_id: text,
      agent_tag: text,
      leased_at: bigint,
      ended_at: bigint,
      outcome: text,
      reason: text,
    },
    // An expired lease completed late keeps its expiry as its end.
    keepFirst: ["ended_at"],
  },
  artifacts: {
    name: "artifacts",
    key: ["run_id", "id"],
    columns: {
      run_id: text,
      id: text,
      seq: bigint,
      stage_position: bigint,
      stage_id: text,
      work_item_id: text,
      author_id: text,
      author_tag: text,
      title: text,
      media_type: text,
      content: text,
      created_at: bigint,
    },
  },
  reviews: {
    name: "reviews",
    key: ["run_id", "work_item_id"],
    columns: {
      run_id: text,
      work_item_id: text,
      target_artifact_id: text,
      feedback: text,
      created_at: bigint,
    },
  },
  events: {
    name: "events",
    key: ["run_id", "seq"],
    columns: { run_id: text, seq: bigint, body: text },
  },
  idempotency_keys: {
    name: "idempotency_keys",
    key: ["run_id", "agent_id", "key"],
    columns: { run_id: text, agent_id: text, key: text, request_hash: text, response: text },
  },
} satisfies Record<string, Table>;

/** A table's name. */
export type TableName = keyof typeof tables;

/** A row's key within its table. */
function keyOf(table: Table, row: Row): string {
  let key = "";
  for (const column of table.key) key += `${row[column]}\u0000`;
  return key;
}

/** The row of `values` (undefined as null): for writes whose values may be undefined. */
function rowOf(values: Record<string, string | number | null | undefined>): Row {
  const row: Row = {};
  for (const column in values) row[column] = values[column] ?? null;
  return row;
}

/** The rows of one table some writes leave: to insert (every column), and to update. */
export interface FoldedTable {
  table: Table;
  inserted: Row[];
  /** Each with the table's key and the columns to set (the same columns for one kind of write). */
  updated: Row[];
}

/** The rows some writes leave behind: to insert, and to update, per table. */
export class FoldedWrites {
  readonly #inserted = new Map<TableName, Map<string, Row>>();
  readonly #updated = new Map<TableName, Map<string, Row>>();
  #count = 0;

  /** Whether no write was added since the last {@link take}. */
  get empty(): boolean {
    return this.#count === 0;
  }

  /** Adds the writes of one command on the run `runId`, after those added before. */
  add(runId: string, writes: readonly Write[]): void {
    for (const write of writes) this.#add(runId, write);
    this.#count += writes.length;
  }

  /**
   * The rows the writes added leave, table by table in the order of {@link tables} (none
   * references another), and starts empty again.
   */
  take(): FoldedTable[] {
    const folded: FoldedTable[] = [];
    for (const name of Object.keys(tables) as TableName[]) {
      const inserted = this.#inserted.get(name);
      const updated = this.#updated.get(name);
      if (inserted === undefined && updated === undefined) continue;
      folded.push({
        table: tables[name],
        inserted: inserted === undefined ? [] : [...inserted.values()],
        updated: updated === undefined ? [] : [...updated.values()],
      });
    }
    this.#inserted.clear();
    this.#updated.clear();
    this.#count = 0;
    return folded;
  }

  #insert(name: TableName, row: Row): void {
    let rows = this.#inserted.get(name);
    if (rows === undefined) {
      rows = new Map();
      this.#inserted.set(name, rows);
    }
    rows.set(keyOf(tables[name], row), row);
  }

  /** Updates the row: into its insert when it is one of these, else merged with its update. */
  #update(name: TableName, row: Row, merge: (before: Row, after: Row) => Row = (_, a) => a): void {
    const key = keyOf(tables[name], row);
    const inserted = this.#inserted.get(name)?.get(key);
    if (inserted !== undefined) {
      this.#inserted.get(name)?.set(key, merge(inserted, { ...inserted, ...row }));
      return;
    }
    let rows = this.#updated.get(name);
    if (rows === undefined) {
      rows = new Map();
      this.#updated.set(name, rows);
    }
    const before = rows.get(key);
    rows.set(key, before === undefined ? row : merge(before, { ...before, ...row }));
  }

  #add(runId: string, write: Write): void {
    switch (write.type) {
      case "insertRun": {
        const { run, stages } = write;
        this.#insert(
          "runs",
          rowOf({
            ...run,
            constraints: JSON.stringify(run.constraints),
            trace_context: run.trace_context === null ? null : JSON.stringify(run.trace_context),
          }),
        );
        for (const stage of stages) {
          // `status` is no longer read; the column stays for the databases migration 1 created.
          this.#insert(
            "stages",
            rowOf({
              run_id: runId,
              position: stage.position,
              id: stage.id,
              definition: JSON.stringify(stage.stage),
              status: "pending",
            }),
          );
        }
        return;
      }
      case "updateRun": {
        const { status, current_stage, last_seq, version } = write;
        this.#update("runs", { id: runId, status, current_stage, last_seq, version });
        return;
      }
      case "cancelRun": {
        const { canceled_at, cancel_reason } = write;
        this.#update("runs", { id: runId, canceled_at, cancel_reason });
        return;
      }
      case "insertAgent":
        this.#insert(
          "agents",
          rowOf({
            run_id: runId,
            id: write.agent.agent_id,
            tag: write.agent.tag,
            token_hash: write.agent.token_hash,
            created_at: write.created_at,
            ...a2aColumns(write.agent.a2a),
          }),
        );
        return;
      case "updateAgentEndpoint":
        this.#update("agents", {
          run_id: runId,
          id: write.agent_id,
          ...a2aColumns(write.endpoint),
        });
        return;
      case "insertItem": {
        const { outcome: _, ...item } = write.item;
        this.#insert("work_items", rowOf({ run_id: runId, ...item }));
        return;
      }
      case "updateItem": {
        const { item } = write;
        this.#update("work_items", {
          run_id: runId,
          id: item.id,
          status: item.status,
          attempt: item.attempt,
          failures: item.failures,
          offered_seq: item.offered_seq,
          holder_id: item.holder_id,
          holder_tag: item.holder_tag,
          lease_expires_at: item.lease_expires_at,
          dead_lettered_at: item.dead_lettered_at,
        });
        return;
      }
      case "insertAttempt":
        this.#insert("attempts", {
          run_id: runId,
          work_item_id: write.work_item_id,
          attempt: write.attempt,
          agent_id: write.agent_id,
          agent_tag: write.agent_tag,
          leased_at: write.leased_at,
          ended_at: null,
          outcome: "leased",
          reason: null,
        });
        return;
      case "endAttempt":
        this.#update(
          "attempts",
          {
            run_id: runId,
            work_item_id: write.work_item_id,
            attempt: write.attempt,
            outcome: write.outcome,
            reason: write.reason,
            ended_at: write.ended_at,
          },
          // The first end stays the attempt's end (see tables.attempts.keepFirst).
          (before, after) => ({ ...after, ended_at: before.ended_at ?? after.ended_at ?? null }),
        );
        return;
      case "insertArtifact": {
        const { artifact } = write;
        this.#insert("artifacts", {
          run_id: runId,
          id: artifact.id,
          seq: artifact.seq,
          stage_position: artifact.stage_position,
          stage_id: artifact.stage_id,
          work_item_id: artifact.work_item_id,
          author_id: artifact.author_id,
          author_tag: artifact.author_tag,
          title: artifact.title,
          media_type: artifact.media_type,
          content: write.content,
          created_at: artifact.created_at,
        });
        return;
      }
      case "insertReview":
        this.#insert("reviews", {
          run_id: runId,
          work_item_id: write.feedback.work_item_id,
          target_artifact_id: write.feedback.target_artifact_id,
          feedback: JSON.stringify(write.feedback),
          created_at: write.created_at,
        });
        return;
      case "insertEvent":
        this.#insert("events", {
          run_id: runId,
          seq: write.event.seq,
          body: JSON.stringify(write.event),
        });
        return;
      case "insertIdempotencyKey":
        this.#insert("idempotency_keys", {
          run_id: runId,
          agent_id: write.agent_id,
          key: write.key,
          request_hash: write.request_hash,
          response: JSON.stringify(write.response),
        });
        return;
    }
  }
}
