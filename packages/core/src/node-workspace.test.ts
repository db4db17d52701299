import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, constants, openSync, readFileSync } from "node:fs";
import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  truncate,
  writeFile,
} from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FileContent,
  loadTaskContext,
  type NotRegularFileError,
  type ReadFileOptions,
  TaskContextError,
  type Workspace,
} from "@task-context/core";
import { nodeWorkspace } from "@task-context/core/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

// Layout of every test (a fresh temporary directory each time):
//
//   tmp/outside/secret.txt   SECRET
//   tmp/outside/file.txt     SECRET (for the directory race)
//   tmp/root/                the workspace root

const SECRET = "SECRET";
const decoder = new TextDecoder();
const text = (content: FileContent) => decoder.decode(content.bytes);

let tmp: string;
let root: string;
let outside: string;
let secretPath: string;
let workspace: Workspace;

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), "task-context-node-"));
  root = join(tmp, "root");
  outside = join(tmp, "outside");
  secretPath = join(outside, "secret.txt");
  await mkdir(root);
  await mkdir(outside);
  await writeFile(secretPath, SECRET);
  await writeFile(join(outside, "file.txt"), SECRET);
  workspace = nodeWorkspace(root);
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The kind of a NOT_A_REGULAR_FILE rejection. */
async function refusedKind(promise: Promise<unknown>): Promise<string> {
  await expect(promise).rejects.toMatchObject({ code: "NOT_A_REGULAR_FILE" });
  return promise.then(
    () => "resolved",
    (error: NotRegularFileError) => error.kind,
  );
}

/** A read that blocks (on a FIFO without a writer, say) is a failure, not a hung worker. */
const HANG_GUARD_MS = 100_000;

/**
 * Settles `promise` or fails after {@link HANG_GUARD_MS}; `unblock` then releases whatever a
 * broken implementation may be stuck on, so a failing test does not hang the worker.
 */
async function settled<T>(
  promise: Promise<T>,
  unblock: () => void = () => undefined,
): Promise<PromiseSettledResult<T>> {
  const ms = HANG_GUARD_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  const outcome = promise.then(
    (value): PromiseSettledResult<T> => ({ status: "fulfilled", value }),
    (reason: unknown): PromiseSettledResult<T> => ({ status: "rejected", reason }),
  );
  const first = await Promise.race([outcome, timeout]);
  clearTimeout(timer);
  if (first === "timeout") {
    unblock();
    await outcome;
    throw new Error(`blocked: did not settle within ${ms} ms`);
  }
  return first;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Releases a reader blocked opening or reading a FIFO: opens it read-write, then closes it. */
const unblockFifo = (path: string) => () => closeSync(openSync(path, constants.O_RDWR));

/**
 * Makes a FIFO and starts a separate process that opens it read-write after 1.5 s, so that even a
 * synchronous open blocked on it (which would stall this process's timers) returns and the test
 * fails on its timing instead of hanging. Call the result to stop the guard.
 */
function guardedFifo(path: string): () => void {
  execFileSync("mkfifo", [path]);
  const guard = spawn("sh", ["-c", 'sleep 1.5; exec 3<>"$0"; sleep 0.1', path], {
    stdio: "ignore",
  });
  return () => {
    if (guard.exitCode === null) guard.kill();
  };
}

/** Reads the `rchar` counter (bytes read by this process through read-like calls) on Linux. */
function rchar(): number {
  const match = /^rchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"));
  if (!match?.[1]) throw new Error("no rchar in /proc/self/io");
  return Number(match[1]);
}

/**
 * Swaps two directory entries in a separate process, atomically with renameat2(RENAME_EXCHANGE)
 * (falling back to three renames where the kernel lacks it), with short random pauses so the
 * swaps land at every point of a concurrent read; prints the count every 100 swaps, and at the
 * end: on SIGTERM, or after `seconds` (a guard: the tests stop it once they have seen enough).
 */
const SWAPPER = String.raw`
use strict; use warnings; use Config; use Time::HiRes qw(time);
my ($first, $second, $seconds) = @ARGV;
my %numbers = (x86_64 => 316, aarch64 => 276);
my ($arch) = $Config{archname} =~ /^(x86_64|aarch64)/;
my $number = defined $arch ? $numbers{$arch} : undef;
sub exchange { my ($x, $y) = @_; return defined $number && syscall($number, -100, $x, -100, $y, 2) == 0 }
my $mode = exchange($first, $second) && exchange($first, $second) ? "exchange" : "rename";
$| = 1;
print "$mode\n";
my ($swaps, $end) = (0, time + $seconds);
$SIG{TERM} = sub { $end = 0 };
while (time < $end) {
  if ($mode eq "exchange") { exchange($first, $second) or die "renameat2: $!" }
  else { rename($first, "$first.swap"); rename($second, $first); rename("$first.swap", $second) }
  $swaps++;
  print "$swaps\n" unless $swaps % 100;
  select(undef, undef, undef, rand(0.0004)) if $swaps % 3;
}
print "$swaps\n";
`;

/** How long a swapper runs at most: only a guard, the tests stop it once they have seen enough. */
const SWAPPER_GUARD_SECONDS = 20;

interface Swapper {
  mode: string;
  /** The swaps so far (counted in hundreds until it exits). */
  swaps(): number;
  /** Stops it; resolves with the number of swaps. */
  stop(): Promise<number>;
  exited: Promise<number>;
  child: ChildProcess;
}

async function startSwapper(
  first: string,
  second: string,
  seconds = SWAPPER_GUARD_SECONDS,
): Promise<Swapper> {
  const child = spawn("perl", ["-e", SWAPPER, first, second, String(seconds)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: string[] = [];
  let notify: (() => void) | undefined;
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (chunk: string) => {
    lines.push(...chunk.split("\n").filter((line) => line !== ""));
    notify?.();
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => {
      notify?.();
      if (code === 0) resolve(Number(lines.at(-1)));
      else reject(new Error(`swapper exited with ${code}`));
    });
  });
  const swaps = () => (lines.length > 1 ? Number(lines.at(-1)) : 0);
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    return exited;
  };
  while (lines.length === 0 && child.exitCode === null) {
    await new Promise<void>((resolve) => {
      notify = resolve;
    });
  }
  if (lines.length === 0) throw new Error("the swapper did not start");
  return { mode: lines[0] as string, swaps, stop, exited, child };
}

