// The claim-next long polls waiting on a run, in one process (or one Durable Object): a line per
// run, first come first served, in which a change of the run wakes one waiter per item on offer
// that it may take (see ClaimWaiters), not every waiter. A woken waiter claims; one that then
// finds nothing — another took the item — passes the wake on, so no offer is left with idle
// waiters that may take it.
import type { AgentIdentity } from "./delivery-store.ts";
import { type ItemState, isOwnWork } from "./rules.ts";

/** What a run offers, as the waiters are matched to it. */
export interface RunOffers {
  /** The items on offer, oldest offer first. */
  offered: Iterable<Pick<ItemState, "kind" | "target_author_id">>;
  /** The earliest lease expiry of the run (ms since the epoch), or undefined when none is leased. */
  nextLeaseExpiry: number | undefined;
}

/** Options of {@link ClaimWaiters}. */
export interface ClaimWaitersOptions {
  /**
   * Looks at the run once (expiring its overdue leases): what it offers now. Called once per
   * change of a run that has idle waiters, however many wait.
   */
  look: (runId: string) => Promise<RunOffers>;
  /** Milliseconds since the epoch, as leases are measured. */
  clock: () => number;
  /** Told of a look that failed (its waiters are all woken: each claim then answers the error). */
  onError?: (error: unknown) => void;
}

/** How one wait in the line ended: matched to an offer, or not (ended, aborted, closed). */
type Woken = (matched: boolean) => void;

/** A long poll in a run's line. */
interface Waiter {
  agent: AgentIdentity;
  /** Set while idle: how to wake it. Unset while it claims (at first, or once woken). */
  wake: Woken | undefined;
  /** The run's count of changes when it last started to claim. */
  seen: number;
  /** Woken for an offer and not yet idle again: leaving unclaimed passes the offer on. */
  matched: boolean;
  /**
   * A match counted it, while it claimed, as taking an offer: once its claim is over (it may
   * have taken another, or none), the line is matched again.
   */
  counted: boolean;
}

/** A run's line of waiters. */
interface Line {
  /** Oldest first (a Set keeps insertion order). */
  waiters: Set<Waiter>;
  /** Changes of the run seen (events appended, here or by another instance). */
  changes: number;
  /** The count of changes when a look last found nothing on offer at all (see `nothingOnOffer`). */
  emptyAt: number | undefined;
  /** Until when that holds: the run's next lease expiry then (undefined: none was leased). */
  emptyUntil: number | undefined;
  /** A match is under way; `again`: a change came meanwhile, match once more after it. */
  matching: boolean;
  again: boolean;
  /** Wakes the line at the run's next lease expiry (the expiry's events wake its waiters). */
  expiryTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer is set for. */
  expiryAt: number | undefined;
}

/** One place in a run's line, for one claim-next call. */
export interface ClaimTicket {
  /**
   * True when the run's last look found nothing on offer and the run has not changed since: a
   * claim would find nothing, and the waiter may go idle without it (a long poll that starts
   * again every 30 s then costs no transaction on a quiet run).
   */
  nothingOnOffer(): boolean;
  /**
   * Its claim found nothing for it; `offers` is the run as the claim left it (the waiter then
   * sleeps until a change or the run's next lease expiry).
   */
  claimedNothing(offers: RunOffers | undefined): void;
  /**
   * Claiming found nothing: waits idle until an offer this waiter may take is matched to it
   * (true: claim again), or `timeoutMs` pass (real time), `signal` aborts or the waiters are
   * closed (false).
   */
  idle(timeoutMs: number, signal: AbortSignal | undefined): Promise<boolean>;
  /**
   * Leaves the line: `claimed`, or done waiting (an offer it was woken for, or one that came
   * while it claimed, is passed on to the next waiter).
   */
  leave(claimed: boolean): void;
}

