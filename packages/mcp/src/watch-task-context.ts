import { type FSWatcher, watch } from "node:fs";
import { resolve } from "node:path";
import { ArgumentError, CONTEXT_FILENAME } from "@task-context/core";
import { requireObject, requireText, requireWholeNumber } from "@task-context/core/internal";
import type { ContextChangeListener, ContextChanges } from "./context-changes.ts";

/** Options of {@link watchTaskContext}. */
export interface WatchTaskContextOptions {
  /**
   * Milliseconds of quiet after the last event of a burst before listeners are called (default
   * 50): an editor's save (write, rename, chmod) or a script's rapid edits make one notification.
   */
  debounceMs?: number;
  /**
   * The longest a burst is held back, in milliseconds (default 1 000): a file rewritten without
   * pause still notifies at this pace.
   */
  maxDelayMs?: number;
}

/** What {@link watchTaskContext} returns: a shared {@link ContextChanges} over one directory. */
export interface TaskContextWatcher extends ContextChanges {
  /** How many listeners are subscribed now. */
  readonly listenerCount: number;
  /** Whether a file-system watch is open now: only while there is a listener. */
  readonly watching: boolean;
  /** Drops every listener and closes the watch. Further `subscribe` calls throw. */
  close(): void;
}

/**
 * Watches a workspace directory for changes to its CONTEXT.md, for any number of listeners with
 * one `fs.watch` on the directory (which sees an editor's rename-over-save as well as writes in
 * place). Nothing polls: between changes it costs no CPU. The watch opens with the first
 * listener and closes with the last, so clients that come and go leave no handle behind; it
 * never keeps the process alive by itself. Each burst of events becomes one call per listener.
 *
 * @throws {ArgumentError} when `directory` is empty or an option is not a whole number.
 *
 * @example
 * ```ts source="../examples/watch.ts#watchTaskContext"
 * const watcher = watchTaskContext(directory);
 * const stop = watcher.subscribe(() => console.error("CONTEXT.md changed"));
 * // … later
 * stop();
 * ```
 */
export function watchTaskContext(
  directory: string,
  options: WatchTaskContextOptions = {},
): TaskContextWatcher {
  requireText("directory", directory, "the workspace directory, a non-empty path");
  requireObject("options", options);
  const debounceMs = requireWholeNumber("options.debounceMs", options.debounceMs ?? 50, 0);
  const maxDelayMs = requireWholeNumber("options.maxDelayMs", options.maxDelayMs ?? 1_000, 0);
  const root = resolve(directory);
  const listeners = new Set<ContextChangeListener>();
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let burstStarted = 0;
  let closed = false;

  const notify = () => {
    timer = undefined;
    burstStarted = 0;
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch {
        // One listener's failure must not keep the others uninformed.
      }
    }
  };

  // The quiet period ends when the timer fires and no edit is waiting to be read: a process held up
  // (a busy machine) can run an overdue timer before reading the edits that arrived meanwhile, in
  // the same turn of the event loop. So the timer only asks for a look after the next read of file
  // events (setImmediate); an edit read there restarts the quiet period, unless the burst has
  // lasted maxDelayMs already.
  const quietPeriodEnded = () => {
    timer = undefined;
    setImmediate(() => {
      if (timer !== undefined && Date.now() - burstStarted < maxDelayMs) return;
      if (timer !== undefined) clearTimeout(timer);
      if (burstStarted !== 0) notify();
    });
  };

  const schedule = () => {
    const now = Date.now();
    if (burstStarted === 0) burstStarted = now;
    if (timer !== undefined) clearTimeout(timer);
    const delay = Math.min(debounceMs, Math.max(0, burstStarted + maxDelayMs - now));
    timer = setTimeout(quietPeriodEnded, delay);
    timer.unref();
  };

  const stopWatching = () => {
    watcher?.close();
    watcher = undefined;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    burstStarted = 0;
  };

  const startWatching = () => {
    const opened = watch(root, { persistent: false }, (_event, filename) => {
      // Some platforms give no file name: the change may be ours.
      if (filename === null || filename === CONTEXT_FILENAME) schedule();
    });
    // The directory went away or became unreadable: say so once, then stop watching it.
    opened.on("error", () => {
      if (watcher !== opened) return;
      stopWatching();
      notify();
    });
    watcher = opened;
  };

  return {
    get listenerCount() {
      return listeners.size;
    },
    get watching() {
      return watcher !== undefined;
    },
    subscribe(listener) {
      if (closed) {
        throw new ArgumentError({
          argument: "watcher",
          message: "this watcher was closed; create another with watchTaskContext(directory).",
        });
      }
      if (typeof listener !== "function") {
        throw new ArgumentError({ argument: "listener", message: "expected a function." });
      }
      // A listener added twice is two subscriptions: wrap it so each has its own identity.
      const entry: ContextChangeListener = () => listener();
      if (watcher === undefined) startWatching();
      listeners.add(entry);
      return () => {
        if (!listeners.delete(entry)) return;
        if (listeners.size === 0) stopWatching();
      };
    },
    close() {
      closed = true;
      listeners.clear();
      stopWatching();
    },
  };
}
