import { afterEach, describe, expect, it, vi } from "vitest";
import { ClaimWaiters, type RunOffers } from "./claim-waiters.ts";
import type { AgentIdentity } from "./delivery-store.ts";

const RUN = "run_waiters";
const LONG = 60_000;

/** A task on offer, or a review of `author`'s artifact. */
const task = { kind: "task" as const, target_author_id: null };
const reviewOf = (author: string) => ({ kind: "review" as const, target_author_id: author });
const agent = (id: string): AgentIdentity => ({ agent_id: id, tag: id });

/** Settles every promise and callback already queued. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Waiters over a run whose offers the test sets, counting the looks. */
function setUp(clock = () => 0) {
  let offers: RunOffers = { offered: [], nextLeaseExpiry: undefined };
  const looks: string[] = [];
  const waiters = new ClaimWaiters({
    look: async (runId) => {
      looks.push(runId);
      return offers;
    },
    clock,
  });
  /** Enters `id`, finds nothing (its claim), and waits: resolves with whether it was woken. */
  const idle = (id: string) => {
    const ticket = waiters.enter(RUN, agent(id));
    return { ticket, woken: ticket.idle(LONG, undefined) };
  };
  return {
    waiters,
    looks,
    idle,
    offer(next: RunOffers["offered"], nextLeaseExpiry?: number) {
      offers = { offered: next, nextLeaseExpiry };
    },
  };
}

/** Which of `waits` have resolved, and with what. */
async function outcomes(waits: Promise<boolean>[]): Promise<Array<boolean | "waiting">> {
  const seen: Array<boolean | "waiting"> = waits.map(() => "waiting");
  waits.forEach((wait, index) => {
    void wait.then((woken) => {
      seen[index] = woken;
    });
  });
  await settle();
  return seen;
}

