// A throwaway PostgreSQL cluster for tests and benchmarks: a new data folder in a temporary
// folder, a free port on 127.0.0.1, the server's defaults otherwise (fsync on), removed on stop.
// Node only, no dependencies.
//
// API (types in postgres.d.mts):
//   startPostgres({ install = true, settings = {}, keep = false } = {}) → Promise<Postgres>
//     Postgres = { url, host, port, user, password, database, version, directory, stop() }
//     - url: `postgres://postgres:<password>@127.0.0.1:<port>/postgres` (scram-sha-256)
//     - settings: more postgresql.conf lines, e.g. `{ max_connections: 200 }`
//     - keep: leave it running when this process exits (what the CLI's start does)
//     - restart({ mode = "fast" }): a shutdown and a start on the same data folder and port;
//       "fast": clients disconnected, a checkpoint written; "immediate": the server processes
//       quit at once, without a checkpoint (as after a crash: the start replays the WAL)
//     - stop(): stops the server (fast, then immediate, then SIGKILL) and removes its folder;
//       idempotent; servers still running when the process exits are stopped then too
//     - rejects with a PostgresUnavailableError (`code: "POSTGRES_UNAVAILABLE"`, a one-line
//       `message`) when there is no PostgreSQL to start here, and with an Error that quotes the
//       server's log when PostgreSQL is there but does not start
//   findPostgres({ install = true } = {}) → Promise<{ bin, version } | { reason }>
//     the server binaries (a folder with initdb, pg_ctl, postgres): $TASK_CONTEXT_POSTGRES_BIN, else the newest /usr/lib/postgresql/*/bin,
//     else `pg_ctl` and `initdb` on PATH; when missing and running as root with apt-get, installs
//     Debian's `postgresql` package; else (or when $TASK_CONTEXT_POSTGRES is `skip:<reason>`)
//     a one-line reason
//
// As root the server runs as the `postgres` user (initdb refuses root), through runuser (or su):
// the temporary folder and the data folder in it belong to postgres, mode 700; the server's unix
// socket and log (server.log) sit in the temporary folder, beside the data folder.
//
// CLI: `node scripts/postgres.mjs start` prints the URL on stdout and leaves the server running;
// `node scripts/postgres.mjs stop <directory>` (the folder that start names on stderr) stops it
// and removes the folder.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** PostgreSQL cannot be started on this machine; `message` says why in one line. */
export class PostgresUnavailableError extends Error {
  code = "POSTGRES_UNAVAILABLE";
  /** @param {string} reason */
  constructor(reason) {
    super(reason);
    this.name = "PostgresUnavailableError";
  }
}

const MARKER = "task-context-postgres.json";
const isRoot = () => process.getuid?.() === 0;
const oneLine = (/** @type {string} */ text) => text.replace(/\s+/g, " ").trim();

/** @param {string} folder */
const hasServer = (folder) =>
  ["initdb", "pg_ctl", "postgres"].every((name) => existsSync(join(folder, name)));

/** The folder of the server binaries, or undefined. */
function locate() {
  const chosen = process.env.TASK_CONTEXT_POSTGRES_BIN;
  if (chosen) return hasServer(chosen) ? chosen : undefined;
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => /^\d+$/.test(name) && hasServer(join(root, name, "bin")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(root, versions[0], "bin");
  }
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    if (!folder || !existsSync(join(folder, "pg_ctl"))) continue;
    const real = dirname(realpathSync(join(folder, "pg_ctl")));
    if (hasServer(real)) return real;
  }
  return undefined;
}

/** @param {string} bin */
function versionOf(bin) {
  const probe = spawnSync(join(bin, "postgres"), ["--version"], { encoding: "utf8" });
  return /(\d+(?:\.\d+)?)/.exec(probe.stdout ?? "")?.[1];
}