interface RaceCounts {
  inside: number;
  leaked: number;
  refused: Record<string, number>;
  other: string[];
}

/**
 * Reads `path` from `parallel` loops while `swapper` swaps, until the counts are `enough` (or the
 * swapper's guard ends it), then stops the swapper; counts every outcome. How many reads and
 * swaps fit in some seconds depends on the machine's load; the counts a test wants do not.
 */
async function readDuring(
  swapper: Swapper,
  path: string,
  expected: string,
  enough: (counts: RaceCounts) => boolean,
  parallel = 4,
): Promise<RaceCounts> {
  const counts: RaceCounts = { inside: 0, leaked: 0, refused: {}, other: [] };
  let finished = false;
  void swapper.exited.finally(() => {
    finished = true;
  });
  const loop = async () => {
    while (!finished && !enough(counts)) {
      // Let timers and child-process events through even if every read completes synchronously.
      await yieldToEventLoop();
      try {
        const content = text(await workspace.readFile(path));
        if (content === expected) counts.inside++;
        else counts.leaked++;
      } catch (error) {
        if (TaskContextError.isInstance(error)) {
          counts.refused[error.code] = (counts.refused[error.code] ?? 0) + 1;
        } else {
          counts.other.push(String(error));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, loop));
  await swapper.stop();
  return counts;
}

describe("nodeWorkspace: reading", () => {
  it("reads a regular file and reports its size", async () => {
    await mkdir(join(root, "docs"));
    await writeFile(join(root, "docs", "a.md"), "# A\nhello\n");
    const read = await workspace.readFile("docs/a.md");
    expect(text(read)).toBe("# A\nhello\n");
    expect(read.size).toBe(10);
    expect(workspace.description).toBe(root);
  });

  it("returns at most maxBytes bytes while size is the full size", async () => {
    const content = "0123456789".repeat(100);
    await writeFile(join(root, "data.txt"), content);
    const bounded = await workspace.readFile("data.txt", { maxBytes: 25 });
    expect(text(bounded)).toBe(content.slice(0, 25));
    expect(bounded.bytes.length).toBe(25);
    expect(bounded.size).toBe(1000);
    const empty = await workspace.readFile("data.txt", { maxBytes: 0 });
    expect(empty.bytes.length).toBe(0);
    expect(empty.size).toBe(1000);
    const whole = await workspace.readFile("data.txt", { maxBytes: 5000 });
    expect(text(whole)).toBe(content);
    expect(whole.size).toBe(1000);
  });

  it("rejects a negative or fractional maxBytes with INVALID_ARGUMENT", async () => {
    await writeFile(join(root, "data.txt"), "data");
    for (const maxBytes of [-1, 1.5, Number.NaN]) {
      const options: ReadFileOptions = { maxBytes };
      await expect(workspace.readFile("data.txt", options)).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
    }
  });

  it("reports FILE_NOT_FOUND for a missing file and for a file under a regular file", async () => {
    await writeFile(join(root, "CONTEXT.md"), "context");
    await expect(workspace.readFile("missing.md")).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
    });
    await expect(workspace.readFile("docs/missing.md")).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
    });
    await expect(workspace.readFile("CONTEXT.md/x")).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
    });
  });

  it("reports FILE_NOT_FOUND when the root does not exist, and finds files once it does", async () => {
    const missing = nodeWorkspace(join(tmp, "not-yet"));
    await expect(missing.readFile("CONTEXT.md")).rejects.toMatchObject({ code: "FILE_NOT_FOUND" });
    await expect(missing.writeFile("CONTEXT.md", "x")).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
    });
    await expect(loadTaskContext(join(tmp, "not-yet"))).rejects.toMatchObject({
      code: "TASK_CONTEXT_MISSING",
      reason: "not-found",
    });
    await mkdir(join(tmp, "not-yet"));
    await writeFile(join(tmp, "not-yet", "CONTEXT.md"), "now it exists");
    expect(text(await missing.readFile("CONTEXT.md"))).toBe("now it exists");
  });

  it("reports FILE_NOT_FOUND when the root is a regular file", async () => {
    await writeFile(join(tmp, "plain"), "not a directory");
    await expect(nodeWorkspace(join(tmp, "plain")).readFile("x")).rejects.toMatchObject({
      code: "FILE_NOT_FOUND",
    });
  });

  it("accepts a root reached through a symbolic link", async () => {
    await writeFile(join(root, "CONTEXT.md"), "through the link");
    await symlink(root, join(tmp, "link-to-root"));
    const linked = nodeWorkspace(join(tmp, "link-to-root"));
    expect(text(await linked.readFile("CONTEXT.md"))).toBe("through the link");
  });
});

