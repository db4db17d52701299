// The Node scheduler's timers, with vitest's fake timers (no wall-clock wait).
import { afterEach, describe, expect, it, vi } from "vitest";
import { TimerScheduler } from "./timer-scheduler.ts";

describe("TimerScheduler", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("calls back at the time on its clock, once; a new time replaces the old, cancel clears it", () => {
    vi.useFakeTimers();
    const due: string[] = [];
    let now = 1_000;
    const timers = new TimerScheduler(
      () => now,
      (runId) => due.push(runId),
    );
    timers.at("run_a", now + 500);
    timers.at("run_b", now + 100);
    timers.at("run_b", now + 300);
    timers.at("run_c", now - 50);
    timers.cancel("run_c");
    vi.advanceTimersByTime(299);
    expect(due).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(due).toEqual(["run_b"]);
    now += 300;
    vi.advanceTimersByTime(200);
    expect(due).toEqual(["run_b", "run_a"]);
    timers.at("run_a", now + 100);
    timers.close();
    vi.advanceTimersByTime(1_000);
    expect(due).toEqual(["run_b", "run_a"]);
  });
});
