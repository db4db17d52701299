// The state machine alone, on one run held in memory: each command decided on the run's state and
// its writes applied to it, as a store does without a database. Besides, the writes kept as rows
// (what a store's tables would hold), from which the state can be read again as a store loads it:
// applying writes and reading rows must give the same state.
import type { CollaborationEvent } from "@task-context/protocols";
import type { IdPrefix } from "../../src/delivery/ids.ts";
import {
  type Answers,
  type Command,
  type CommandType,
  type Decision,
  decide,
} from "../../src/delivery/machine/machine.ts";
import {
  type AgentRecord,
  type ArtifactRecord,
  type IdempotencyRecord,
  type ItemRecord,
  newRunState,
  type RunRecord,
  type RunState,
  type StageRecord,
} from "../../src/delivery/machine/run-state.ts";
import { agentRecordOf, applyWrites, type Write } from "../../src/delivery/machine/writes.ts";

/** The rows a store would hold for the run, kept from its writes. */
interface Rows {
  run: RunRecord;
  stages: readonly StageRecord[];
  items: Map<string, ItemRecord>;
  agents: AgentRecord[];
  artifacts: ArtifactRecord[];
  idempotency: IdempotencyRecord[];
}

/** One run and the state machine, in memory, with a clock of its own and ids counted up. */
export class MemoryRun {
  readonly runId: string;
  now: number;
  state: RunState | undefined;
  /** Every event the run appended, in order. */
  readonly events: CollaborationEvent[] = [];
  #rows: Rows | undefined;
  #ids = 0;

  constructor(runId = "run_1", now = Date.UTC(2026, 10, 20, 10, 0, 0)) {
    this.runId = runId;
    this.now = now;
  }

  /** Decides `command` at the run's now; when accepted, applies and keeps its writes. */
  run<Type extends CommandType>(command: Command<Type>): Decision<Answers[Type]> {
    const decision = decide(this.state, this.runId, command, {
      now: this.now,
      newId: (prefix: IdPrefix) => `${prefix}_${String(++this.#ids).padStart(4, "0")}`,
    });
    if (decision.ok) {
      this.state =
        decision.writes.length === 0 ? this.state : applyWrites(this.state, decision.writes);
      this.events.push(...decision.events);
      for (const write of decision.writes) this.#keep(write);
    }
    return decision;
  }

  /** The answer of an accepted command; throws the refusal of a refused one. */
  answer<Type extends CommandType>(command: Command<Type>): Answers[Type] {
    const decision = this.run(command);
    if (!decision.ok) throw decision.error;
    return decision.answer;
  }

  /** The run's state as a store would load it from the rows its writes left. */
  reloaded(): RunState | undefined {
    const rows = this.#rows;
    if (rows === undefined) return undefined;
    return newRunState({
      run: rows.run,
      stages: rows.stages,
      items: rows.items.values(),
      agents: rows.agents,
      artifacts: rows.artifacts,
      idempotency: rows.idempotency,
    });
  }

  /** The types of the events appended since `from` (an index into {@link events}). */
  typesSince(from: number): string[] {
    return this.events.slice(from).map((event) => event.type);
  }

  #keep(write: Write): void {
    if (write.type === "insertRun") {
      this.#rows = {
        run: { ...write.run },
        stages: write.stages,
        items: new Map(),
        agents: [],
        artifacts: [],
        idempotency: [],
      };
      return;
    }
    const rows = this.#rows;
    if (rows === undefined) throw new Error(`${write.type} before insertRun`);
    switch (write.type) {
      case "updateRun": {
        const { type: _, ...standing } = write;
        rows.run = { ...rows.run, ...standing };
        return;
      }
      case "cancelRun":
        rows.run = {
          ...rows.run,
          canceled_at: write.canceled_at,
          cancel_reason: write.cancel_reason,
        };
        return;
      case "insertAgent":
        rows.agents.push(agentRecordOf(write.agent));
        return;
      case "insertItem":
      case "updateItem":
        rows.items.set(write.item.id, { ...write.item });
        return;
      case "insertArtifact":
        rows.artifacts.push({ ...write.artifact });
        return;
      case "insertIdempotencyKey": {
        const { type: _, ...record } = write;
        rows.idempotency.push(JSON.parse(JSON.stringify(record)) as IdempotencyRecord);
        return;
      }
      default:
        return;
    }
  }
}