describe("the claim-next line of a run", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("wakes one idle waiter per item on offer, oldest first, with one look however many wait", async () => {
    const { waiters, looks, idle, offer } = setUp();
    const line = ["a", "b", "c", "d"].map(idle);
    await settle();
    expect(looks).toEqual([]);
    offer([task, task]);
    waiters.changed(RUN);
    expect(await outcomes(line.map((each) => each.woken))).toEqual([
      true,
      true,
      "waiting",
      "waiting",
    ]);
    expect(looks).toEqual([RUN]);
    for (const each of line) each.ticket.leave(false);
  });

  it("never wakes the author of the reviewed artifact for its review: the next waiter gets it", async () => {
    const { waiters, idle, offer } = setUp();
    const line = ["author", "critic"].map(idle);
    offer([reviewOf("author")]);
    waiters.changed(RUN);
    expect(await outcomes(line.map((each) => each.woken))).toEqual(["waiting", true]);
    for (const each of line) each.ticket.leave(false);
  });

  it("counts a waiter still claiming as taking an offer: an idle one is woken only for the rest", async () => {
    const { waiters, idle, offer } = setUp();
    const claiming = waiters.enter(RUN, agent("first"));
    const second = idle("second");
    offer([task]);
    waiters.changed(RUN);
    expect(await outcomes([second.woken])).toEqual(["waiting"]);
    offer([task, task]);
    waiters.changed(RUN);
    expect(await outcomes([second.woken])).toEqual([true]);
    claiming.leave(true);
    second.ticket.leave(true);
  });

  it("matches the line again when a claim found nothing after a change it did not see: the oldest idle waiter is woken", async () => {
    const { waiters, looks, idle, offer } = setUp();
    const other = idle("other");
    // Enters and claims; the offer is committed meanwhile, after its claim read the run.
    const late = waiters.enter(RUN, agent("late"));
    offer([task]);
    waiters.changed(RUN);
    expect(await outcomes([other.woken])).toEqual(["waiting"]);
    // Its claim found nothing: going idle matches the line again (on the offers the look found,
    // the run unchanged since); the oldest waiter is woken.
    const lateWoken = late.idle(LONG, undefined);
    expect(await outcomes([lateWoken, other.woken])).toEqual(["waiting", true]);
    expect(looks).toEqual([RUN]);
    late.leave(false);
    other.ticket.leave(true);
  });

  it("matches again when a waiter counted as taking an offer ends its claim: it may have taken another", async () => {
    const { waiters, looks, idle, offer } = setUp();
    const idleOne = idle("idle");
    // Claimed an item already (its claim committed), and has not left the line yet.
    const claimed = waiters.enter(RUN, agent("claimed"));
    offer([task]);
    waiters.changed(RUN);
    expect(await outcomes([idleOne.woken])).toEqual(["waiting"]);
    claimed.leave(true);
    expect(await outcomes([idleOne.woken])).toEqual([true]);
    expect(looks).toEqual([RUN]);
    idleOne.ticket.leave(true);
  });

  it("a waiter that found nothing with no change since it began claiming costs no look", async () => {
    const { waiters, looks, idle } = setUp();
    const line = ["a", "b", "c"].map(idle);
    await settle();
    expect(looks).toEqual([]);
    for (const each of line) each.ticket.leave(false);
    expect(waiters.waiting(RUN)).toBe(0);
  });

  it("passes the offer on when a woken waiter leaves without claiming (its client went away)", async () => {
    const { waiters, idle, offer } = setUp();
    const [first, second] = ["first", "second"].map(idle);
    offer([task]);
    waiters.changed(RUN);
    expect(await outcomes([first?.woken, second?.woken] as Promise<boolean>[])).toEqual([
      true,
      "waiting",
    ]);
    first?.ticket.leave(false);
    expect(await outcomes([second?.woken as Promise<boolean>])).toEqual([true]);
    second?.ticket.leave(true);
  });

  it("matches once more after a look when changes came during it", async () => {
    let release: (offers: RunOffers) => void = () => {};
    const looks: RunOffers[] = [];
    const waiters = new ClaimWaiters({
      look: () =>
        new Promise<RunOffers>((resolve) => {
          release = (offers) => {
            looks.push(offers);
            resolve(offers);
          };
        }),
      clock: () => 0,
    });
    const first = waiters.enter(RUN, agent("first"));
    const second = waiters.enter(RUN, agent("second"));
    const firstWoken = first.idle(LONG, undefined);
    const secondWoken = second.idle(LONG, undefined);
    waiters.changed(RUN);
    waiters.changed(RUN);
    waiters.changed(RUN);
    release({ offered: [task], nextLeaseExpiry: undefined });
    expect(await outcomes([firstWoken, secondWoken])).toEqual([true, "waiting"]);
    // One more look for the changes during the first, not one per change.
    release({ offered: [task, task], nextLeaseExpiry: undefined });
    expect(await outcomes([secondWoken])).toEqual([true]);
    expect(looks).toHaveLength(2);
    first.leave(true);
    second.leave(true);
  });

  it("lets a new waiter skip its claim while the run is quiet with nothing on offer, until a change or a lease's end", async () => {
    let now = 1_000;
    const { waiters } = setUp(() => now);
    const first = waiters.enter(RUN, agent("first"));
    expect(first.nothingOnOffer()).toBe(false);
    first.claimedNothing({ offered: [], nextLeaseExpiry: 5_000 });
    const second = waiters.enter(RUN, agent("second"));
    expect(second.nothingOnOffer()).toBe(true);
    now = 5_000;
    expect(second.nothingOnOffer()).toBe(false);
    now = 1_000;
    waiters.changed(RUN);
    const third = waiters.enter(RUN, agent("third"));
    expect(third.nothingOnOffer()).toBe(false);
    // Something on offer that its claim could not take (a review of its own artifact): no skip.
    third.claimedNothing({ offered: [reviewOf("third")], nextLeaseExpiry: undefined });
    expect(waiters.enter(RUN, agent("fourth")).nothingOnOffer()).toBe(false);
    waiters.close();
  });

  it("trusts a look that found nothing on offer for the safety recheck's time at most (a change may go untold)", async () => {
    let now = 1_000;
    const { waiters } = setUp(() => now);
    const first = waiters.enter(RUN, agent("first"));
    first.claimedNothing({ offered: [], nextLeaseExpiry: undefined });
    now = 30_999;
    expect(waiters.enter(RUN, agent("second")).nothingOnOffer(30_000)).toBe(true);
    expect(waiters.enter(RUN, agent("third")).nothingOnOffer()).toBe(true);
    now = 31_000;
    const fourth = waiters.enter(RUN, agent("fourth"));
    expect(fourth.nothingOnOffer(30_000)).toBe(false);
    // Its claim finds nothing again: trusted for another recheck's time.
    fourth.claimedNothing({ offered: [], nextLeaseExpiry: undefined });
    expect(waiters.enter(RUN, agent("fifth")).nothingOnOffer(30_000)).toBe(true);
    waiters.close();
  });

  it("matches a change committed here on the offers it committed, without a look", async () => {
    const { waiters, looks, idle } = setUp();
    const line = ["a", "b", "c"].map(idle);
    waiters.committed(RUN, () => ({ offered: [task, reviewOf("a")], nextLeaseExpiry: undefined }));
    waiters.changed(RUN);
    expect(await outcomes(line.map((each) => each.woken))).toEqual([true, true, "waiting"]);
    // The woken "a" leaves without claiming: its task goes to "c" on the same offers.
    line[0]?.ticket.leave(false);
    expect(await outcomes(line.map((each) => each.woken))).toEqual([true, true, true]);
    expect(looks).toEqual([]);
    for (const each of line.slice(1)) each.ticket.leave(true);
  });

  it("looks when a change was not committed here (another instance's), and after no stale offers", async () => {
    const { waiters, looks, idle, offer } = setUp();
    const waiting = idle("waiter");
    waiters.committed(RUN, () => ({ offered: [], nextLeaseExpiry: undefined }));
    waiters.changed(RUN);
    // The next change comes from elsewhere: the offers committed before are not used for it.
    offer([task]);
    waiters.changed(RUN);
    expect(await outcomes([waiting.woken])).toEqual([true]);
    expect(looks).toEqual([RUN]);
    waiting.ticket.leave(true);
  });

  it("costs nothing when waits end after a change their line has matched", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { waiters, looks } = setUp();
    const tickets = ["a", "b", "c"].map((id) => waiters.enter(RUN, agent(id)));
    const waits = tickets.map((ticket) => ticket.idle(1_000, undefined));
    waiters.changed(RUN);
    await vi.advanceTimersByTimeAsync(0);
    expect(looks).toEqual([RUN]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await Promise.all(waits)).toEqual([false, false, false]);
    for (const ticket of tickets) ticket.leave(false);
    expect(looks).toEqual([RUN]);
    expect(waiters.waiting(RUN)).toBe(0);
  });

  it("ends waits that began together apart: each up to a tenth of its time sooner", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const randoms = [0, 0.5, 0.9];
    const waiters = new ClaimWaiters({
      look: async () => ({ offered: [], nextLeaseExpiry: undefined }),
      clock: () => 0,
      random: () => randoms.shift() ?? 0,
    });
    const tickets = ["a", "b", "c"].map((id) => waiters.enter(RUN, agent(id)));
    const waits = tickets.map((ticket) => ticket.idle(1_000, undefined));
    await vi.advanceTimersByTimeAsync(910);
    expect(await outcomes(waits)).toEqual(["waiting", "waiting", false]);
    await vi.advanceTimersByTimeAsync(40);
    expect(await outcomes(waits)).toEqual(["waiting", false, false]);
    await vi.advanceTimersByTimeAsync(50);
    expect(await outcomes(waits)).toEqual([false, false, false]);
    for (const ticket of tickets) ticket.leave(false);
  });

  it("ends a wait when its time is up, its signal aborts, or the waiters close", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { waiters } = setUp();
    const timed = waiters.enter(RUN, agent("timed"));
    const timedOut = timed.idle(1_000, undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await timedOut).toBe(false);
    const aborted = new AbortController();
    const leaving = waiters.enter(RUN, agent("leaving"));
    const left = leaving.idle(LONG, aborted.signal);
    aborted.abort();
    expect(await left).toBe(false);
    const closing = waiters.enter(RUN, agent("closing"));
    const closed = closing.idle(LONG, undefined);
    waiters.close();
    expect(await closed).toBe(false);
    expect(await closing.idle(LONG, undefined)).toBe(false);
    for (const ticket of [timed, leaving, closing]) ticket.leave(false);
  });
});

