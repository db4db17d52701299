// What the contract suites need from a runtime: a way to reach a running service and to move
// its clock. Node provides it through app.request and over a socket (test/node/); a Workers
// runtime provides its own (SELF.fetch, a test binding that moves the clock). Nothing here, nor
// in the suites, uses a Node API.
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
