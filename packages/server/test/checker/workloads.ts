// The checker's configurations: the CI one (a test) and the large one (a benchmark); and the same
// two for PostgreSQL failing under the service (postgres-chaos.ts), where the service's own
// processes are not restarted.
import type { WorkloadOptions } from "./workload.ts";

/** Small enough for a loaded 2-core machine in seconds; every fault still happens. */
export const ciWorkload: Omit<WorkloadOptions, "seed" | "folder"> = {
  agents: 8,
  items: 40,
  reviews: true,
  leaseMs: 300,
  maxAttempts: 2,
  crash: 0.12,
  fail: 0.05,
  stale: 0.15,
  duplicate: 0.15,
  heartbeat: 0.2,
  poison: 2,
  restarts: [
    { afterCompleted: 20, signal: "SIGKILL" },
    { afterCompleted: 50, signal: "SIGTERM" },
  ],
  workMs: 20,
  deadlineMs: 90_000,
};

/** The benchmark's: 50 agents × 10 000 items, 5 % crashes, 5 % duplicate completions, 2 s leases. */
export const largeWorkload: Omit<WorkloadOptions, "seed" | "folder"> = {
  agents: 50,
  items: 10_000,
  reviews: false,
  leaseMs: 2000,
  maxAttempts: 3,
  crash: 0.05,
  fail: 0.01,
  stale: 0.01,
  duplicate: 0.05,
  heartbeat: 0.05,
  poison: 5,
  restarts: [
    { afterCompleted: 3000, signal: "SIGKILL" },
    { afterCompleted: 7000, signal: "SIGTERM" },
  ],
  workMs: 20,
  deadlineMs: 600_000,
};

/**
 * The CI's, for PostgreSQL failing under the service: the faults of {@link ciWorkload} at the same
 * rates on fewer agents and items (so not every kind is sure to happen: test/checker proves
 * each), the service's processes left running (PostgreSQL is what fails).
 */
export const ciChaosWorkload: Omit<WorkloadOptions, "seed" | "folder"> = {
  ...ciWorkload,
  agents: 6,
  items: 24,
  reviews: false,
  firstCrashes: 2,
  poison: 1,
  restarts: [],
};

/** The benchmark's, for PostgreSQL failing under the service: 50 agents × 2 000 items, 2 s leases. */
export const largeChaosWorkload: Omit<WorkloadOptions, "seed" | "folder"> = {
  ...largeWorkload,
  items: 2000,
  poison: 3,
  restarts: [],
  deadlineMs: 300_000,
};
