// The connection on which an instance hears the other instances' commits (LISTEN / NOTIFY),
// kept listening. postgres.js's own `listen()` listens again when its connection closes, but
// when that attempt fails (every connection slot taken, the server still starting up) it drops
// the channel without a word: the instance stays deaf to the others' commits until it restarts,
// and its waiters hear of them only at their safety recheck. Here a lost connection is listened
// again, with backoff, until it succeeds or the listener ends; then its handlers are told
// (`listeningAgain`), for the commits made while it was not listening were not heard.
import postgres, { type Options } from "postgres";

/** The first wait before listening again after a failed attempt; it doubles up to the most. */
const FIRST_RETRY_MS = 50;
const MOST_RETRY_MS = 5_000;

/** What a {@link CommitListener} is told. */
export interface CommitListenerHandlers {
  /** A notification on the channel, with its payload. */
  notified(payload: string): void;
  /**
   * Listening again after the connection was lost: what was notified meanwhile was not heard, so
   * whoever waits for a notification should look again.
   */
  listeningAgain?(): void;
}

/**
 * postgres.js hands every notification its connections receive to the `onnotify` option (its own
 * `listen()` is built on it: src/index.js), which its types leave out.
 */
type ListeningOptions = Options<Record<string, postgres.PostgresType>> & {
  onnotify(channel: string, payload: string): void;
};

/** One connection that listens on one channel, and listens again whenever it is lost. */
export class CommitListener {
  readonly #sql: postgres.Sql;
  readonly #statement: string;
  readonly #handlers: CommitListenerHandlers;
  /** Set while the connection is being listened again. */
  #relistening: Promise<void> | undefined;
  #retry: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  /** How many times the connection was lost: a loss during an attempt makes it try again. */
  #losses = 0;
  #failedAttempts = 0;
  #ended = false;

  private constructor(
    url: string,
    options: Options<Record<string, postgres.PostgresType>>,
    channel: string,
    handlers: CommitListenerHandlers,
  ) {
    this.#statement = `LISTEN "${channel.replaceAll('"', '""')}"`;
    this.#handlers = handlers;
    const listening: ListeningOptions = {
      ...options,
      max: 1,
      // Kept open (0: no limit): postgres.js would otherwise end it when idle or after its lifetime.
      idle_timeout: 0,
      max_lifetime: 0,
      onnotify: (name: string, payload: string) => {
        if (name === channel) handlers.notified(payload);
      },
      onclose: () => this.#lost(),
    };
    this.#sql = postgres(url, listening);
  }

  /** Connects to `url` and listens on `channel`; rejects when the first LISTEN fails. */
  static async start(
    url: string,
    options: Options<Record<string, postgres.PostgresType>>,
    channel: string,
    handlers: CommitListenerHandlers,
  ): Promise<CommitListener> {
    const listener = new CommitListener(url, options, channel, handlers);
    try {
      await listener.#sql.unsafe(listener.#statement);
    } catch (error) {
      await listener.end(0);
      throw error;
    }
    return listener;
  }

  /** Whether the listener is listening again after losing its connection. */
  get relistening(): boolean {
    return this.#relistening !== undefined;
  }

  /** How many attempts to listen again have failed so far. */
  get failedAttempts(): number {
    return this.#failedAttempts;
  }

  /** Stops listening and closes the connection (waiting at most `timeoutMs` for it). */
  async end(timeoutMs: number): Promise<void> {
    this.#ended = true;
    if (this.#retry !== undefined) {
      clearTimeout(this.#retry.timer);
      this.#retry.resolve();
    }
    await this.#sql.end({ timeout: timeoutMs / 1000 });
  }

  #lost(): void {
    this.#losses += 1;
    if (this.#ended || this.#relistening !== undefined) return;
    this.#relistening = this.#listenAgain().finally(() => {
      this.#relistening = undefined;
    });
  }

  async #listenAgain(): Promise<void> {
    for (let waitMs = FIRST_RETRY_MS; !this.#ended; waitMs = Math.min(waitMs * 2, MOST_RETRY_MS)) {
      const losses = this.#losses;
      try {
        await this.#sql.unsafe(this.#statement);
        // Lost again meanwhile: that LISTEN may have gone with its connection.
        if (this.#losses !== losses) continue;
        this.#handlers.listeningAgain?.();
        return;
      } catch {
        // Not reachable yet (a slot, the server starting up): the next attempt says.
        this.#failedAttempts += 1;
      }
      await new Promise<void>((resolve) => {
        this.#retry = { timer: setTimeout(resolve, waitMs), resolve };
      });
      this.#retry = undefined;
    }
  }
}
