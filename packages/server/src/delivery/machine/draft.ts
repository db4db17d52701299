// A command being decided: the run's state as the command has changed it so far, without
// changing the state itself. Each change is recorded as a write (and an event as an insertEvent
// with the run's next seq); the command's outcome is its answer and those writes, which a store
// persists and applyWrites folds into the state.
import type { CollaborationEvent } from "@task-context/protocols";
import type { IdPrefix } from "../ids.ts";
import { type ItemStatus, itemStatus } from "../rules.ts";
import {
  type ArtifactRecord,
  type ItemRecord,
  noItems,
  type RunRecord,
  type RunState,
  type StatusCounts,
} from "./run-state.ts";
import type { Write } from "./writes.ts";

/** An event without the fields every event has. */
export type EventFields<Type extends CollaborationEvent["type"]> = Omit<
  Extract<CollaborationEvent, { type: Type }>,
  "type" | "id" | "seq" | "run_id" | "at"
>;

/** What a command is decided with besides the state: the time, and where new ids come from. */
export interface MachineContext {
  /** Milliseconds since the epoch: leases, events and attempts are stamped with it. */
  now: number;
  /** A new identifier with that prefix (`newId` of ids.ts in the stores). */
  newId: (prefix: IdPrefix) => string;
}

/** The last two times {@link iso} wrote (milliseconds), and their texts. */
const written = { latest: Number.NaN, latestText: "", previous: Number.NaN, previousText: "" };

/**
 * A time (milliseconds since the epoch) as the contract shows it: ISO 8601. A command stamps
 * what it writes with its one `now` and a lease with `now` + the lease's length, so the last two
 * times' texts are kept: each event, attempt and lease of a command (and of the commands of the
 * same millisecond) costs no new `Date`.
 */
export function iso(milliseconds: number): string {
  if (milliseconds === written.latest) return written.latestText;
  if (milliseconds === written.previous) return written.previousText;
  const text = new Date(milliseconds).toISOString();
  written.previous = written.latest;
  written.previousText = written.latestText;
  written.latest = milliseconds;
  written.latestText = text;
  return text;
}

/** A command's state while it is decided: the run's state, and the changes made so far. */
export class Draft {
  readonly state: RunState;
  readonly now: number;
  readonly newId: (prefix: IdPrefix) => string;
  /** The run as changed so far (status, current stage, last seq). */
  readonly run: RunRecord;
  readonly writes: Write[] = [];
  readonly events: CollaborationEvent[] = [];
  /** The items changed so far, by id. */
  readonly #items = new Map<string, ItemRecord>();
  /** The ids of the items put on offer so far, in the order of their last offer. */
  readonly #offered = new Set<string>();
  /** How the changes so far move each stage's counts. */
  readonly #counts = new Map<number, StatusCounts>();
  readonly #artifacts: ArtifactRecord[] = [];

  constructor(state: RunState, context: MachineContext) {
    this.state = state;
    this.now = context.now;
    this.newId = context.newId;
    this.run = { ...state.run };
  }

  /** A work item as it stands now, or undefined when the run has none with that id. */
  item(id: string): ItemRecord | undefined {
    return this.#items.get(id) ?? this.state.items.get(id);
  }

  /** Records a new or changed work item. */
  putItem(item: ItemRecord, { insert = false }: { insert?: boolean } = {}): void {
    const before = insert ? undefined : this.item(item.id);
    if (before !== undefined) this.#count(before.stage_position, before.status, -1);
    this.#count(item.stage_position, item.status, 1);
    this.#items.set(item.id, item);
    if (item.status === itemStatus.offered && before?.offered_seq !== item.offered_seq) {
      // To the end of the queue: its offer is the run's latest.
      this.#offered.delete(item.id);
      this.#offered.add(item.id);
    }
    this.writes.push({ type: insert ? "insertItem" : "updateItem", item });
  }

  /** The items on offer now, oldest offer first. */
  *offered(): Generator<ItemRecord> {
    for (const id of this.state.queue) {
      const item = this.item(id);
      // Still where it was: on offer by the same offer (put on offer again: listed below).
      if (
        item?.status === itemStatus.offered &&
        item.offered_seq === this.state.items.get(id)?.offered_seq
      ) {
        yield item;
      }
    }
    for (const id of this.#offered) {
      const item = this.#items.get(id);
      if (item?.status === itemStatus.offered) yield item;
    }
  }

  /** How many items of a stage are in `status` now. */
  count(position: number, status: ItemStatus): number {
    const base = this.state.counts[position]?.[status] ?? 0;
    return base + (this.#counts.get(position)?.[status] ?? 0);
  }

  /** How many items of the run are dead-lettered now. */
  deadLetters(): number {
    let count = 0;
    for (const position of this.state.stages.keys()) {
      count += this.count(position, itemStatus.deadLettered);
    }
    return count;
  }

  /** The artifacts of a stage, oldest first. */
  artifactsOf(stageId: string): ArtifactRecord[] {
    return [...this.state.artifacts, ...this.#artifacts].filter(
      (artifact) => artifact.stage_id === stageId,
    );
  }

  /** Records a new artifact. */
  addArtifact(write: Extract<Write, { type: "insertArtifact" }>): void {
    this.#artifacts.push(write.artifact);
    this.writes.push(write);
  }

  /** Records a write that changes nothing the command reads again (attempts, reviews, …). */
  write(write: Write): void {
    this.writes.push(write);
  }

  /** Appends an event with the run's next seq. */
  emit<Type extends CollaborationEvent["type"]>(
    type: Type,
    fields: EventFields<Type>,
  ): CollaborationEvent {
    this.run.last_seq += 1;
    const event = {
      type,
      id: this.newId("evt"),
      seq: this.run.last_seq,
      run_id: this.run.id,
      at: iso(this.now),
      ...fields,
    } as unknown as CollaborationEvent;
    this.events.push(event);
    this.writes.push({ type: "insertEvent", event });
    return event;
  }

  /**
   * The command's writes, ending with the run's new standing (its version moved on) when it
   * changed anything.
   */
  finish(): Write[] {
    if (this.writes.length === 0) return [];
    const { status, current_stage, last_seq } = this.run;
    const version = this.state.run.version + 1;
    return [...this.writes, { type: "updateRun", status, current_stage, last_seq, version }];
  }

  #count(position: number, status: ItemStatus, delta: number): void {
    let counts = this.#counts.get(position);
    if (counts === undefined) {
      counts = noItems();
      this.#counts.set(position, counts);
    }
    counts[status] += delta;
  }
}