/**
 * The claim-next long polls of every run, in one process. A waiter enters its run's line before
 * it claims, so that a change while it claims is not missed: when a waiter that found nothing goes
 * idle after a change of its run since it started to claim, the line is matched again. On each
 * change of a run with idle waiters, {@link ClaimWaiters.changed} looks at the run once and wakes,
 * oldest first, one idle waiter for each item on offer that no claiming waiter will take and that
 * the waiter may take (never a review of its own artifact) — the rest sleep, costing nothing.
 */
export class ClaimWaiters {
  readonly #lines = new Map<string, Line>();
  readonly #options: ClaimWaitersOptions;
  #closed = false;

  constructor(options: ClaimWaitersOptions) {
    this.#options = options;
  }

  /** Enters `agent` in the run's line, as claiming: call before its claim. */
  enter(runId: string, agent: AgentIdentity): ClaimTicket {
    const line = this.#line(runId);
    const waiter: Waiter = {
      agent,
      wake: undefined,
      seen: line.changes,
      matched: false,
      counted: false,
    };
    line.waiters.add(waiter);
    return {
      nothingOnOffer: () =>
        line.emptyAt === line.changes &&
        waiter.seen === line.changes &&
        this.#options.clock() < (line.emptyUntil ?? Number.POSITIVE_INFINITY),
      claimedNothing: (offers) => {
        // Only when the run has not changed since its claim began: the claim saw it as it is.
        if (offers === undefined || waiter.seen !== line.changes) return;
        if (isEmpty(offers)) {
          line.emptyAt = line.changes;
          line.emptyUntil = offers.nextLeaseExpiry;
        }
        this.#wakeAtExpiry(runId, line, offers.nextLeaseExpiry);
      },
      idle: (timeoutMs, signal) => this.#idle(runId, line, waiter, timeoutMs, signal),
      leave: (claimed) => {
        waiter.wake?.(false);
        line.waiters.delete(waiter);
        const passOn =
          waiter.counted || (!claimed && (waiter.matched || waiter.seen !== line.changes));
        if (passOn) this.#match(runId, line);
        else if (line.waiters.size === 0 && !line.matching) this.#drop(runId, line);
      },
    };
  }

  /** The run changed (an event was appended, here or on another instance): match its line. */
  changed(runId: string): void {
    const line = this.#lines.get(runId);
    if (line === undefined) return;
    line.changes += 1;
    this.#match(runId, line);
  }

  /** How many waiters are in the run's line (idle or claiming). */
  waiting(runId: string): number {
    return this.#lines.get(runId)?.waiters.size ?? 0;
  }

  /** Ends every wait (each idle resolves false) and refuses new ones. */
  close(): void {
    this.#closed = true;
    for (const [runId, line] of [...this.#lines]) {
      for (const waiter of line.waiters) waiter.wake?.(false);
      this.#drop(runId, line);
    }
  }

  #line(runId: string): Line {
    let line = this.#lines.get(runId);
    if (line === undefined) {
      line = {
        waiters: new Set(),
        changes: 0,
        emptyAt: undefined,
        emptyUntil: undefined,
        matching: false,
        again: false,
        expiryTimer: undefined,
        expiryAt: undefined,
      };
      this.#lines.set(runId, line);
    }
    return line;
  }

  #drop(runId: string, line: Line): void {
    clearTimeout(line.expiryTimer);
    if (this.#lines.get(runId) === line) this.#lines.delete(runId);
  }

