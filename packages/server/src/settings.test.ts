import { ArgumentError } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { settingsFromEnv as nodeSettingsFromEnv } from "./node.ts";
import { settingsFromEnv } from "./settings.ts";

const adminToken = "settings-test-admin-token";

describe("settingsFromEnv (every runtime's variables)", () => {
  it("reads each variable of every runtime", () => {
    expect(
      settingsFromEnv({
        TASK_CONTEXT_ADMIN_TOKEN: adminToken,
        TASK_CONTEXT_RATE_LIMIT: "10/1",
        TASK_CONTEXT_CORS_ORIGINS: "https://app.example.com",
        TASK_CONTEXT_ALLOWED_HOSTS: "TC.example.com",
        TASK_CONTEXT_SECRETS: "allow",
      }),
    ).toStrictEqual({
      adminToken,
      generatedAdminToken: false,
      limits: { rateLimit: { requests: 10, windowMs: 1000 } },
      cors: { origins: ["https://app.example.com"] },
      allowedHosts: ["tc.example.com"],
      secrets: "allow",
    });
  });

  it("defaults what is unset or empty: the rate limit, no CORS, the runtime's hosts, redaction", () => {
    for (const unset of [undefined, ""]) {
      expect(
        settingsFromEnv({
          TASK_CONTEXT_ADMIN_TOKEN: adminToken,
          TASK_CONTEXT_RATE_LIMIT: unset,
          TASK_CONTEXT_CORS_ORIGINS: unset,
          TASK_CONTEXT_ALLOWED_HOSTS: unset,
          TASK_CONTEXT_SECRETS: unset,
        }),
      ).toStrictEqual({
        adminToken,
        generatedAdminToken: false,
        limits: { rateLimit: { requests: 1200, windowMs: 60_000 } },
        secrets: "redact",
      });
    }
  });

  it("reads the body limit, the keep-alive and the recheck interval when they are set", () => {
    expect(
      settingsFromEnv({
        TASK_CONTEXT_ADMIN_TOKEN: adminToken,
        TASK_CONTEXT_BODY_BYTES: "4096",
        TASK_CONTEXT_KEEP_ALIVE_MS: "20000",
        TASK_CONTEXT_RECHECK_MS: "250",
      }).limits,
    ).toStrictEqual({
      rateLimit: { requests: 1200, windowMs: 60_000 },
      bodyBytes: 4096,
      keepAliveMs: 20_000,
      recheckMs: 250,
    });
  });

  it("refuses a body limit, keep-alive or recheck that is not a whole number, naming it", () => {
    expect(() =>
      settingsFromEnv({ TASK_CONTEXT_ADMIN_TOKEN: adminToken, TASK_CONTEXT_BODY_BYTES: "1MiB" }),
    ).toThrow('Invalid TASK_CONTEXT_BODY_BYTES: expected a whole number ≥ 1, got "1MiB".');
    expect(() =>
      settingsFromEnv({ TASK_CONTEXT_ADMIN_TOKEN: adminToken, TASK_CONTEXT_RECHECK_MS: "0" }),
    ).toThrow("Invalid TASK_CONTEXT_RECHECK_MS: expected a whole number ≥ 1, got a number (0).");
    expect(() =>
      settingsFromEnv({ TASK_CONTEXT_ADMIN_TOKEN: adminToken, TASK_CONTEXT_KEEP_ALIVE_MS: "-5" }),
    ).toThrow('Invalid TASK_CONTEXT_KEEP_ALIVE_MS: expected a whole number ≥ 1, got "-5".');
  });

  it("refuses a missing admin token unless asked to generate one", () => {
    expect(() => settingsFromEnv({})).toThrow(
      "Invalid TASK_CONTEXT_ADMIN_TOKEN: expected a non-empty string, got undefined.",
    );
    expect(() => settingsFromEnv({ TASK_CONTEXT_ADMIN_TOKEN: "" })).toThrow(
      /^Invalid TASK_CONTEXT_ADMIN_TOKEN: expected a non-empty string/,
    );
    for (const unset of [undefined, ""]) {
      const first = settingsFromEnv(
        { TASK_CONTEXT_ADMIN_TOKEN: unset },
        { generateAdminToken: true },
      );
      expect(first.generatedAdminToken).toBe(true);
      expect(first.adminToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const second = settingsFromEnv({}, { generateAdminToken: true });
      expect(second.adminToken).not.toBe(first.adminToken);
    }
    const kept = settingsFromEnv(
      { TASK_CONTEXT_ADMIN_TOKEN: adminToken },
      { generateAdminToken: true },
    );
    expect([kept.adminToken, kept.generatedAdminToken]).toEqual([adminToken, false]);
  });

  it("refuses a malformed variable with an ArgumentError that names it", () => {
    const malformed = {
      TASK_CONTEXT_RATE_LIMIT: "fast",
      TASK_CONTEXT_CORS_ORIGINS: "app.example.com",
      TASK_CONTEXT_ALLOWED_HOSTS: "https://tc.example.com",
      TASK_CONTEXT_SECRETS: "hide",
    };
    for (const [variable, value] of Object.entries(malformed)) {
      let refusal: unknown;
      try {
        settingsFromEnv({ TASK_CONTEXT_ADMIN_TOKEN: adminToken, [variable]: value });
      } catch (error) {
        refusal = error;
      }
      expect(refusal, variable).toBeInstanceOf(ArgumentError);
      expect((refusal as ArgumentError).argument).toBe(variable);
      expect((refusal as Error).message).toMatch(new RegExp(`^Invalid ${variable}: expected `));
    }
  });
});

describe("settingsFromEnv of the Node entry", () => {
  it("is the shared settings with the admin token generated, and PORT, HOST, TASK_CONTEXT_DB and TASK_CONTEXT_DURABILITY", () => {
    const env = {
      PORT: "0",
      HOST: "::1",
      TASK_CONTEXT_DB: ":memory:",
      TASK_CONTEXT_DURABILITY: "machine",
      TASK_CONTEXT_ADMIN_TOKEN: adminToken,
      TASK_CONTEXT_RATE_LIMIT: "off",
      TASK_CONTEXT_ALLOWED_HOSTS: "tc.example.com",
      TASK_CONTEXT_SECRETS: "refuse",
    };
    expect(nodeSettingsFromEnv(env)).toStrictEqual({
      port: 0,
      host: "::1",
      database: ":memory:",
      durability: "machine",
      ...settingsFromEnv(env),
    });
    expect(nodeSettingsFromEnv({}).generatedAdminToken).toBe(true);
  });

  it("reads TASK_CONTEXT_PUBLIC_URL as publicUrl, and refuses what is no http(s) address", () => {
    const env = { TASK_CONTEXT_ADMIN_TOKEN: adminToken };
    expect(nodeSettingsFromEnv(env).publicUrl).toBeUndefined();
    expect(nodeSettingsFromEnv({ ...env, TASK_CONTEXT_PUBLIC_URL: "" }).publicUrl).toBeUndefined();
    expect(
      nodeSettingsFromEnv({ ...env, TASK_CONTEXT_PUBLIC_URL: "https://tc.example.com/base/" })
        .publicUrl,
    ).toBe("https://tc.example.com/base/");
    for (const value of [
      "tc.example.com",
      "ftp://tc.example.com",
      "https://u:p@tc.example.com",
      "https://tc.example.com/?a=1",
    ]) {
      expect(() => nodeSettingsFromEnv({ ...env, TASK_CONTEXT_PUBLIC_URL: value })).toThrow(
        `Invalid TASK_CONTEXT_PUBLIC_URL: expected the service's http(s) address as A2A agents reach it, e.g. https://tc.example.com (no credentials, query or fragment), got ${JSON.stringify(value)}.`,
      );
    }
  });
});
