// The claim-next long polls waiting on a run, in one process (or one Durable Object): a line per
// run, first come first served, in which a change of the run wakes one waiter per item on offer
// that it may take (see ClaimWaiters), not every waiter. A woken waiter claims; one that then
// finds nothing — another took the item — passes the wake on, so no offer is left with idle
// waiters that may take it. A change committed here brings the run's offers as committed, matched
// at once without reading the run; a change from elsewhere (another instance) is matched after a
// look. The line keeps no timer: a lease's end is a change (its expiry's events), which the
// background duties make (../background/). Polls waiting for offers (`poll` with `wait`) watch
// the same line: a change committed here wakes only those it offers something they may take.
import type { AgentIdentity } from "./delivery-store.ts";
import { type ItemState, isOwnWork } from "./rules.ts";
import { spreadWait } from "./spread-wait.ts";

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
   * change of a run that has idle waiters, however many wait, when the change was not committed
   * here (another instance's), or an offer is passed on after such a change.
   */
  look: (runId: string) => Promise<RunOffers>;
  /** Milliseconds since the epoch, as leases are measured. */
  clock: () => number;
  /** Told of a look that failed (its waiters are all woken: each claim then answers the error). */
  onError?: (error: unknown) => void;
  /** In [0, 1): how much earlier than its time an idle wait ends (see `spreadWait`; default `Math.random`). */
  random?: () => number;
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

/** A poll waiting for offers, in its run's line (it claims nothing). */
interface Watcher {
  agent: AgentIdentity;
  /** The run's count of changes when it last began to look at the run. */
  seen: number;
  /** Set while it waits: how to wake it (true: look at the run again). */
  wake: Woken | undefined;
}

/** A run's line of waiters. */
interface Line {
  /** Oldest first (a Set keeps insertion order). */
  waiters: Set<Waiter>;
  /** The polls waiting for offers (see {@link ClaimWaiters.watch}). */
  watchers: Set<Watcher>;
  /** Changes of the run seen (events appended, here or by another instance). */
  changes: number;
  /** The count of changes when a look last found nothing on offer at all (see `nothingOnOffer`). */
  emptyAt: number | undefined;
  /** When (the clock) that look was made. */
  emptySince: number;
  /** Until when that holds: the run's next lease expiry then (undefined: none was leased). */
  emptyUntil: number | undefined;
  /** How many waiters are idle (their `wake` set). */
  idle: number;
  /** A look is under way; `again`: a change came meanwhile, match once more after it. */
  matching: boolean;
  again: boolean;
  /** The count of changes the last match was made at: later changes are not matched yet. */
  matchedAt: number;
  /** The run's offers at `offersAt` changes (kept to pass an offer on without a look). */
  offers: Offered[] | undefined;
  offersAt: number;
  /** The run's offers as a commit here left them, for the change that commit is about to tell. */
  committed: (() => RunOffers) | undefined;
}

/** An item on offer, as matched. */
type Offered = Pick<ItemState, "kind" | "target_author_id">;

/** One place in a run's line, for one claim-next call. */
export interface ClaimTicket {
  /**
   * True when the run's last look found nothing on offer, the run has not changed since and the
   * look is less than `trustMs` old (the safety recheck; undefined: any age): a claim would find
   * nothing, and the waiter may go idle without it (a long poll that starts again every 30 s then
   * costs no transaction on a quiet run; one in each `trustMs` on the run claims, and looks).
   */
  nothingOnOffer(trustMs?: number): boolean;
  /**
   * Its claim found nothing for it; `offers` is the run as the claim left it (the waiter then
   * sleeps until a change or the run's next lease expiry).
   */
  claimedNothing(offers: RunOffers | undefined): void;
  /**
   * Claiming found nothing: waits idle until an offer this waiter may take is matched to it
   * (true: claim again), or `timeoutMs` pass (real time; up to 10 % sooner, see `spreadWait`),
   * `signal` aborts or the waiters are closed (false).
   */
  idle(timeoutMs: number, signal: AbortSignal | undefined): Promise<boolean>;
  /**
   * Leaves the line: `claimed`, or done waiting (an offer it was woken for, or one that came
   * while it claimed, is passed on to the next waiter).
   */
  leave(claimed: boolean): void;
}

/** A poll's watch of its run's offers, in the run's line: made before its first look. */
export interface OfferWatch {
  /**
   * Resolves true once the run changed since the watch's last look began in a way that may offer
   * the agent something — at once when it already has: a change committed here that offers
   * nothing the agent may take wakes no one; a change from elsewhere (another instance) always
   * wakes, the run unseen. False after `timeoutMs` (real time), when `signal` aborts or the
   * waiters are closed. The caller looks at the run after each true.
   */
  next(timeoutMs: number, signal: AbortSignal | undefined): Promise<boolean>;
  /** Leaves the line. */
  leave(): void;
}

/**
 * The claim-next long polls of every run, in one process. A waiter enters its run's line before
 * it claims, so that a change while it claims is not missed: when a waiter that found nothing goes
 * idle after a change of its run since it started to claim, the line is matched again. On each
 * change of a run with idle waiters, {@link ClaimWaiters.changed} matches the run's offers — as a
 * commit here left them ({@link ClaimWaiters.committed}), else after one look — and wakes, oldest
 * first, one idle waiter for each item on offer that no claiming waiter will take and that
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
      nothingOnOffer: (trustMs) => {
        const now = this.#options.clock();
        return (
          line.emptyAt === line.changes &&
          waiter.seen === line.changes &&
          now < (line.emptyUntil ?? Number.POSITIVE_INFINITY) &&
          (trustMs === undefined || now - line.emptySince < trustMs)
        );
      },
      claimedNothing: (offers) => {
        // Only when the run has not changed since its claim began: the claim saw it as it is.
        if (offers === undefined || waiter.seen !== line.changes) return;
        if (isEmpty(offers)) {
          line.emptyAt = line.changes;
          line.emptySince = this.#options.clock();
          line.emptyUntil = offers.nextLeaseExpiry;
        }
      },
      idle: (timeoutMs, signal) => this.#idle(runId, line, waiter, timeoutMs, signal),
      leave: (claimed) => {
        waiter.wake?.(false);
        line.waiters.delete(waiter);
        // An offer it was given (woken for it, or counted as taking it while it claimed) goes to
        // the next waiter; a change no match has seen yet is matched. A wait that merely ends
        // leaves as it came: the matches since it began found nothing for it.
        const passOn =
          waiter.counted || (!claimed && waiter.matched) || line.matchedAt !== line.changes;
        if (passOn) this.#match(runId, line, true);
        else if (isUnused(line)) this.#drop(runId, line);
      },
    };
  }

  /**
   * Enters a poll for `agent`'s offers in the run's line: call before its first look at the run,
   * so that a change while it looks is not missed.
   */
  watch(runId: string, agent: AgentIdentity): OfferWatch {
    const line = this.#line(runId);
    const watcher: Watcher = { agent, seen: line.changes, wake: undefined };
    line.watchers.add(watcher);
    return {
      next: (timeoutMs, signal) => this.#watchNext(line, watcher, timeoutMs, signal),
      leave: () => {
        watcher.wake?.(false);
        line.watchers.delete(watcher);
        if (isUnused(line)) this.#drop(runId, line);
      },
    };
  }

  /**
   * A commit here changed the run (called before {@link changed} tells of it): `offers` gives the
   * run's offers as committed, so that the change is matched without a look at the run.
   */
  committed(runId: string, offers: () => RunOffers): void {
    const line = this.#lines.get(runId);
    if (line !== undefined) line.committed = offers;
  }

  /**
   * Every run's line looks again, as after a change from elsewhere: changes may have been missed,
   * so the offers a commit here left are not trusted either.
   */
  changedEverywhere(): void {
    for (const [runId, line] of [...this.#lines]) {
      line.committed = undefined;
      this.changed(runId);
    }
  }

  /**
   * The run changed (an event was appended, here or on another instance): match its line — on
   * the offers {@link committed} gave, else after a look.
   */
  changed(runId: string): void {
    const line = this.#lines.get(runId);
    if (line === undefined) return;
    line.changes += 1;
    const committed = line.committed;
    line.committed = undefined;
    if (committed !== undefined) this.#known(line, committed());
    for (const watcher of line.watchers) if (watcher.wake !== undefined) this.#tell(line, watcher);
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
      for (const watcher of line.watchers) watcher.wake?.(false);
      this.#drop(runId, line);
    }
  }

  #line(runId: string): Line {
    let line = this.#lines.get(runId);
    if (line === undefined) {
      line = {
        waiters: new Set(),
        watchers: new Set(),
        changes: 0,
        emptyAt: undefined,
        emptySince: 0,
        emptyUntil: undefined,
        idle: 0,
        matching: false,
        again: false,
        matchedAt: 0,
        offers: undefined,
        offersAt: -1,
        committed: undefined,
      };
      this.#lines.set(runId, line);
    }
    return line;
  }

  /**
   * Whether the changes since `watcher` last looked may offer it something: false only when the
   * run's offers at its current count of changes are known (committed here) and none is for it.
   */
  #mayOffer(line: Line, watcher: Watcher): boolean {
    if (watcher.seen === line.changes) return false;
    if (line.offers === undefined || line.offersAt !== line.changes) return true;
    if (line.offers.some((item) => !isOwnWork(item as ItemState, watcher.agent))) return true;
    watcher.seen = line.changes; // as good as looked at: nothing for it
    return false;
  }

  /** A change of the run, told to a waiting watcher: woken when it may offer it something. */
  #tell(line: Line, watcher: Watcher): void {
    if (this.#mayOffer(line, watcher)) watcher.wake?.(true);
  }

  #watchNext(
    line: Line,
    watcher: Watcher,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    if (this.#closed || signal?.aborted) return Promise.resolve(false);
    if (this.#mayOffer(line, watcher)) {
      watcher.seen = line.changes;
      return Promise.resolve(true);
    }
    if (timeoutMs <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const finish: Woken = (changed) => {
        watcher.wake = undefined;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        // Woken for a change: its next look begins at this count of changes.
        if (changed) watcher.seen = line.changes;
        resolve(changed && !this.#closed);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(onAbort, timeoutMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      watcher.wake = finish;
    });
  }

  #drop(runId: string, line: Line): void {
    if (this.#lines.get(runId) === line) this.#lines.delete(runId);
  }

  /** The run's offers at its current count of changes. */
  #known(line: Line, offers: RunOffers): void {
    line.offers = [...offers.offered].map(({ kind, target_author_id }) => ({
      kind,
      target_author_id,
    }));
    line.offersAt = line.changes;
    line.emptyAt = line.offers.length === 0 ? line.changes : undefined;
    line.emptySince = this.#options.clock();
    line.emptyUntil = offers.nextLeaseExpiry;
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
        line.idle -= 1;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (matched) {
          waiter.seen = line.changes;
          waiter.matched = true;
        }
        resolve(matched && !this.#closed);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(onAbort, spreadWait(timeoutMs, this.#options.random));
      signal?.addEventListener("abort", onAbort, { once: true });
      waiter.wake = finish;
      line.idle += 1;
    });
    // Counted as taking an offer while it claimed (it did not, or took another): the line is
    // matched again; so it is after a change no match has seen (none was idle to wake then).
    if (counted || line.matchedAt !== line.changes) this.#match(runId, line, counted);
    return promise;
  }

  /**
   * Wakes the idle waiters the run's offers are for: at once on the offers known at its current
   * count of changes, else after a look at the run (one look at a time per run; changes during a
   * look match again after it). `passOn`: a waiter given an offer left without it, so the line is
   * matched again even when no change came since the last match.
   */
  #match(runId: string, line: Line, passOn = false): void {
    if (line.matching) {
      line.again = true;
      return;
    }
    if (line.idle === 0) {
      if (isUnused(line)) this.#drop(runId, line);
      return;
    }
    if (!passOn && line.matchedAt === line.changes) return;
    if (line.offers !== undefined && line.offersAt === line.changes) {
      line.matchedAt = line.changes;
      wakeFor(line.offers, line.waiters);
      return;
    }
    line.matching = true;
    line.again = false;
    const changes = line.changes;
    this.#options.look(runId).then(
      (offers) => {
        line.matching = false;
        if (line.changes === changes) this.#known(line, offers);
        // Unless a commit here brought newer offers during the look (matched next, below).
        if (line.offersAt <= changes) {
          line.matchedAt = changes;
          wakeFor([...offers.offered], line.waiters);
        }
        this.#matchedAgain(runId, line);
      },
      (error: unknown) => {
        line.matching = false;
        this.#options.onError?.(error);
        // Each woken waiter claims, and its claim answers what went wrong.
        for (const waiter of line.waiters) waiter.wake?.(true);
        this.#matchedAgain(runId, line);
      },
    );
  }

  /**
   * After a look: the line is dropped when empty, or matched again when a change came or an
   * offer was passed on meanwhile.
   */
  #matchedAgain(runId: string, line: Line): void {
    if (isUnused(line)) this.#drop(runId, line);
    else if (line.again || line.matchedAt !== line.changes) this.#match(runId, line, line.again);
  }
}

/** Whether no one waits in the line and no look at the run is under way: it may go. */
function isUnused(line: Line): boolean {
  return line.waiters.size === 0 && line.watchers.size === 0 && !line.matching;
}

/** Whether nothing at all is on offer. */
function isEmpty(offers: RunOffers): boolean {
  for (const _ of offers.offered) return false;
  return true;
}

/**
 * Matches a run's offers to its waiters, oldest waiter first, each to the oldest offer it may
 * take and no other waiter was given — as their claims would go — and wakes each idle waiter that
 * got one. Waiters that are claiming already take theirs first.
 */
function wakeFor(offered: readonly Offered[], waiters: Iterable<Waiter>): void {
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
  for (const waiter of waiters) {
    if (left === 0) return;
    if (waiter.wake === undefined && take(waiter.agent)) waiter.counted = true;
  }
  for (const waiter of waiters) {
    if (left === 0) return;
    if (waiter.wake !== undefined && take(waiter.agent)) waiter.wake(true);
  }
}
