// The runs of an SQL store as the reads across runs read them (define-read.ts's `sources.runs`):
// one row per run, with the start of its goal and the stage it is at.

/** How many characters of a run's goal are read: its summary is cut from them. */
export const GOAL_CHARACTERS = 400;

/**
 * A query of the runs of a store as {@link RunListEntry} rows (its `created_at` as a number of
 * milliseconds), from the `runs` and `stages` tables.
 */
export const storedRuns = `SELECT runs.id AS run_id, runs.status AS status, runs.created_at AS created_at,
    substr(runs.goal, 1, ${GOAL_CHARACTERS}) AS goal,
    CASE WHEN runs.status = 'completed' THEN NULL ELSE stages.id END AS current_stage
  FROM runs LEFT JOIN stages ON stages.run_id = runs.id AND stages.position = runs.current_stage`;