describe("nodeWorkspace: symbolic links", () => {
  it("rejects a last-component symlink to /etc/passwd as a symbolic link", async () => {
    await symlink("/etc/passwd", join(root, "CONTEXT.md"));
    expect(await refusedKind(workspace.readFile("CONTEXT.md"))).toBe("symbolic-link");
    await expect(loadTaskContext(root)).rejects.toMatchObject({
      code: "TASK_CONTEXT_MISSING",
      reason: "not-a-regular-file",
    });
  });

  it("rejects a last-component symlink to the secret outside the root", async () => {
    await symlink(secretPath, join(root, "CONTEXT.md"));
    await symlink("../outside/secret.txt", join(root, "relative.md"));
    expect(await refusedKind(workspace.readFile("CONTEXT.md"))).toBe("symbolic-link");
    expect(await refusedKind(workspace.readFile("CONTEXT.md", { maxBytes: 3 }))).toBe(
      "symbolic-link",
    );
    expect(await refusedKind(workspace.readFile("relative.md"))).toBe("symbolic-link");
  });

  it("rejects a last-component symlink to a file inside the root (final links are never followed)", async () => {
    await writeFile(join(root, "real.md"), "real");
    await symlink(join(root, "real.md"), join(root, "CONTEXT.md"));
    await symlink("real.md", join(root, "relative.md"));
    expect(await refusedKind(workspace.readFile("CONTEXT.md"))).toBe("symbolic-link");
    expect(await refusedKind(workspace.readFile("relative.md"))).toBe("symbolic-link");
    expect(text(await workspace.readFile("real.md"))).toBe("real");
  });

  it("rejects a dangling symlink and a symlink loop as symbolic links", async () => {
    await symlink(join(root, "nowhere"), join(root, "dangling.md"));
    await symlink("loop.md", join(root, "loop.md"));
    expect(await refusedKind(workspace.readFile("dangling.md"))).toBe("symbolic-link");
    expect(await refusedKind(workspace.readFile("loop.md"))).toBe("symbolic-link");
  });

  it("rejects a parent-directory symlink that leaves the workspace with WORKSPACE_ESCAPE", async () => {
    await symlink(outside, join(root, "docs"));
    await symlink("../outside", join(root, "relative"));
    await mkdir(join(root, "a"));
    await symlink(outside, join(root, "a", "b"));
    for (const path of [
      "docs/secret.txt",
      "relative/secret.txt",
      "a/b/secret.txt",
      "a/b/file.txt",
    ]) {
      await expect(workspace.readFile(path)).rejects.toMatchObject({ code: "WORKSPACE_ESCAPE" });
      await expect(workspace.readFile(path, { maxBytes: 1 })).rejects.toMatchObject({
        code: "WORKSPACE_ESCAPE",
      });
    }
  });

  it("reads through a parent-directory symlink that stays inside the root", async () => {
    await mkdir(join(root, "real"));
    await writeFile(join(root, "real", "a.md"), "inside");
    await symlink("real", join(root, "alias"));
    expect(text(await workspace.readFile("alias/a.md"))).toBe("inside");
  });

  it("never returns the secret while a parent directory is swapped with an outside symlink", async () => {
    const dir = join(root, "dir");
    const swap = join(root, "swap");
    await mkdir(dir);
    await writeFile(join(dir, "file.txt"), "inside");
    await symlink(outside, swap);
    expect(text(await workspace.readFile("dir/file.txt"))).toBe("inside");

    const swapper = await startSwapper(dir, swap);
    const counts = await readDuring(
      swapper,
      "dir/file.txt",
      "inside",
      (seen) =>
        seen.inside > 100 && (seen.refused.WORKSPACE_ESCAPE ?? 0) > 10 && swapper.swaps() > 100,
    );
    const swaps = await swapper.exited;

    expect(counts.leaked).toBe(0);
    expect(counts.other).toEqual([]);
    expect(counts.inside).toBeGreaterThan(100);
    expect(counts.refused.WORKSPACE_ESCAPE ?? 0).toBeGreaterThan(10);
    for (const code of Object.keys(counts.refused)) {
      expect(["WORKSPACE_ESCAPE", "FILE_NOT_FOUND"]).toContain(code);
    }
    expect(swaps).toBeGreaterThan(100);
    expect(await readFile(join(outside, "file.txt"), "utf8")).toBe(SECRET);
  });

  it("never returns the secret while the file itself is swapped with a symlink to it", async () => {
    const file = join(root, "file.txt");
    const swap = join(root, "swap");
    await writeFile(file, "inside");
    await symlink(secretPath, swap);

    const swapper = await startSwapper(file, swap);
    const counts = await readDuring(
      swapper,
      "file.txt",
      "inside",
      (seen) =>
        seen.inside > 100 && (seen.refused.NOT_A_REGULAR_FILE ?? 0) > 10 && swapper.swaps() > 100,
    );
    const swaps = await swapper.exited;

    expect(counts.leaked).toBe(0);
    expect(counts.other).toEqual([]);
    expect(counts.inside).toBeGreaterThan(100);
    expect(counts.refused.NOT_A_REGULAR_FILE ?? 0).toBeGreaterThan(10);
    for (const code of Object.keys(counts.refused)) {
      expect(["NOT_A_REGULAR_FILE", "FILE_NOT_FOUND", "WORKSPACE_ESCAPE"]).toContain(code);
    }
    expect(swaps).toBeGreaterThan(100);
    expect(await readFile(secretPath, "utf8")).toBe(SECRET);
  });
});

