import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serveStdio } from "./stdio.ts";

let directory: string;
beforeEach(() => {
  directory = realpathSync(mkdtempSync(join(tmpdir(), "task-context-serve-")));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe("serveStdio", () => {
  it("resolves closed when the client closes its input, and closes the watch", async () => {
    writeFileSync(join(directory, "CONTEXT.md"), "We are building Lumen.");
    const input = new PassThrough();
    const output = new PassThrough();
    const server = await serveStdio({
      directory,
      transport: new StdioServerTransport(input, output),
    });
    const stop = server.watcher.subscribe(() => {});
    expect(server.watcher.watching).toBe(true);
    input.end();
    await server.closed;
    expect(server.watcher.watching).toBe(false);
    stop();
  });

  it("resolves closed when close() is called", async () => {
    const server = await serveStdio({
      directory,
      transport: new StdioServerTransport(new PassThrough(), new PassThrough()),
    });
    await server.close();
    await expect(server.closed).resolves.toBeUndefined();
  });

  it("refuses a directory that does not exist or is a file, before serving", async () => {
    const missing = join(directory, "nope");
    await expect(serveStdio({ directory: missing })).rejects.toThrow(
      `Invalid directory: ${JSON.stringify(missing)} is not a directory. Give the workspace directory that holds CONTEXT.md.`,
    );
    writeFileSync(join(directory, "file"), "");
    await expect(serveStdio({ directory: join(directory, "file") })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(serveStdio({ directory: "" })).rejects.toThrow(/^Invalid directory/);
  });

  it("refuses options the server cannot use, before serving", async () => {
    await expect(serveStdio({ directory, maxChars: 0 })).rejects.toThrow(
      /^Invalid options\.maxChars/,
    );
    await expect(serveStdio({ directory, debounceMs: -1 })).rejects.toThrow(
      /^Invalid options\.debounceMs/,
    );
  });
});
