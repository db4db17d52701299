import { createHash } from "node:crypto";
import {
  ArgumentError,
  loadTaskContext,
  memoryWorkspace,
  SecretInContextError,
  TaskContextError,
} from "@task-context/core";
import { describe, expect, it } from "vitest";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const TOKEN = `ghp_${"a1B2c3D4e5".repeat(4)}`;
const FILE = `\n\n# Lumen\nRelease bot token: ${TOKEN}\nDATABASE_URL=postgres://app:hunter22@db/app\n`;
const workspace = () => memoryWorkspace({ "CONTEXT.md": FILE });
const REDACTED =
  "# Lumen\nRelease bot token: [redacted: github-token]\nDATABASE_URL=postgres://app:[redacted: url-password]@db/app";
const WARNING =
  "Redacted 2 secrets from CONTEXT.md before delivery: github-token (line 4), url-password (line 5). Remove them from CONTEXT.md and pass credentials another way.";

describe("loadTaskContext with secrets", () => {
  it("redacts by default: content, redactions (lines of the file), warning, sha256 of what is delivered", async () => {
    const context = await loadTaskContext(workspace());
    expect(context).toStrictEqual({
      content: REDACTED,
      truncated: false,
      originalLength: REDACTED.length,
      originalLengthIsExact: true,
      originalBytes: FILE.length,
      sha256: sha256(REDACTED),
      found: true,
      redactions: [
        { kind: "github-token", line: 4 },
        { kind: "url-password", line: 5 },
      ],
      warning: WARNING,
    });
    expect(await loadTaskContext(workspace(), { secrets: "redact" })).toStrictEqual(context);
  });

  it("says it in the singular for one secret", async () => {
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": `key ${TOKEN}` }));
    expect(context.warning).toBe(
      "Redacted 1 secret from CONTEXT.md before delivery: github-token (line 1). Remove it from CONTEXT.md and pass credentials another way.",
    );
  });

  it('"allow" delivers the text as written, with no redactions and no warning', async () => {
    const context = await loadTaskContext(workspace(), { secrets: "allow" });
    expect(context.content).toBe(FILE.trim());
    expect(context.sha256).toBe(sha256(FILE.trim()));
    expect(context).not.toHaveProperty("redactions");
    expect(context).not.toHaveProperty("warning");
  });

  it('"refuse" throws SecretInContextError with kinds and lines, never the values', async () => {
    const error = await loadTaskContext(workspace(), { secrets: "refuse" }).catch(
      (reason: unknown) => reason,
    );
    expect(SecretInContextError.isInstance(error)).toBe(true);
    expect(TaskContextError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      name: "SecretInContextError",
      code: "SECRET_IN_CONTEXT",
      source: "CONTEXT.md",
      redactions: [
        { kind: "github-token", line: 4 },
        { kind: "url-password", line: 5 },
      ],
      message:
        'CONTEXT.md holds 2 secrets: github-token (line 4), url-password (line 5). Nothing was delivered, because the secrets policy is "refuse": remove them from CONTEXT.md and pass credentials another way, or deliver with secrets: "redact".',
    });
    expect(JSON.stringify(error)).not.toContain("hunter22");
    expect((error as Error).message).not.toContain(TOKEN);
  });

  it('"refuse" delivers a context without secrets unchanged', async () => {
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": "Building Lumen." }), {
      secrets: "refuse",
    });
    expect(context.content).toBe("Building Lumen.");
  });

  it.each([
    ["redcat", 'Invalid secrets: expected "redact", "refuse" or "allow", got "redcat".'],
    [true, 'Invalid secrets: expected "redact", "refuse" or "allow", got a boolean.'],
    ["", 'Invalid secrets: expected "redact", "refuse" or "allow", got the empty string.'],
  ])("rejects the policy %j with an ArgumentError", async (secrets, message) => {
    const error = await loadTaskContext(workspace(), {
      secrets: secrets as "redact",
    }).catch((reason: unknown) => reason);
    expect(ArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(message);
  });

  it("redacts before the length cut and joins the redaction and truncation warnings", async () => {
    const text = `${TOKEN} ${"x".repeat(100)}`;
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }), {
      maxChars: 50,
    });
    const redacted = `[redacted: github-token] ${"x".repeat(100)}`;
    expect(context.content).toBe(redacted.slice(0, 50));
    expect(context.truncated).toBe(true);
    expect(context.originalLength).toBe(redacted.length);
    expect(context.warning).toBe(
      `Redacted 1 secret from CONTEXT.md before delivery: github-token (line 1). Remove it from CONTEXT.md and pass credentials another way. CONTEXT.md was truncated from ${redacted.length} to 50 characters (limit 50). Consider shortening it.`,
    );
  });

  it("never cuts inside a redaction marker, and does not report a secret it did not deliver", async () => {
    const text = `Intro line.\n${TOKEN}\nmore`;
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }), {
      maxChars: 20,
    });
    expect(context.content).toBe("Intro line.");
    expect(context).not.toHaveProperty("redactions");
    expect(context.warning).toBe(
      `CONTEXT.md was truncated from ${"Intro line.\n[redacted: github-token]\nmore".length} to 11 characters (limit 20). Consider shortening it.`,
    );
    // The secret is not delivered, so "refuse" has nothing to refuse.
    await expect(
      loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }), { maxChars: 20, secrets: "refuse" }),
    ).resolves.toMatchObject({ content: "Intro line." });
  });

  it("leaves off a token cut at the end of a partly read file instead of delivering half a secret", async () => {
    // A 20-char limit reads 84 bytes: the PEM block is cut before its END line.
    const text = `ok\n-----BEGIN PRIVATE KEY-----\n${"A".repeat(200)}\n-----END PRIVATE KEY-----`;
    const context = await loadTaskContext(memoryWorkspace({ "CONTEXT.md": text }), {
      maxChars: 20,
    });
    expect(context.content).toBe("ok");
    expect(context.truncated).toBe(true);
  });
});
