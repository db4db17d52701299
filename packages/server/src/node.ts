/**
 * The delivery service on Node: embedded SQLite (node:sqlite, Node ≥ 22.13) or PostgreSQL
 * (`databaseUrl`, `TASK_CONTEXT_DATABASE_URL`, Node ≥ 20.19), a node:http server, settings from
 * the environment, graceful shutdown. node:sqlite is loaded only when the SQLite store is opened:
 * on an older Node that throws `SqliteUnavailableError` (`UNSUPPORTED_RUNTIME`), naming the Node
 * it needs.
 *
 * ```ts source="../examples/node-server.ts#startNodeServer"
 * const { generatedAdminToken, ...settings } = nodeSettingsFromEnv(process.env);
 * const server = await startNodeServer({ ...settings, port: 0, database: ":memory:" });
 * console.log(`listening on ${server.url}`);
 * if (generatedAdminToken) console.log(`admin token: ${settings.adminToken}`);
 * ```
 *
 * @module
 */
import type { AddressInfo, Socket } from "node:net";
import { getConnInfo } from "@hono/node-server/conninfo";
import { ArgumentError, type SecretPolicy } from "@task-context/core";
import { requireText, requireWholeNumber } from "@task-context/core/internal";
import type { PushReceiver, PushStats } from "./a2a/push-receiver.ts";
import type { A2aServerOptions } from "./a2a-server/client-tokens.ts";
import { createApp, defaultBodyBytes, type Limits } from "./app.ts";
import { startNodeDuties } from "./background/node-duties.ts";
import { defaultAllowedHosts } from "./http/allowed-hosts.ts";
import { clientAddress } from "./http/client-address.ts";
import { createNodeHttpServer } from "./node-http/node-http-server.ts";
import { closingConnection } from "./node-http/unread-body.ts";
import { type Durability, openNodeDatabase } from "./node-sqlite.ts";
import { requirePostgresUrl } from "./postgres/postgres-url.ts";
import { type ServiceEnv, serviceSettingsFromEnv } from "./settings.ts";
import { SqlStore } from "./sql/sql-store.ts";
import type { StepStore } from "./sql/step-store.ts";

export {
  type Durability,
  type NodeDatabaseOptions,
  type NodeSqlDatabase,
  openNodeDatabase,
} from "./node-sqlite.ts";
export {
  type NodeServiceErrorCode,
  SQLITE_NODE,
  SqliteUnavailableError,
} from "./sqlite-unavailable-error.ts";

/** What {@link startNodeServer} is started with. */
export interface NodeServerOptions {
  /** TCP port; 0 picks a free one (default 8787). */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** SQLite file, or `:memory:` (default `.data/task-context.db`); unused with `databaseUrl`. */
  database?: string;
  /**
   * A PostgreSQL URL (`postgres://user:password@host:5432/database`): the store is PostgreSQL
   * there instead of the SQLite `database`, and any number of instances may serve it together.
   */
  databaseUrl?: string;
  /** With `databaseUrl`: the most connections this instance opens (default 10). */
  databasePool?: number;
  /**
   * What a committed operation survives (default `"process"`): a crash of the process, or with
   * `"machine"` also a crash of the machine (each group commit flushed to disk before it is
   * answered). See {@link Durability}.
   */
  durability?: Durability;
  adminToken: string;
  limits?: Limits;
  /** Milliseconds since the epoch (tests move it). */
  clock?: () => number;
  /**
   * How often the overdue leases of every run are looked for (default 1000 ms): the runs this
   * instance changes are woken at their earliest lease expiry by a timer, this sweep finds the
   * others (changed by another instance on PostgreSQL, or before a restart).
   */
  sweepMs?: number;
  /** Origins allowed to call the API from a browser; CORS is off without it. */
  cors?: { origins: readonly string[] };
  /**
   * Host names `/mcp` answers (DNS-rebinding protection; see `createApp`). Default: the loopback
   * names, and `host` when it is a specific address.
   */
  allowedHosts?: readonly string[];
  onUnexpectedError?: (error: unknown) => void;
  /** Secrets in a new run: `"redact"` (default), `"refuse"` or `"allow"` (see `createApp`). */
  secrets?: SecretPolicy;
  /**
   * The service's address as A2A agents reach it (default: the origin the admin registered the
   * agent at): the earlier artifacts' URIs in the messages sent to A2A agents are under it.
   */
  publicUrl?: string;
  /**
   * How often an A2A task is polled with tasks/get when its agent does not stream (default
   * 1000 ms); the clock is looked at as often (1 s at most) for A2A leases that end.
   */
  a2aPollMs?: number;
  /**
   * How long an A2A agent's card is used before it is read again, by `clock` (default 1 hour):
   * before the agent's next attempt; after an attempt that failed with a transport error, at once.
   */
  a2aCardRefreshMs?: number;
  /**
   * Refuse every A2A agent whose card carries no signature that verifies
   * (`AGENT_CARD_SIGNATURE_INVALID`), as `a2a.require_signature` does for one. Default false.
   */
  a2aRequireSignatures?: boolean;
  /** The service as an A2A agent: tokens scoped to creating runs there (see `createApp`). */
  a2aServer?: A2aServerOptions;
}