/** Installs Debian's `postgresql` package; a one-line reason when it cannot. */
function install() {
  if (!isRoot()) return "not running as root, so it cannot be installed with apt-get";
  if (spawnSync("apt-get", ["--version"]).status !== 0) {
    return "apt-get is not available to install it";
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const get = ["install", "-y", "-qq", "--no-install-recommends", "postgresql"];
  // The package lists are refreshed only when the install fails without them.
  let result = spawnSync("apt-get", get, { encoding: "utf8", env });
  if (result.status !== 0) {
    const update = spawnSync("apt-get", ["update", "-qq"], { encoding: "utf8", env });
    if (update.status === 0) result = spawnSync("apt-get", get, { encoding: "utf8", env });
    else result = update;
  }
  if (result.status !== 0) {
    const error = `${result.stdout ?? ""}\n${result.stderr ?? ""}`
      .split("\n")
      .filter((line) => line.startsWith("E:"))
      .at(-1);
    return `apt-get install postgresql failed: ${oneLine(error ?? `exit ${result.status}`)}`;
  }
  return undefined;
}

/**
 * The server binaries and their version, or why there are none.
 * @param {{ install?: boolean }} [options]
 * @returns {Promise<{ bin: string, version: string } | { reason: string }>}
 */
export async function findPostgres({ install: mayInstall = true } = {}) {
  const told = process.env.TASK_CONTEXT_POSTGRES;
  if (told?.startsWith("skip:")) return { reason: oneLine(told.slice(5)) || "told to skip" };
  const chosen = process.env.TASK_CONTEXT_POSTGRES_BIN;
  if (chosen && !hasServer(chosen)) {
    return { reason: `TASK_CONTEXT_POSTGRES_BIN=${chosen} has no initdb, pg_ctl and postgres` };
  }
  let bin = locate();
  if (bin === undefined) {
    const missing = "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin, no pg_ctl on PATH)";
    if (!mayInstall) return { reason: missing };
    const failed = install();
    if (failed !== undefined) return { reason: `${missing} and ${failed}` };
    bin = locate();
    if (bin === undefined) return { reason: `${missing}, and installing postgresql did not help` };
  }
  if (isRoot() && spawnSync("id", ["-u", "postgres"]).status !== 0) {
    return { reason: "running as root, but there is no postgres user to run PostgreSQL as" };
  }
  const version = versionOf(bin);
  if (version === undefined) return { reason: `${join(bin, "postgres")} --version does not run` };
  return { bin, version };
}

/**
 * The command line that runs `command` as the postgres user when root, else as ourselves.
 * @param {string} command
 * @param {string[]} args
 * @returns {[string, string[]]}
 */
function asPostgres(command, args) {
  if (!isRoot()) return [command, args];
  if (existsSync("/usr/sbin/runuser") || existsSync("/sbin/runuser")) {
    return ["runuser", ["-u", "postgres", "--", command, ...args]];
  }
  const quote = (/** @type {string} */ word) => `'${word.replaceAll("'", "'\\''")}'`;
  return ["su", ["postgres", "-s", "/bin/sh", "-c", [command, ...args].map(quote).join(" ")]];
}

/**
 * Runs `command` as the postgres user when root: its exit code and output.
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<{ code: number, output: string }>}
 */
function run(command, args, timeout = 120_000) {
  const [file, argv] = asPostgres(command, args);
  return new Promise((done) => {
    execFile(file, argv, { encoding: "utf8", timeout }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
      done({ code, output: `${stdout}${stderr}`.trim() });
    });
  });
}

/** A port that was free a moment ago. */
function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => done(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** @param {string} path */
const tail = (path, lines = 40) => {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no server log)";
  }
};

/** Servers of this process not stopped yet: stopped when the process exits. */
const running = new Set();
let exitHook = false;

/**
 * Stops the server in `directory` (fast, then immediate, then SIGKILL) and removes the folder.
 * @param {string} bin
 * @param {string} directory
 */