describe("nodeWorkspace: special files", () => {
  it.each(["CONTEXT.md", "data.txt"])(
    "rejects a FIFO named %s as kind fifo, without blocking",
    async (name) => {
      const fifo = join(root, name);
      const stopGuard = guardedFifo(fifo);
      try {
        const result = await settled(refusedKind(workspace.readFile(name)), unblockFifo(fifo));
        expect(result).toEqual({ status: "fulfilled", value: "fifo" });
        const bounded = await settled(
          refusedKind(workspace.readFile(name, { maxBytes: 4 })),
          unblockFifo(fifo),
        );
        expect(bounded).toEqual({ status: "fulfilled", value: "fifo" });
      } finally {
        stopGuard();
      }
    },
  );

  it("treats a FIFO CONTEXT.md as missing, without blocking", async () => {
    const fifo = join(root, "CONTEXT.md");
    const stopGuard = guardedFifo(fifo);
    try {
      const result = await settled(loadTaskContext(root), unblockFifo(fifo));
      expect(result).toMatchObject({
        status: "rejected",
        reason: { code: "TASK_CONTEXT_MISSING", reason: "not-a-regular-file" },
      });
    } finally {
      stopGuard();
    }
  });

  it("rejects a character device (a /dev/zero made with mknod) as kind character-device, without reading it", async () => {
    execFileSync("mknod", [join(root, "zero"), "c", "1", "5"]);
    expect((await lstat(join(root, "zero"))).isCharacterDevice()).toBe(true);
    const result = await settled(refusedKind(workspace.readFile("zero")));
    expect(result).toEqual({ status: "fulfilled", value: "character-device" });
  });

  it("rejects a symlink to /dev/zero as a symbolic link, without reading it", async () => {
    await symlink("/dev/zero", join(root, "CONTEXT.md"));
    const result = await settled(refusedKind(workspace.readFile("CONTEXT.md")));
    expect(result).toEqual({ status: "fulfilled", value: "symbolic-link" });
  });

  it("rejects a directory as kind directory", async () => {
    await mkdir(join(root, "CONTEXT.md"));
    await writeFile(join(root, "CONTEXT.md", "inner.md"), "inner");
    expect(await refusedKind(workspace.readFile("CONTEXT.md"))).toBe("directory");
    expect(await refusedKind(workspace.readFile("CONTEXT.md/"))).toBe("directory");
  });

  it("rejects a Unix socket named CONTEXT.md as kind socket, and loading treats it as missing", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(root, "CONTEXT.md"), resolve));
    try {
      expect(await refusedKind(workspace.readFile("CONTEXT.md"))).toBe("socket");
      await expect(loadTaskContext(root)).rejects.toMatchObject({
        code: "TASK_CONTEXT_MISSING",
        reason: "not-a-regular-file",
      });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("nodeWorkspace: a 2 GiB sparse CONTEXT.md", () => {
  const GiB2 = 2 ** 31;
  const prefix = "# Huge context\n".padEnd(20_000, "lorem ipsum dolor sit amet ");

  beforeEach(async () => {
    const path = join(root, "CONTEXT.md");
    await writeFile(path, prefix);
    await truncate(path, GiB2);
    expect((await stat(path)).size).toBe(GiB2);
  });

  it("loads a truncated prefix with a warning, reading and keeping only a bounded prefix", async () => {
    // Warm up the code paths so their first-use allocations are not counted.
    await loadTaskContext(root, { maxChars: 100 });
    const rssBefore = process.memoryUsage().rss;
    const rcharBefore = rchar();
    const context = await loadTaskContext(root, { maxChars: 10_000 });
    const readBytes = rchar() - rcharBefore;
    const rssGrowth = process.memoryUsage().rss - rssBefore;

    expect(context.content).toBe(prefix.slice(0, 10_000).trimEnd());
    expect(context.truncated).toBe(true);
    expect(context.originalBytes).toBe(GiB2);
    expect(context.originalLengthIsExact).toBe(false);
    expect(context.warning).toBe(
      `CONTEXT.md was truncated from about ${GiB2} to ${context.content.length} characters (limit 10000). Consider shortening it.`,
    );
    expect(readBytes).toBeLessThan(4 * 10_000 + 4 + 256 * 1024);
    expect(rssGrowth).toBeLessThan(20 * 2 ** 20);
  });

  it("asks the workspace for at most 4 × maxChars + 4 bytes and gets no more", async () => {
    const calls: { path: string; maxBytes: number | undefined; length: number; size: number }[] =
      [];
    const recording: Workspace = {
      description: "recording",
      async readFile(path, options) {
        const read = await workspace.readFile(path, options);
        calls.push({
          path,
          maxBytes: options?.maxBytes,
          length: read.bytes.length,
          size: read.size,
        });
        return read;
      },
      writeFile: (path, data) => workspace.writeFile(path, data),
    };
    const context = await loadTaskContext(recording, { maxChars: 10_000 });
    expect(context.content).toBe(prefix.slice(0, 10_000).trimEnd());
    expect(calls).toEqual([{ path: "CONTEXT.md", maxBytes: 40_004, length: 40_004, size: GiB2 }]);
  });
});

/** Entries in a directory, sorted. */
const list = async (dir: string) => (await readdir(dir)).sort();

/** Regular files under `dir` (relative, "/"-separated), without following symbolic links. */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory())
      files.push(...(await filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`)));
    else if (entry.isFile()) files.push(prefix + entry.name);
  }
  return files.sort();
}

describe("nodeWorkspace: writing", () => {
  it("writes atomically, creating parent directories", async () => {
    await workspace.writeFile("a/b/c.md", "deep");
    expect(await readFile(join(root, "a", "b", "c.md"), "utf8")).toBe("deep");
    expect((await lstat(join(root, "a", "b"))).isDirectory()).toBe(true);
    expect(await list(join(root, "a", "b"))).toEqual(["c.md"]);
    await workspace.writeFile("bytes.bin", new Uint8Array([0, 1, 2, 255]));
    expect([...(await readFile(join(root, "bytes.bin")))]).toEqual([0, 1, 2, 255]);
    expect(text(await workspace.readFile("a/b/c.md"))).toBe("deep");
  });

  it("overwrites a file and leaves no temporary files behind", async () => {
    await workspace.writeFile("docs/notes.md", "first");
    await workspace.writeFile("docs/notes.md", "second, longer than the first");
    await workspace.writeFile("docs/notes.md", "third");
    expect(await readFile(join(root, "docs", "notes.md"), "utf8")).toBe("third");
    expect(await list(join(root, "docs"))).toEqual(["notes.md"]);
    expect(await list(root)).toEqual(["docs"]);
  });

  it("replaces a last-component symlink to an outside file with a regular file, leaving the outside file untouched", async () => {
    await symlink(secretPath, join(root, "link.md"));
    await workspace.writeFile("link.md", "replaced");
    const info = await lstat(join(root, "link.md"));
    expect(info.isSymbolicLink()).toBe(false);
    expect(info.isFile()).toBe(true);
    expect(await readFile(join(root, "link.md"), "utf8")).toBe("replaced");
    expect(await readFile(secretPath, "utf8")).toBe(SECRET);
    expect(await list(outside)).toEqual(["file.txt", "secret.txt"]);
    expect(await list(root)).toEqual(["link.md"]);
  });

  it("replaces a dangling last-component symlink without creating its target", async () => {
    await symlink(join(outside, "created.md"), join(root, "dangling.md"));
    await workspace.writeFile("dangling.md", "regular now");
    expect((await lstat(join(root, "dangling.md"))).isFile()).toBe(true);
    expect(await list(outside)).toEqual(["file.txt", "secret.txt"]);
  });

  it("refuses to write under a parent symlink that leaves the root, creating nothing outside", async () => {
    await symlink(outside, join(root, "docs"));
    await mkdir(join(root, "a"));
    await symlink("../../outside", join(root, "a", "b"));
    for (const path of ["docs/new.md", "docs/secret.txt", "docs/sub/new.md", "a/b/new.md"]) {
      await expect(workspace.writeFile(path, "ESCAPED")).rejects.toMatchObject({
        code: "WORKSPACE_ESCAPE",
      });
    }
    expect(await list(outside)).toEqual(["file.txt", "secret.txt"]);
    expect(await readFile(secretPath, "utf8")).toBe(SECRET);
    expect(await list(root)).toEqual(["a", "docs"]);
    expect(await readlink(join(root, "docs"))).toBe(outside);
  });

  it("refuses to write where a directory exists with NOT_A_REGULAR_FILE, leaving no temporary file", async () => {
    await mkdir(join(root, "docs", "CONTEXT.md"), { recursive: true });
    await expect(workspace.writeFile("docs/CONTEXT.md", "x")).rejects.toMatchObject({
      code: "NOT_A_REGULAR_FILE",
      kind: "directory",
    });
    expect(await list(join(root, "docs"))).toEqual(["CONTEXT.md"]);
    expect(await list(join(root, "docs", "CONTEXT.md"))).toEqual([]);
  });

  it("refuses to write under a regular file with INVALID_WORKSPACE_PATH naming it a file", async () => {
    await writeFile(join(root, "CONTEXT.md"), "context");
    await expect(workspace.writeFile("CONTEXT.md/x.md", "x")).rejects.toMatchObject({
      code: "INVALID_WORKSPACE_PATH",
      message: expect.stringContaining('"CONTEXT.md" is a file, not a directory'),
    });
    expect(await readFile(join(root, "CONTEXT.md"), "utf8")).toBe("context");
    expect(await list(root)).toEqual(["CONTEXT.md"]);
  });

  it("never writes outside the root while a parent directory is swapped with an outside symlink", async () => {
    const docs = join(root, "docs");
    const swap = join(root, "swap");
    await mkdir(docs);
    await symlink(outside, swap);
    const swapper = await startSwapper(docs, swap);
    let finished = false;
    void swapper.exited.finally(() => {
      finished = true;
    });
    const counts = { written: 0, refused: {} as Record<string, number>, other: [] as string[] };
    // Until the writes and refusals the test wants have happened (however long that takes).
    const enough = () =>
      counts.written > 20 && (counts.refused.WORKSPACE_ESCAPE ?? 0) > 5 && swapper.swaps() > 100;
    const loop = async (id: number) => {
      for (let round = 0; !finished && !enough(); round++) {
        await yieldToEventLoop();
        try {
          await workspace.writeFile(`docs/w${id}-${round % 50}.md`, "PAYLOAD");
          counts.written++;
        } catch (error) {
          if (TaskContextError.isInstance(error)) {
            counts.refused[error.code] = (counts.refused[error.code] ?? 0) + 1;
          } else {
            counts.other.push(String(error));
          }
        }
      }
    };
    await Promise.all([loop(0), loop(1), loop(2), loop(3)]);
    expect(await swapper.stop()).toBeGreaterThan(100);
    expect(await list(outside)).toEqual(["file.txt", "secret.txt"]);
    expect(await readFile(secretPath, "utf8")).toBe(SECRET);
    expect(await readFile(join(outside, "file.txt"), "utf8")).toBe(SECRET);
    expect(counts.other).toEqual([]);
    expect(counts.written).toBeGreaterThan(20);
    expect(counts.refused.WORKSPACE_ESCAPE ?? 0).toBeGreaterThan(5);
    for (const code of Object.keys(counts.refused)) {
      expect(["WORKSPACE_ESCAPE", "FILE_NOT_FOUND"]).toContain(code);
    }
    // Every write that succeeded landed inside the root, complete, with no temporary file left.
    const files = await filesUnder(root);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(file).toMatch(/^(docs|swap)\/w[0-3]-\d+\.md$/);
      expect(await readFile(join(root, file), "utf8")).toBe("PAYLOAD");
    }
  });

  it("never lets a concurrent reader see a half-written file", async () => {
    const size = 5 * 2 ** 20;
    const first = Buffer.alloc(size, "first content ");
    const second = Buffer.alloc(size, "SECOND CONTENT: ");
    await workspace.writeFile("big.bin", first);
    const seen = { first: 0, second: 0, torn: 0 };
    let writing = true;
    const writer = (async () => {
      try {
        for (let round = 0; round < 16; round++) {
          await workspace.writeFile("big.bin", round % 2 === 0 ? second : first);
        }
      } finally {
        writing = false;
      }
    })();
    const reader = async () => {
      while (writing) {
        await yieldToEventLoop();
        const { bytes, size: reported } = await workspace.readFile("big.bin");
        const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        if (reported === size && buffer.equals(first)) seen.first++;
        else if (reported === size && buffer.equals(second)) seen.second++;
        else seen.torn++;
      }
    };
    await Promise.all([writer, reader(), reader()]);
    expect(seen.torn).toBe(0);
    expect(seen.first + seen.second).toBeGreaterThan(4);
    expect(await list(root)).toEqual(["big.bin"]);
    expect((await readFile(join(root, "big.bin"))).equals(first)).toBe(true);
  });
});
