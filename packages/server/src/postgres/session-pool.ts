// The connections a PostgreSQL store runs its transactions on, each a postgres.js client of one
// connection (`max: 1`), lent to one transaction at a time: the store sends BEGIN, COMMIT and
// ROLLBACK itself, pipelined with the transaction's first and last statements (postgres.js's
// `begin` waits for its BEGIN before the first statement and sends its COMMIT only after the
// body's last answer; its `reserve` never answers when it has to connect first with
// `fetch_types: false`, as 3.4.9 does). A connection that is lost is ended, never lent again
// (postgres.js could still write to its closed socket), and a new one takes its place; so are
// the sessions idle then and those lent then once they come back, as whatever lost one
// connection (a restart, terminated backends) has most likely taken theirs too, and postgres.js
// 3.4.9 can throw where nobody can catch it when it writes to a socket closed under it.
import type { Sql } from "postgres";

/** Options of {@link SessionPool}. */
export interface SessionPoolOptions {
  /** A new client of one connection (connected on its first query). */
  create: () => Sql;
  /** The most sessions at once. */
  max: number;
  /**
   * How long an idle session retired beside a lost one may take to end before its connection is
   * closed (a lost one is ended at once).
   */
  retireMs: number;
}

/** Single-connection clients lent to one transaction at a time. */
export class SessionPool {
  readonly #options: SessionPoolOptions;
  readonly #idle: Sql[] = [];
  readonly #waiting: Array<(session: Sql) => void> = [];
  readonly #all = new Set<Sql>();
  /** The sessions lent before the last loss: ended when they come back. */
  readonly #stale = new Set<Sql>();
  readonly #retiring = new Set<Promise<void>>();

  constructor(options: SessionPoolOptions) {
    this.#options = options;
  }

  /** A session of its own until {@link release} or {@link discard}; waits while all are lent. */
  acquire(): Promise<Sql> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return Promise.resolve(idle);
    if (this.#all.size < this.#options.max) return Promise.resolve(this.#create());
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Gives a session back (its transaction ended). */
  release(session: Sql): void {
    if (this.#stale.delete(session)) {
      this.discard(session);
      return;
    }
    const next = this.#waiting.shift();
    if (next !== undefined) next(session);
    else this.#idle.push(session);
  }

  /** Ends a session whose connection was lost; a new one goes to whoever waits. */
  discard(session: Sql): void {
    this.#stale.delete(session);
    this.#all.delete(session);
    // At once: a client whose connection was lost connects again by itself to run the
    // statements still queued on it (postgres.js), outside any transaction and never closed;
    // ending it without waiting rejects them instead.
    this.#retire(session, 0);
    for (const idle of this.#idle.splice(0)) {
      this.#all.delete(idle);
      this.#retire(idle, this.#options.retireMs);
    }
    for (const lent of this.#all) this.#stale.add(lent);
    const next = this.#waiting.shift();
    if (next !== undefined) next(this.#create());
  }

  /** Ends every session, closing connections still busy after `timeoutMs`. */
  async end({ timeoutMs }: { timeoutMs: number }): Promise<void> {
    const sessions = [...this.#all];
    this.#all.clear();
    this.#idle.length = 0;
    await Promise.all([
      ...sessions.map((session) => session.end({ timeout: timeoutMs / 1000 }).catch(() => {})),
      ...this.#retiring,
    ]);
  }

  #create(): Sql {
    const session = this.#options.create();
    this.#all.add(session);
    return session;
  }

  #retire(session: Sql, timeoutMs: number): void {
    const ending: Promise<void> = session
      .end({ timeout: timeoutMs / 1000 })
      .catch(() => {})
      .finally(() => this.#retiring.delete(ending));
    this.#retiring.add(ending);
  }
}
