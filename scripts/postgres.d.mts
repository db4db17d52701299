// Types of scripts/postgres.mjs (a throwaway PostgreSQL cluster for tests and benchmarks).

/** A running throwaway cluster. */
export interface Postgres {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/postgres` */
  url: string;
  host: "127.0.0.1";
  port: number;
  user: "postgres";
  password: string;
  database: "postgres";
  /** The server's version, e.g. `15.18`. */
  version: string;
  /** The temporary folder: `data/`, the unix socket and `server.log`. */
  directory: string;
  /**
   * A shutdown, then a start on the same data folder and port. `"fast"` (the default): clients
   * disconnected, a checkpoint written; `"immediate"`: the server quits at once without a
   * checkpoint, as after a crash, and the start replays the WAL. Committed work is kept either way.
   */
  restart(options?: { mode?: "fast" | "immediate" }): Promise<void>;
  /** Stops the server and removes `directory`; idempotent. */
  stop(): Promise<void>;
}

/** PostgreSQL cannot be started on this machine; `message` says why in one line. */
export declare class PostgresUnavailableError extends Error {
  readonly code: "POSTGRES_UNAVAILABLE";
  constructor(reason: string);
}

/** The server binaries and their version, or why there are none. */
export declare function findPostgres(options?: {
  /** Install Debian's `postgresql` when missing (as root with apt-get). Default true. */
  install?: boolean;
}): Promise<{ bin: string; version: string } | { reason: string }>;

/** Starts a throwaway cluster (about 2–3 s). */
export declare function startPostgres(options?: {
  /** Install Debian's `postgresql` when missing (as root with apt-get). Default true. */
  install?: boolean;
  /** More postgresql.conf settings, e.g. `{ max_connections: 200 }`. */
  settings?: Record<string, string | number | boolean>;
  /** Leave it running when this process exits (the CLI's `start`). Default false. */
  keep?: boolean;
}): Promise<Postgres>;
