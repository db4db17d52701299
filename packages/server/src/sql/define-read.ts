// A read of the delivery store that needs no method of its own: its SQL steps, run on SQLite,
// PostgreSQL and a run's Durable Object alike, found by its name in the registry of reads
// (./reads.ts, generated from the files of ./reads/). A run's read gets the run's state (its
// overdue leases expired) and runs where the run lives; a read across runs gets the SQL of the
// runs it may read (`sources`): the store's own tables, or on Workers the runs directory's.
import type { RunState } from "../delivery/machine/run-state.ts";
import type { SqlSteps } from "./sql-steps.ts";

/** The relations a read across runs reads from, as SQL it puts in a `FROM (…)`. */
export interface ReadSources {
  /**
   * A query of one row per run: `run_id`, `status`, `created_at` (milliseconds), `goal` (its start)
   * and `current_stage` (null once completed).
   */
  runs: string;
}

/** A read of one run: the run's id is given with it, and its steps read the run's state. */
export interface RunRead<Input, Output> {
  readonly scope: "run";
  readonly steps: (state: RunState, input: Input) => SqlSteps<Output>;
}

/** A read across runs: its steps read `sources`. */
export interface ServiceRead<Input, Output> {
  readonly scope: "service";
  readonly steps: (input: Input, sources: ReadSources) => SqlSteps<Output>;
}

/** A read of the store, of one run or across runs. */
export type ReadDefinition<Input, Output> = RunRead<Input, Output> | ServiceRead<Input, Output>;

/** A read of one run, as its file defines it. */
export function defineRunRead<Input, Output>(
  steps: (state: RunState, input: Input) => SqlSteps<Output>,
): RunRead<Input, Output> {
  return { scope: "run", steps };
}

/** A read across runs, as its file defines it. */
export function defineServiceRead<Input, Output>(
  steps: (input: Input, sources: ReadSources) => SqlSteps<Output>,
): ServiceRead<Input, Output> {
  return { scope: "service", steps };
}

/** What a read takes. */
export type ReadInput<Read> = Read extends ReadDefinition<infer Input, unknown> ? Input : never;

/** What a read answers. */
export type ReadOutput<Read> = Read extends ReadDefinition<never, infer Output> ? Output : never;

/** The run id a read is given: a run's id for a read of one run, undefined for one across runs. */
export type ReadRunId<Read> = Read extends { scope: "run" } ? string : undefined;
