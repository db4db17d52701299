import { localhostAllowedHostnames } from "@modelcontextprotocol/server";
import { ArgumentError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { settingsFromEnv } from "../node.ts";
import { defaultAllowedHosts, LOOPBACK_HOSTS, parseAllowedHosts } from "./allowed-hosts.ts";

describe("TASK_CONTEXT_ALLOWED_HOSTS", () => {
  it("is a comma-separated list of host names, lower-cased; unset or empty is the default", () => {
    expect(parseAllowedHosts("tc.example.com, LOCALHOST,[::1]")).toEqual([
      "tc.example.com",
      "localhost",
      "[::1]",
    ]);
    expect(parseAllowedHosts(undefined)).toBeUndefined();
    expect(parseAllowedHosts("  ")).toBeUndefined();
  });

  it("refuses a scheme, a port, a path or an empty entry, naming the variable", () => {
    for (const text of [
      "https://tc.example.com",
      "tc.example.com:443",
      "tc.example.com/mcp",
      "a,,b",
    ]) {
      expect(() => parseAllowedHosts(text), text).toThrow(ArgumentError);
      expect(() => parseAllowedHosts(text), text).toThrow(/TASK_CONTEXT_ALLOWED_HOSTS/);
    }
  });

  it("reaches the Node entry's options", () => {
    const options = settingsFromEnv({ TASK_CONTEXT_ALLOWED_HOSTS: "tc.example.com" });
    expect(options.allowedHosts).toEqual(["tc.example.com"]);
    expect(settingsFromEnv({}).allowedHosts).toBeUndefined();
  });
});

describe("the Node entry's default allowed hosts", () => {
  it("are the loopback names, and the address it listens on when that is a specific one", () => {
    const loopback = ["localhost", "127.0.0.1", "[::1]"];
    expect(defaultAllowedHosts("127.0.0.1")).toEqual(loopback);
    expect(defaultAllowedHosts("::1")).toEqual(loopback);
    expect(defaultAllowedHosts("0.0.0.0")).toEqual(loopback);
    expect(defaultAllowedHosts("::")).toEqual(loopback);
    expect(defaultAllowedHosts("10.0.0.7")).toEqual([...loopback, "10.0.0.7"]);
    expect(defaultAllowedHosts("fd00::7")).toEqual([...loopback, "[fd00::7]"]);
    expect(defaultAllowedHosts("Edge.Internal")).toEqual([...loopback, "edge.internal"]);
  });
});

describe("the loopback host names", () => {
  it("are the ones the MCP SDK's DNS-rebinding guard allows", () => {
    expect(LOOPBACK_HOSTS).toEqual(localhostAllowedHostnames());
  });
});