/** A running server. */
export interface NodeServer {
  /** `http://HOST:PORT`. */
  url: string;
  /**
   * What the A2A push webhook applied, ignored as late and refused as forged (by why); present
   * when push notifications are used (`publicUrl` set).
   */
  a2aPush?: PushStats;
  /** Stops accepting, answers long polls, ends streams, closes the database. */
  close(): Promise<void>;
}

/**
 * The receiver of A2A push notifications: only with `publicUrl` (the agents must reach the
 * webhook there; the origin an admin happened to register at may be one only they can reach).
 * The push tasks are kept beside the runs (SQLite or PostgreSQL).
 */
async function a2aPush(
  options: NodeServerOptions,
  store: StepStore,
  shutdown: AbortSignal,
  bodyBytes: number,
): Promise<{ receiver: PushReceiver; publicUrl: string } | undefined> {
  if (options.publicUrl === undefined) return undefined;
  // Loaded only here: a service without a public URL never loads the A2A SDK at start.
  const [{ agentOperations }, { OAuthTokens }, { PushReceiver }] = await Promise.all([
    import("./a2a/agent-operations.ts"),
    import("./a2a/oauth-tokens.ts"),
    import("./a2a/push-receiver.ts"),
  ]);
  const clock = options.clock ?? Date.now;
  const timing = { clock, recheckMs: 1000, keepAliveMs: 15_000 };
  const receiver = new PushReceiver({
    tasks: store.pushTasks(),
    store,
    operations: agentOperations({ store, timing, shutdown, bodyBytes }, shutdown),
    tokens: new OAuthTokens(clock),
    clock,
    answerBytes: 4 * bodyBytes,
    onError: options.onUnexpectedError,
  });
  return { receiver, publicUrl: options.publicUrl };
}

/**
 * How long the server waits for the unread rest of a request body (within the body limit) after
 * an early answer, to keep the connection; past it the answer says `Connection: close`.
 */
const DRAIN_MS = 1000;

/** The store a Node server runs on, and how it closes once the server has stopped. */
interface NodeStore {
  store: StepStore;
  close(): Promise<void>;
}

/** The embedded SQLite store, with group commit. */
function openSqliteStore(options: NodeServerOptions): NodeStore {
  const database = openNodeDatabase(
    options.database ?? ".data/task-context.db",
    options.durability === undefined ? {} : { durability: options.durability },
  );
  // Group commit: the requests read in one turn of the event loop share one transaction.
  const store = new SqlStore(database, {
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    schedule: setImmediate,
  });
  return { store, close: async () => database.close() };
}

/** The PostgreSQL store; its driver is loaded only here. */
async function openPostgresStore(url: string, options: NodeServerOptions): Promise<NodeStore> {
  const { PostgresStore } = await import("./postgres/postgres-store.ts");
  const store = await PostgresStore.open(url, {
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.databasePool === undefined
      ? {}
      : { maxConnections: requireWholeNumber("databasePool", options.databasePool, 1) }),
  });
  return { store, close: () => store.end() };
}

/**
 * Starts the delivery service on Node with an SQLite database, or on PostgreSQL. Without
 * `databaseUrl` on a Node older than 22.13 it throws `SqliteUnavailableError` before listening.
 */
