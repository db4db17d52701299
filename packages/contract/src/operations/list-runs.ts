import * as z from "zod";
import { defineOperation } from "../define-operation.ts";
import { runView } from "../schemas.ts";

/** The run statuses a `status` filter names, comma-separated. */
const statusList = /^(active|blocked|completed|canceled)(,(active|blocked|completed|canceled))*$/;

/** `GET /v1/runs`'s query string. */
export const listRunsQuery = z.strictObject({
  status: z
    .string()
    .regex(statusList, {
      error: "must list run statuses separated by commas (active, blocked, completed, canceled)",
    })
    .optional()
    .describe(
      "Only runs with one of these statuses, comma-separated: active, blocked, completed, canceled (default: every run)",
    )
    .meta({ example: "active,blocked" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .optional()
    .describe("At most this many runs (1 to 200; default 50)"),
  cursor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Where the page starts: the previous page's next_cursor, as it was given"),
});

/** A run as `GET /v1/runs` lists it: enough to find it again, not the whole run. */
export const runSummary = z
  .strictObject({
    run_id: runView.shape.run_id,
    status: runView.shape.status,
    created_at: runView.shape.created_at,
    goal: z
      .string()
      .describe(
        "The first line of the run's goal, at most 200 characters (ending in … when cut): GET /v1/runs/{run_id} has all of it",
      ),
    current_stage: z
      .string()
      .nullable()
      .describe("The id of the stage the run is at; null once the run is completed"),
  })
  .meta({
    id: "RunSummary",
    examples: [
      {
        run_id: "run_qy78f9c66491mvp55vcr65r66m",
        status: "active",
        created_at: "2026-11-20T10:15:30.000Z",
        goal: "Ship the onboarding flow for the Android app",
        current_stage: "design",
      },
    ],
  });

/** The answer to `GET /v1/runs`. */
export const runList = z
  .strictObject({
    runs: z.array(runSummary).describe("Newest first (by created_at, then by run_id)"),
    next_cursor: z
      .string()
      .nullable()
      .describe("The cursor of the next page; null on the last page"),
  })
  .meta({
    id: "RunList",
    examples: [
      {
        runs: [
          {
            run_id: "run_qy78f9c66491mvp55vcr65r66m",
            status: "active",
            created_at: "2026-11-20T10:15:30.000Z",
            goal: "Ship the onboarding flow for the Android app",
            current_stage: "design",
          },
        ],
        next_cursor: "djEuMTc5NTE2OTczMDAwMC5ydW5fcXk3OGY5YzY2NDkxbXZwNTV2Y3I2NXI2Nm0",
      },
    ],
  });

/** A run as `GET /v1/runs` lists it. */
export type RunSummary = z.infer<typeof runSummary>;

/** The answer to `GET /v1/runs`. */
export type RunList = z.infer<typeof runList>;

/** `GET /v1/runs`: the service's runs, newest first, a page at a time. */
export const listRuns = defineOperation({
  id: "listRuns",
  method: "GET",
  path: "/v1/runs",
  audience: "admin",
  summary: "The service's runs, newest first, paged by cursor, filtered by status",
  description:
    "Newest first: by `created_at`, then by `run_id` among runs created in the same millisecond, so that a page follows the previous one exactly even while runs are created (new runs appear on the first page). `next_cursor` is null on the last page; a cursor this service did not give is refused (`INVALID_REQUEST`). A run shows its status and the stage it is at, never a secret. On Cloudflare Workers the list comes from the runs directory (the `RUN_DIRECTORY` Durable Object binding): a Worker deployed without it answers `SERVICE_UNAVAILABLE` here, and everything else as before.",
  tag: "runs",
  input: { query: listRunsQuery },
  output: { kind: "json", status: 200, body: runList, description: "A page of runs" },
  errors: ["INVALID_REQUEST", "SERVICE_UNAVAILABLE"],
  client: { method: "listRuns" },
});
