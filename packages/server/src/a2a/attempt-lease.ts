// The lease of one A2A attempt as the dispatcher keeps it, measured with the service's clock:
// when a `working` task renews it (a heartbeat), when a task that says nothing new is stuck, and
// when a silent agent is given up — early enough that its failure, with the reason, reaches the
// store before the store would expire the lease without one.

/**
 * How long an A2A task may say `working` with nothing new (polled again and again, the same
 * status, message and artifacts) before its attempt is given up as stuck: this many leases.
 */
export const STUCK_LEASES = 5;

/** The longest margin before the lease's end at which a silent attempt is given up. */
const MAX_MARGIN_MS = 5000;

/** What a pending task's latest state means for the lease. */
export type LeaseVerdict =
  /** Renew the lease: a `working` task, and a quarter of a lease since the last renewal. */
  | "beat"
  /** `working` with nothing new for {@link STUCK_LEASES} leases: give the attempt up. */
  | "stuck"
  /** Nothing to do now. */
  | "wait";

/** A pending task's latest state, as {@link AttemptLease.observe} reads it. */
export interface TaskNews {
  /** Everything the task says: its state, status timestamp and message, its artifacts. */
  said: string;
  working: boolean;
  /** Pushed on the task's stream (always news), rather than polled. */
  streamed: boolean;
}

/**
 * One attempt's lease: it ends at the store's `expires_at`, which heartbeats move. Any `working`
 * (streamed or polled, with a status timestamp or without) renews it, at most once per quarter of
 * `lease_ms`; a polled task that says the same again renews it only until it has said nothing new
 * for {@link STUCK_LEASES} leases, so an agent stuck in `working` cannot hold its item for ever.
 */
export class AttemptLease {
  readonly #clock: () => number;
  readonly leaseMs: number;
  #expiresAt: number;
  #lastBeat: number;
  #lastChange: number;
  #lastSaid: string | undefined;

  constructor(clock: () => number, leaseMs: number, expiresAt: string) {
    this.#clock = clock;
    this.leaseMs = leaseMs;
    this.#expiresAt = Date.parse(expiresAt);
    this.#lastBeat = clock();
    this.#lastChange = clock();
  }

  /** How long before the lease's end a silent attempt is given up: a quarter of it, at most 5 s. */
  get marginMs(): number {
    return Math.min(Math.floor(this.leaseMs / 4), MAX_MARGIN_MS);
  }

  /** When the attempt is given up if the agent says nothing more (the service's clock). */
  giveUpAt(): number {
    return this.#expiresAt - this.marginMs;
  }

  /** True once the agent has been silent until {@link giveUpAt}. */
  silent(): boolean {
    return this.#clock() >= this.giveUpAt();
  }

  /** How long the task has said nothing new, in milliseconds. */
  unchangedMs(): number {
    return this.#clock() - this.#lastChange;
  }

  /** What a pending task's latest state means: renew the lease, give up as stuck, or wait. */
  observe(news: TaskNews): LeaseVerdict {
    const now = this.#clock();
    if (news.streamed || news.said !== this.#lastSaid) this.#lastChange = now;
    this.#lastSaid = news.said;
    if (!news.working) return "wait";
    if (now - this.#lastChange >= STUCK_LEASES * this.leaseMs) return "stuck";
    return now - this.#lastBeat >= this.leaseMs / 4 ? "beat" : "wait";
  }

  /** The store renewed the lease until `expiresAt`. */
  renewed(expiresAt: string): void {
    this.#lastBeat = this.#clock();
    this.#expiresAt = Date.parse(expiresAt);
  }
}