export async function startNodeServer(options: NodeServerOptions): Promise<NodeServer> {
  const host = options.host ?? "127.0.0.1";
  const port = requireWholeNumber("port", options.port ?? 8787, 0, 65_535);
  const bodyBytes = options.limits?.bodyBytes ?? defaultBodyBytes;
  const { store, close: closeStore } =
    options.databaseUrl === undefined
      ? openSqliteStore(options)
      : await openPostgresStore(requirePostgresUrl("databaseUrl", options.databaseUrl), options);
  const shutdown = new AbortController();
  const push = await a2aPush(options, store, shutdown.signal, bodyBytes);
  const app = createApp({
    store,
    auth: { adminToken: options.adminToken },
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    // An IPv6 client by its /64, as on Workers: one client holds a whole /64.
    clientAddress: (c) => clientAddress(getConnInfo(c).remote.address),
    ...(options.cors === undefined ? {} : { cors: options.cors }),
    allowedHosts: options.allowedHosts ?? defaultAllowedHosts(host),
    ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
    ...(options.a2aRequireSignatures === true ? { a2a: { requireSignatures: true } } : {}),
    ...(options.a2aServer === undefined ? {} : { a2aServer: options.a2aServer }),
    signal: shutdown.signal,
    ...(push === undefined ? {} : { a2aPush: push.receiver }),
    // Its duties (lease expiry, the sweep, A2A) start below, once listening.
    backgroundDuties: false,
    ...(options.onUnexpectedError === undefined
      ? {}
      : { onUnexpectedError: options.onUnexpectedError }),
  });
  const server = createNodeHttpServer(
    async (request, env) => {
      const response = await app.fetch(request, env);
      // Once stopping, every answer closes its connection: a client that keeps its connection
      // busy would otherwise be served until the last resort below, closeAllConnections.
      return shutdown.signal.aborted ? closingConnection(response) : response;
    },
    {
      drain: { maxBytes: bodyBytes, maxMs: DRAIN_MS },
      hostname: host,
      onUnexpectedError: options.onUnexpectedError,
    },
  );
  // Every open connection: once stopping, one that never sent a byte is closed at once (see close).
  const connections = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  // Once listening: a run changes only from now on.
  const duties = startNodeDuties({
    store,
    clock: options.clock,
    sweepMs: options.sweepMs,
    a2a: {
      serviceUrl: options.publicUrl,
      bodyBytes,
      ...(options.a2aPollMs === undefined ? {} : { pollIntervalMs: options.a2aPollMs }),
      push,
      ...(options.a2aCardRefreshMs === undefined
        ? {}
        : { cardRefreshMs: options.a2aCardRefreshMs }),
    },
    onError: (error) => options.onUnexpectedError?.(error),
  });
  let closing: Promise<void> | undefined;
  return {
    url,
    ...(push === undefined ? {} : { a2aPush: push.receiver.stats }),
    close() {
      closing ??= (async () => {
        shutdown.abort();
        await duties.close();
        store.close();
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => server.closeAllConnections(), 5000);
          // A connection whose answer began before the stop (an event stream, a long poll)
          // said keep-alive; once that answer ends it is idle, and closed at the next look.
          // Node counts a connection that never sent a byte as busy, not idle (a client's pool
          // opens one ahead, or for a request it then aborted): closed here, it does not hold
          // the stop until the last resort.
          const closeIdle = () => {
            server.closeIdleConnections();
            for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
          };
          const idle = setInterval(closeIdle, 20);
          server.close(() => {
            clearTimeout(force);
            clearInterval(idle);
            resolve();
          });
          closeIdle();
        });
        await closeStore();
      })();
      return closing;
    },
  };
}

/**
 * The variables of the Node entry: those every runtime reads ({@link ServiceEnv}), and where
 * the server listens and keeps its database.
 */
export interface NodeEnv extends ServiceEnv {
  /** TCP port, 0 for any free one (default 8787). */
  PORT?: string | undefined;
  /** Address to listen on (default 127.0.0.1). */
  HOST?: string | undefined;
  /** SQLite file, or `:memory:` (default `.data/task-context.db`). */
  TASK_CONTEXT_DB?: string | undefined;
  /** A PostgreSQL URL: the store is PostgreSQL there instead of SQLite. */
  TASK_CONTEXT_DATABASE_URL?: string | undefined;
  /** With a PostgreSQL URL: the most connections an instance opens (default 10). */
  TASK_CONTEXT_DATABASE_POOL?: string | undefined;
  /** What a commit survives: `process` (default) or `machine` (see {@link Durability}). */
  TASK_CONTEXT_DURABILITY?: string | undefined;
  /** The service's address as A2A agents reach it (`publicUrl`): push notifications need it. */
  TASK_CONTEXT_PUBLIC_URL?: string | undefined;
}

/** {@link NodeServerOptions} read from the environment, and whether the admin token was generated. */
export interface NodeSettings extends NodeServerOptions {
  port: number;
  host: string;
  database: string;
  durability: Durability;
  /** True when `TASK_CONTEXT_ADMIN_TOKEN` was unset or empty and `adminToken` is a new random one. */
  generatedAdminToken: boolean;
}

/**
 * The server's settings from the environment: `PORT`, `HOST`, `TASK_CONTEXT_DB`,
 * `TASK_CONTEXT_DURABILITY`, `TASK_CONTEXT_DATABASE_URL`, `TASK_CONTEXT_DATABASE_POOL` and
 * `TASK_CONTEXT_PUBLIC_URL`, read here,
 * and the variables of every runtime — `TASK_CONTEXT_ADMIN_TOKEN` (generated when unset),
 * `TASK_CONTEXT_RATE_LIMIT`, `TASK_CONTEXT_CORS_ORIGINS`, `TASK_CONTEXT_ALLOWED_HOSTS` and
 * `TASK_CONTEXT_SECRETS` — read by the main entry's `serviceSettingsFromEnv`, which this extends.
 * Throws an `ArgumentError` naming the variable when one is malformed.
 */