  #idle(
    runId: string,
    line: Line,
    waiter: Waiter,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    if (this.#closed || signal?.aborted || timeoutMs <= 0) return Promise.resolve(false);
    const counted = waiter.counted;
    waiter.matched = false;
    waiter.counted = false;
    const promise = new Promise<boolean>((resolve) => {
      const finish: Woken = (matched) => {
        waiter.wake = undefined;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (matched) {
          waiter.seen = line.changes;
          waiter.matched = true;
        }
        resolve(matched && !this.#closed);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(onAbort, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      waiter.wake = finish;
    });
    // The run changed while it claimed: what it did not see may be on offer to it (or to others,
    // were it counted as taking it); otherwise nothing is on offer to it that a match would find.
    if (counted || waiter.seen !== line.changes) this.#match(runId, line);
    return promise;
  }

  /**
   * Looks at the run and wakes the idle waiters its offers are for (one look at a time per run;
   * changes during a look match again after it).
   */
  #match(runId: string, line: Line): void {
    if (line.matching) {
      line.again = true;
      return;
    }
    if (!hasIdle(line)) {
      if (line.waiters.size === 0) this.#drop(runId, line);
      return;
    }
    line.matching = true;
    line.again = false;
    const changes = line.changes;
    this.#options.look(runId).then(
      (offers) => {
        line.emptyAt = isEmpty(offers) ? changes : undefined;
        line.emptyUntil = offers.nextLeaseExpiry;
        this.#matched(runId, line, offers);
      },
      (error: unknown) => {
        this.#options.onError?.(error);
        // Each woken waiter claims, and its claim answers what went wrong.
        for (const waiter of line.waiters) waiter.wake?.(true);
        this.#matched(runId, line, undefined);
      },
    );
  }

  /**
   * Looks at the run again at `expiry` (its next lease expiry), unless a look is due sooner: the
   * lease's item is then on offer again, and the look expires it (its events wake the line),
   * whether or not a background duty did. Only while the run has waiters.
   */
  #wakeAtExpiry(runId: string, line: Line, expiry: number | undefined): void {
    if (expiry === undefined || this.#closed || line.waiters.size === 0) return;
    if (line.expiryAt !== undefined && line.expiryAt <= expiry) return;
    clearTimeout(line.expiryTimer);
    line.expiryAt = expiry;
    line.expiryTimer = setTimeout(
      () => {
        line.expiryTimer = undefined;
        line.expiryAt = undefined;
        this.#match(runId, line);
      },
      Math.max(0, expiry - this.#options.clock()),
    );
    unref(line.expiryTimer);
  }

  #matched(runId: string, line: Line, offers: RunOffers | undefined): void {
    line.matching = false;
    if (offers !== undefined) {
      wakeFor(offers, line.waiters);
      clearTimeout(line.expiryTimer);
      line.expiryTimer = undefined;
      line.expiryAt = undefined;
      this.#wakeAtExpiry(runId, line, offers.nextLeaseExpiry);
    }
    if (line.waiters.size === 0) this.#drop(runId, line);
    else if (line.again) this.#match(runId, line);
  }
}

/** Whether nothing at all is on offer. */
function isEmpty(offers: RunOffers): boolean {
  for (const _ of offers.offered) return false;
  return true;
}

/** Whether any waiter of the line is idle. */
function hasIdle(line: Line): boolean {
  for (const waiter of line.waiters) if (waiter.wake !== undefined) return true;
  return false;
}

/**
 * Matches a run's offers to its waiters, oldest waiter first, each to the oldest offer it may
 * take and no other waiter was given — as their claims would go — and wakes each idle waiter that
 * got one. Waiters that are claiming already take theirs first.
 */
function wakeFor(offers: RunOffers, waiters: Iterable<Waiter>): void {
  const offered = [...offers.offered];
  if (offered.length === 0) return;
  const taken = new Array<boolean>(offered.length).fill(false);
  let left = offered.length;
  /** The first offer not yet taken: every offer before it is. */
  let first = 0;
  const take = (agent: AgentIdentity): boolean => {
    while (first < offered.length && taken[first]) first += 1;
    for (let index = first; index < offered.length; index++) {
      const item = offered[index];
      if (taken[index] || item === undefined || isOwnWork(item as ItemState, agent)) continue;
      taken[index] = true;
      left -= 1;
      return true;
    }
    return false;
  };
  const all = [...waiters];
  for (const waiter of all) {
    if (left === 0) return;
    if (waiter.wake === undefined && take(waiter.agent)) waiter.counted = true;
  }
  for (const waiter of all) {
    if (left === 0) return;
    if (waiter.wake !== undefined && take(waiter.agent)) waiter.wake(true);
  }
}

/** Lets the process end while a timer is set (Node); nothing elsewhere. */
function unref(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}
