// What the contract suites need from a runtime: a way to reach a running service and to move
// its clock. Node provides it through app.request and over a socket (test/node/); workerd through
// the router's app over the run objects, whose clocks are moved over RPC (test/workers/). Nothing
// here, nor in the suites, uses a Node API.
import type { Limits } from "../../src/app.ts";
import type { RateLimit } from "../../src/http/rate-limit.ts";

/** The options a suite asks a service to start with. */
export interface ServiceOptions {
  /** Default: no rate limit, so that suites that send many requests are not throttled. */
  rateLimit?: RateLimit | false;
  /** Default: 1 MiB. */
  bodyBytes?: number;
  /** Default: 15 000 ms. */
  keepAliveMs?: number;
  /** Default: 1000 ms. The suites that expect a lease to expire while waiting lower it. */
  recheckMs?: number;
  /** Default: the service's own (redact). Node sets it in createApp's options, Workers in `TASK_CONTEXT_SECRETS`. */
  secrets?: "redact" | "refuse" | "allow";
  /**
   * `"w3c"`: the service's process has OpenTelemetry's W3C propagator registered, as an SDK
   * registers it. A service in the test's own process or isolate shares the suite's global
   * propagator instead; one in a process of its own (the built bin, the built Worker) registers it.
   */
  tracePropagator?: "w3c";
}

/** A running service the suites talk to. */
export interface Service {
  /** A `fetch`: absolute URLs under `baseUrl`. */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** e.g. `http://127.0.0.1:40123` or `http://service.test`. */
  baseUrl: string;
  adminToken: string;
  /** Moves the service's clock forward (lease expiry, rate-limit windows). */
  advance(milliseconds: number): Promise<void>;
  /** Stops the service. */
  stop(): Promise<void>;
}

/** Starts a service for a suite; each suite file starts its own. */
export type StartService = (options?: ServiceOptions) => Promise<Service>;

/**
 * `expect.poll` options for waiting on a condition, never on a time: the timeout only stops a
 * hung test, and is far past any pause of a busy machine (vitest's default, 1 s, is not).
 */
export const EVENTUALLY = { timeout: 15_000, interval: 10 };

/** A clock that starts at a fixed instant and moves only when told. */
export function manualClock(start = Date.UTC(2026, 10, 20, 10, 0, 0)) {
  let now = start;
  return {
    now: () => now,
    advance(milliseconds: number) {
      now += milliseconds;
    },
  };
}

/** The app's limits for a suite's options: no rate limit unless asked, the defaults otherwise. */
export function limitsOf(options: ServiceOptions): Limits {
  return {
    rateLimit: options.rateLimit ?? false,
    ...(options.bodyBytes === undefined ? {} : { bodyBytes: options.bodyBytes }),
    ...(options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs }),
    ...(options.recheckMs === undefined ? {} : { recheckMs: options.recheckMs }),
  };
}
