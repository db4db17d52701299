import { spawn } from "node:child_process";
import { BIN } from "./stdio-client.ts";

/** The 2025 handshake, as raw lines: `initialize` (id 0) and `notifications/initialized`. */
export const HANDSHAKE = [
  JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1.0.0" },
    },
  }),
  JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
];

/** A raw JSON-RPC request line. */
export const requestLine = (id: number | string, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) });

/**
 * Runs the built bin on `directory`, writes `input` to its stdin at once and ends it: the answers
 * it wrote (one JSON value per line), its exit code and its stderr.
 */
export function runBinWithInput(
  directory: string,
  input: string | Buffer,
): Promise<{ answers: Array<Record<string, unknown>>; status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, directory], { stdio: "pipe" });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      const lines = Buffer.concat(stdout).toString("utf8").split("\n").filter(Boolean);
      resolve({
        answers: lines.map((line) => JSON.parse(line) as Record<string, unknown>),
        status,
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}
