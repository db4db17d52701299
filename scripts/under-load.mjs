// Runs test commands while every core is kept busy, to prove that no test depends on wall-clock
// timing: CI runs on a busy two-core machine, where a test that sleeps to let a lease expire, or
// races a timer against work, fails. Node only, no dependencies.
//
//   node scripts/under-load.mjs [--runs=2] [--hogs=<cores>] [--max-minutes=60] [--cwd=DIR] \
//     [--keep-going] --command=COMMAND... [-- COMMAND...]
//
// Each COMMAND is one shell command line (quote it), given with --command or after `--`. A run
// is the COMMANDs one after the other, stopping at the first that fails (with --keep-going, the
// others still run: to survey many packages at once); the runs follow each other (`--runs`, 2 by default) while
// `--hogs` processes (one per core by default) spin on the CPU at the tests' own priority. The
// script prints each command's exit status and duration, each run's, and the CPU time the hogs
// burnt, and exits 0 only when every run passed.
//
// The hogs are bounded in time whatever happens: they stop when the runs end, at `--max-minutes`
// (the running command is then ended too, and the run counts as failed), when this script is
// interrupted (SIGINT, SIGTERM, SIGHUP: the running command's process group is ended as well),
// and by themselves when this script dies without a word (even SIGKILL), as their IPC channel
// closes (the command itself then runs on unloaded). The root script `test:under-load` runs the server's Node and workerd suites through it
// (`pnpm run test:under-load --runs=1` for one run).
import { fork, spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

/** How long a hog spins before it yields to its event loop (to hear "stop" and a dead parent). */
const SPIN_MS = 50;

if (process.argv[2] === "--hog") {
  hog(Number(process.argv[3]));
} else {
  process.exitCode = await main(process.argv.slice(2));
}

/** A hog: spin until told to stop, until `deadline` (ms since the epoch) or until the parent dies. */
function hog(deadline) {
  const stop = () => process.exit(0);
  // The parent died (or closed the channel): stop at once.
  process.on("disconnect", stop);
  process.on("message", (message) => {
    if (message !== "stop") return;
    const { user, system } = process.cpuUsage();
    process.send({ cpuMs: (user + system) / 1000 }, stop);
  });
  const spin = () => {
    const until = Date.now() + SPIN_MS;
    while (Date.now() < until) {
      // Busy: this is the load.
    }
    if (Date.now() >= deadline) stop();
    else setImmediate(spin);
  };
  spin();
}

function usage(problem) {
  console.error(`under-load: ${problem}
usage: node scripts/under-load.mjs [--runs=2] [--hogs=N] [--max-minutes=60] [--cwd=DIR] [--keep-going] --command=COMMAND... [-- COMMAND...]
  each COMMAND is a shell command line; a run is the commands one after the other`);
  return 2;
}

function positiveInteger(name, text) {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`--${name} must be a whole number of at least 1, not "${text}"`);
  }
  return value;
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main(argv) {
  let options;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        runs: { type: "string", default: "2" },
        hogs: { type: "string", default: String(availableParallelism()) },
        "max-minutes": { type: "string", default: "60" },
        cwd: { type: "string", default: "." },
        command: { type: "string", multiple: true, default: [] },
        "keep-going": { type: "boolean", default: false },
      },
    });
    const commands = [...values.command, ...positionals];
    if (commands.length === 0) return usage("no command to run");
    options = {
      runs: positiveInteger("runs", values.runs),
      hogs: positiveInteger("hogs", values.hogs),
      maxMs: positiveInteger("max-minutes", values["max-minutes"]) * 60_000,
      cwd: resolve(values.cwd),
      commands,
      keepGoing: values["keep-going"],
    };
  } catch (error) {
    return usage(error.message);
  }

  const started = Date.now();
  const deadline = started + options.maxMs;
  const hogs = Array.from({ length: options.hogs }, () =>
    fork(import.meta.filename, ["--hog", String(deadline)], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    }),
  );
  console.log(
    `under-load: ${options.hogs} hog process(es) on ${availableParallelism()} core(s), ` +
      `${options.runs} run(s) of ${options.commands.length} command(s) in ${options.cwd}, ` +
      `at most ${options.maxMs / 60_000} min`,
  );

  let current; // the running command
  let interrupted;
  const onSignal = (signal) => {
    interrupted = signal;
    if (current) killGroup(current, "SIGTERM");
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, onSignal);
  const overtime = setTimeout(() => {
    interrupted = `the maximum of ${options.maxMs / 60_000} min`;
    if (current) killGroup(current, "SIGTERM");
  }, options.maxMs);

  const results = [];
  for (let run = 1; run <= options.runs && !interrupted; run++) {
    const runStarted = Date.now();
    let runStatus = 0;
    for (const command of options.commands) {
      if (interrupted) break;
      console.log(`\nunder-load: run ${run}/${options.runs}: ${command}`);
      const commandStarted = Date.now();
      current = spawn(command, {
        cwd: options.cwd,
        shell: true,
        stdio: "inherit",
        // Its own process group, so that an interrupt ends the command and all it started.
        detached: true,
      });
      const status = await exitStatus(current);
      current = undefined;
      const line = `run ${run}: ${command}: ${status} in ${seconds(Date.now() - commandStarted)}`;
      results.push(line);
      console.log(`under-load: ${line}`);
      if (status !== "exit 0") {
        runStatus = runStatus === 0 ? status : `${runStatus}, ${status}`;
        if (!options.keepGoing) break;
      }
    }
    if (interrupted && runStatus === 0) runStatus = `interrupted by ${interrupted}`;
    const line = `run ${run}: ${runStatus === 0 ? "passed" : `FAILED (${runStatus})`} in ${seconds(Date.now() - runStarted)}`;
    results.push(line);
    console.log(`under-load: ${line}`);
  }
  clearTimeout(overtime);

  const cpuMs = await stopHogs(hogs);
  const wallMs = Date.now() - started;
  console.log(
    `\nunder-load: summary (${options.hogs} hog(s) on ${availableParallelism()} core(s))`,
  );
  for (const line of results) console.log(`  ${line}`);
  console.log(
    `  hogs: ${seconds(cpuMs)} of CPU in ${seconds(wallMs)} (${((cpuMs / wallMs) * 100).toFixed(0)} % of one core)`,
  );
  if (interrupted) console.log(`  interrupted by ${interrupted}`);
  const passed =
    !interrupted && results.filter((line) => / passed in /.test(line)).length === options.runs;
  return passed ? 0 : 1;
}

/** "exit N" or "signal NAME" once `child` has ended ("error …" when it could not start). */
function exitStatus(child) {
  return new Promise((resolvePromise) => {
    child.once("error", (error) => resolvePromise(`error ${error.message}`));
    child.once("exit", (code, signal) =>
      resolvePromise(signal ? `signal ${signal}` : `exit ${code}`),
    );
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Stops the hogs and sums the CPU time they report (each is killed when it does not answer in 5 s). */
async function stopHogs(hogs) {
  const reports = hogs.map(
    (child) =>
      new Promise((resolvePromise) => {
        let cpuMs = 0;
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        child.once("message", (message) => {
          cpuMs = message.cpuMs;
        });
        child.once("exit", () => {
          clearTimeout(timer);
          resolvePromise(cpuMs);
        });
        if (child.exitCode !== null || child.signalCode !== null) resolvePromise(0);
        else if (child.connected) child.send("stop");
        else child.kill("SIGKILL");
      }),
  );
  const cpu = await Promise.all(reports);
  return cpu.reduce((sum, ms) => sum + ms, 0);
}