function stopSync(bin, directory) {
  const data = join(directory, "data");
  try {
    if (existsSync(join(data, "postmaster.pid"))) {
      const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
      for (const mode of ["fast", "immediate"]) {
        const [file, argv] = asPostgres(join(bin, "pg_ctl"), [
          "stop",
          "-D",
          data,
          "-m",
          mode,
          "-w",
        ]);
        const result = spawnSync(file, argv, { timeout: 30_000 });
        if (result.status === 0 || !alive(pid)) break;
      }
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
  } finally {
    if (existsSync(join(directory, MARKER))) rmSync(directory, { recursive: true, force: true });
  }
}

/** @param {number} pid */
function alive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts a throwaway PostgreSQL cluster.
 * @param {{ install?: boolean, settings?: Record<string, string | number | boolean>, keep?: boolean }} [options]
 *   `keep`: do not stop it when this process exits (the CLI's start)
 */
export async function startPostgres({ install = true, settings = {}, keep = false } = {}) {
  const found = await findPostgres({ install });
  if ("reason" in found) throw new PostgresUnavailableError(found.reason);
  const { bin, version } = found;
  const directory = mkdtempSync(join(tmpdir(), "task-context-postgres-"));
  const data = join(directory, "data");
  const log = join(directory, "server.log");
  const password = randomBytes(18).toString("base64url");
  const started = { bin, directory };
  try {
    writeFileSync(join(directory, MARKER), JSON.stringify({ bin, version }));
    const passwordFile = join(directory, "password");
    writeFileSync(passwordFile, password, { mode: 0o600 });
    if (isRoot()) {
      const id = (/** @type {string} */ flag) =>
        Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
      const [uid, gid] = [id("-u"), id("-g")];
      for (const path of [directory, passwordFile, join(directory, MARKER)]) {
        chownSync(path, uid, gid);
      }
    }
    chmodSync(directory, 0o700);
    const init = await run(join(bin, "initdb"), [
      "-D",
      data,
      "-U",
      "postgres",
      `--pwfile=${passwordFile}`,
      "--auth-host=scram-sha-256",
      "--auth-local=peer",
      "--encoding=UTF8",
      "--no-locale",
      "--no-sync",
      "--no-instructions",
    ]);
    rmSync(passwordFile, { force: true });
    if (init.code !== 0) throw new Error(`initdb failed (exit ${init.code}):\n${init.output}`);
    const conf = Object.entries({
      listen_addresses: "127.0.0.1",
      unix_socket_directories: directory,
      ...settings,
    })
      .map(([key, value]) => `${key} = '${String(value).replaceAll("'", "''")}'`)
      .join("\n");
    const original = readFileSync(join(data, "postgresql.conf"), "utf8");
    writeFileSync(join(data, "postgresql.conf"), `${original}\n# task-context\n${conf}\n`);
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const start = await run(
        join(bin, "pg_ctl"),
        ["start", "-D", data, "-l", log, "-w", "-t", "60", "-o", `-p ${port}`],
        90_000,
      );
      if (start.code === 0) break;
      const logText = tail(log);
      // Another process took the port between our probe and the server's bind: try another.
      if (attempt < 3 && /could not bind|already in use/i.test(logText)) continue;
      throw new Error(
        `PostgreSQL ${version} did not start (pg_ctl exit ${start.code}): ${start.output}\n--- the server's log ---\n${logText}`,
      );
    }
    let stopped = false;
    if (!keep) {
      running.add(started);
      if (!exitHook) {
        exitHook = true;
        process.once("exit", () => {
          for (const server of running) stopSync(server.bin, server.directory);
        });
      }
    }
    return {
      url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
      host: "127.0.0.1",
      port,
      user: "postgres",
      password,
      database: "postgres",
      version,
      directory,
      async restart({ mode = "fast" } = {}) {
        // A shutdown (connections dropped; fast: a checkpoint written; immediate: none, so the
        // start recovers from the WAL as after a crash), then a start on the same folder and port.
        if (mode !== "fast" && mode !== "immediate") {
          throw new Error(`restart's mode is "fast" or "immediate", not ${JSON.stringify(mode)}`);
        }
        const restarted = await run(
          join(bin, "pg_ctl"),
          ["restart", "-D", data, "-l", log, "-w", "-t", "60", "-m", mode, "-o", `-p ${port}`],
          90_000,
        );
        if (restarted.code !== 0) {
          throw new Error(
            `PostgreSQL ${version} did not restart (pg_ctl exit ${restarted.code}): ${restarted.output}\n--- the server's log ---\n${tail(log)}`,
          );
        }
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        running.delete(started);
        stopSync(bin, directory);
      },
    };
  } catch (error) {
    try {
      stopSync(bin, directory);
    } catch {
      // The error that stopped the start is the one to report.
    }
    throw error;
  }
}

/** @param {string[]} argv */
async function main([command, directory]) {
  if (command === "start") {
    const server = await startPostgres({ keep: true });
    console.error(
      `PostgreSQL ${server.version} on port ${server.port}; stop it with: node scripts/postgres.mjs stop ${server.directory}`,
    );
    console.log(server.url);
    return 0;
  }
  if (command === "stop" && directory !== undefined) {
    const folder = resolve(directory);
    if (!existsSync(join(folder, MARKER))) {
      console.error(`${folder} is not a folder that scripts/postgres.mjs start made`);
      return 2;
    }
    const { bin } = JSON.parse(readFileSync(join(folder, MARKER), "utf8"));
    stopSync(bin, folder);
    return 0;
  }
  console.error("usage: node scripts/postgres.mjs start | stop <directory>");
  return 2;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error instanceof Error ? error.message : String(error));
      process.exit(1);
    },
  );
}