export function nodeSettingsFromEnv(environment: Readonly<NodeEnv>): NodeSettings {
  const port = environment.PORT === undefined ? 8787 : Number(environment.PORT);
  return {
    port: requireWholeNumber("PORT", port, 0, 65_535),
    host: environment.HOST === undefined ? "127.0.0.1" : requireText("HOST", environment.HOST),
    database: environment.TASK_CONTEXT_DB || ".data/task-context.db",
    durability: parseDurability(environment.TASK_CONTEXT_DURABILITY),
    ...parseDatabaseUrl(environment),
    ...parsePublicUrl(environment.TASK_CONTEXT_PUBLIC_URL),
    ...serviceSettingsFromEnv(environment, { generateAdminToken: true }),
  };
}

/** `TASK_CONTEXT_PUBLIC_URL`: an http(s) address without credentials, query or fragment. */
function parsePublicUrl(value: string | undefined): Pick<NodeServerOptions, "publicUrl"> {
  if (value === undefined || value === "") return {};
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (
    url === undefined ||
    !["http:", "https:"].includes(url.protocol) ||
    url.username !== "" ||
    url.password !== "" ||
    url.search !== "" ||
    url.hash !== ""
  ) {
    throw new ArgumentError({
      argument: "TASK_CONTEXT_PUBLIC_URL",
      message: `expected the service's http(s) address as A2A agents reach it, e.g. https://tc.example.com (no credentials, query or fragment), got ${JSON.stringify(value)}.`,
    });
  }
  return { publicUrl: value };
}

/**
 * The Node server's settings from the environment.
 *
 * @deprecated Renamed `nodeSettingsFromEnv` (the main entry's is `serviceSettingsFromEnv`: two
 * functions had one name); this alias goes in the next minor version.
 */
export const settingsFromEnv: typeof nodeSettingsFromEnv = nodeSettingsFromEnv;

/** `TASK_CONTEXT_DATABASE_URL` and `TASK_CONTEXT_DATABASE_POOL`, when the URL is set. */
function parseDatabaseUrl(
  environment: Readonly<NodeEnv>,
): Pick<NodeServerOptions, "databaseUrl" | "databasePool"> {
  const url = environment.TASK_CONTEXT_DATABASE_URL;
  const pool = environment.TASK_CONTEXT_DATABASE_POOL;
  if (url === undefined || url === "") {
    if (pool !== undefined && pool !== "") {
      throw new ArgumentError({
        argument: "TASK_CONTEXT_DATABASE_POOL",
        message: "is set without TASK_CONTEXT_DATABASE_URL; set both, or neither.",
      });
    }
    return {};
  }
  requirePostgresUrl("TASK_CONTEXT_DATABASE_URL", url);
  if (pool === undefined || pool === "") return { databaseUrl: url };
  return {
    databaseUrl: url,
    databasePool: requireWholeNumber("TASK_CONTEXT_DATABASE_POOL", Number(pool), 1, 1000),
  };
}

/** `TASK_CONTEXT_DURABILITY`: `process` (default) or `machine`. */
function parseDurability(value: string | undefined): Durability {
  if (value === undefined || value === "") return "process";
  if (value === "process" || value === "machine") return value;
  throw new ArgumentError({
    argument: "TASK_CONTEXT_DURABILITY",
    message: `expected "process" (a commit survives a crash of the process) or "machine" (each commit is on disk before its answer), got ${JSON.stringify(value)}.`,
  });
}

/**
 * Runs the service as a process does: settings from `environment`, the generated admin token
 * (when none was set) and the address printed, SIGTERM and SIGINT stop it cleanly (exit 0).
 * `task-context-server` and apps/edge's Node entry are this call.
 */
export async function runFromEnv(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): Promise<NodeServer> {
  const { generatedAdminToken, ...settings } = nodeSettingsFromEnv(environment);
  const server = await startNodeServer({
    ...settings,
    onUnexpectedError: (error) => console.error("unexpected error:", error),
  });
  if (generatedAdminToken) {
    console.log(
      `TASK_CONTEXT_ADMIN_TOKEN was not set; this run's admin token: ${settings.adminToken}`,
    );
  }
  console.log(`listening on ${server.url}`);
  const stop = (signal: string) => {
    console.log(`${signal}: stopping`);
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("could not stop cleanly:", error);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  return server;
}
