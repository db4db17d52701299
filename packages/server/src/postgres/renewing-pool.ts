// The pool of connections a PostgreSQL store works on, replaced by a new one when it loses a
// connection. postgres.js 3.4.9 can leave a pool that lost a connection unable to use that
// connection again: a write it had queued for the closed socket stays in the connection, so the
// next socket's startup message is never sent and each later query on it waits out the connect
// timeout. A new pool has none of that; the old one ends once its transactions are done.
import type { Sql } from "postgres";
import { isConnectionLost } from "./postgres-errors.ts";

/** A pool that is replaced when it loses a connection. */
export class RenewingPool {
  readonly #create: () => Sql;
  /** How long a replaced pool's transactions may take before its connections are closed. */
  readonly #retireSeconds: number;
  /** The replaced pools still ending. */
  readonly #retiring = new Set<Promise<void>>();
  #current: Sql;

  /** A pool made by `create`, and another one each time it is replaced. */
  constructor(create: () => Sql, { retireMs }: { retireMs: number }) {
    this.#create = create;
    this.#retireSeconds = retireMs / 1000;
    this.#current = create();
  }

  /** The pool to send to now. */
  get current(): Sql {
    return this.#current;
  }

  /**
   * Says that `error` came from `pool`: when it means a connection was lost and `pool` is still
   * the current one, a new pool replaces it and it ends once its transactions are done.
   */
  failed(pool: Sql, error: unknown): void {
    if (pool !== this.#current || !isConnectionLost(error)) return;
    this.#current = this.#create();
    const ending: Promise<void> = pool
      .end({ timeout: this.#retireSeconds })
      .catch(() => {})
      .finally(() => this.#retiring.delete(ending));
    this.#retiring.add(ending);
  }

  /** Ends the pool and those replaced, closing connections still busy after `timeoutMs`. */
  async end({ timeoutMs }: { timeoutMs: number }): Promise<void> {
    await Promise.all([this.#current.end({ timeout: timeoutMs / 1000 }), ...this.#retiring]);
  }
}