describe("polls watching a run's offers in its line", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("wakes a watch for a change committed here only when it offers something the agent may take", async () => {
    const { waiters, looks } = setUp();
    const watches = ["a", "b"].map((id) => waiters.watch(RUN, agent(id)));
    const first = watches.map((watch) => watch.next(LONG, undefined));
    // Nothing on offer, then only a review of a's own artifact: a sleeps through both.
    waiters.committed(RUN, () => ({ offered: [], nextLeaseExpiry: undefined }));
    waiters.changed(RUN);
    expect(await outcomes(first)).toEqual(["waiting", "waiting"]);
    waiters.committed(RUN, () => ({ offered: [reviewOf("a")], nextLeaseExpiry: undefined }));
    waiters.changed(RUN);
    expect(await outcomes(first)).toEqual(["waiting", true]);
    waiters.committed(RUN, () => ({ offered: [task], nextLeaseExpiry: undefined }));
    waiters.changed(RUN);
    expect(await outcomes(first)).toEqual([true, true]);
    // A watch looks for itself: the line made no look.
    expect(looks).toEqual([]);
    for (const watch of watches) watch.leave();
    expect(waiters.waiting(RUN)).toBe(0);
  });

  it("wakes every watch for a change from elsewhere, whose offers it cannot know", async () => {
    const { waiters } = setUp();
    const watch = waiters.watch(RUN, agent("a"));
    const woken = watch.next(LONG, undefined);
    waiters.changed(RUN);
    expect(await outcomes([woken])).toEqual([true]);
    // Looked since: the next wait sleeps until the next change.
    const again = watch.next(LONG, undefined);
    expect(await outcomes([again])).toEqual(["waiting"]);
    waiters.close();
    expect(await outcomes([again])).toEqual([false]);
  });

  it("answers at once for a change that came while the poll looked, before its wait began", async () => {
    const { waiters } = setUp();
    const watch = waiters.watch(RUN, agent("a"));
    // The poll looks (finds nothing); meanwhile a commit offers a task.
    waiters.committed(RUN, () => ({ offered: [task], nextLeaseExpiry: undefined }));
    waiters.changed(RUN);
    expect(await outcomes([watch.next(LONG, undefined)])).toEqual([true]);
    // A change while it looked that offers it nothing: it waits.
    waiters.committed(RUN, () => ({ offered: [reviewOf("a")], nextLeaseExpiry: undefined }));
    waiters.changed(RUN);
    const next = watch.next(LONG, undefined);
    expect(await outcomes([next])).toEqual(["waiting"]);
    watch.leave();
    expect(await outcomes([next])).toEqual([false]);
  });

  it("keeps the run's line while a watch waits, its claim-next waiters gone", async () => {
    const { waiters } = setUp();
    const watch = waiters.watch(RUN, agent("a"));
    const claimer = waiters.enter(RUN, agent("b"));
    const woken = watch.next(LONG, undefined);
    claimer.leave(false);
    waiters.committed(RUN, () => ({ offered: [task], nextLeaseExpiry: undefined }));
    waiters.changed(RUN);
    expect(await outcomes([woken])).toEqual([true]);
    watch.leave();
  });

  it("ends a watch's wait after its time or when its signal aborts", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { waiters } = setUp();
    const watch = waiters.watch(RUN, agent("a"));
    const timed = watch.next(1_000, undefined);
    await vi.advanceTimersByTimeAsync(999);
    expect(await outcomes([timed])).toEqual(["waiting"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcomes([timed])).toEqual([false]);
    const abort = new AbortController();
    const aborted = watch.next(LONG, abort.signal);
    abort.abort();
    expect(await outcomes([aborted])).toEqual([false]);
    watch.leave();
  });
});
