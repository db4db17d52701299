import { ArgumentError, findSecrets, redactSecrets } from "@task-context/core";
import { describe, expect, it } from "vitest";
import { fake, LOOK_ALIKES, SECRET_SAMPLES } from "../../test-corpus/secrets.ts";

describe("findSecrets", () => {
  it("knows at least 20 kinds, each in the corpus", () => {
    expect(new Set(SECRET_SAMPLES.map((sample) => sample.kind)).size).toBeGreaterThanOrEqual(20);
  });

  it.each(SECRET_SAMPLES.map((sample) => [sample.kind, sample] as const))(
    "finds exactly the %s and nothing else around it",
    (kind, sample) => {
      const text = `# Notes\n${sample.before}${sample.secret}${sample.after}\nThe end.`;
      const start = 8 + sample.before.length;
      const [finding, ...rest] = findSecrets(text);
      expect(rest).toStrictEqual([]);
      expect(finding).toMatchObject({ kind, line: 2, column: sample.before.length + 1, start });
      expect(text.slice(finding?.start, finding?.end)).toBe(sample.secret);
      expect(redactSecrets(text)).toStrictEqual({
        text: `# Notes\n${sample.before}[redacted: ${kind}]${sample.after}\nThe end.`,
        redactions: [{ kind, line: 2 }],
      });
    },
  );

  it.each(LOOK_ALIKES.map((sample) => [sample.name, sample.text] as const))(
    "reports nothing in %s",
    (_name, text) => {
      expect(findSecrets(text)).toStrictEqual([]);
      expect(redactSecrets(text)).toStrictEqual({ text, redactions: [] });
    },
  );

  it("reports kind, label, line, column and offsets of every secret, in text order", () => {
    const key = `AKIA${"Q7".repeat(8)}`;
    const text = `Notes\nclone https://ada:pa55word@git.example.com\n\tkey ${key}`;
    const findings = findSecrets(text).map((finding) => Object.values(finding));
    expect(findings).toStrictEqual([
      ["url-password", "a password in a URL", 2, 19, 24, 32],
      ["aws-access-key-id", "an AWS access key id", 3, 6, 54, 74],
    ]);
  });

  it("reports one finding where two rules match the same text: the more specific kind", () => {
    const key = `sk-proj-${"abC1".repeat(12)}`;
    expect(findSecrets(`OPENAI_API_KEY=${key}`)).toMatchObject([
      { kind: "openai-api-key", start: 15, end: 15 + key.length },
    ]);
  });

  it("redacts a whole PEM block, and a block cut before its END line to the end of the text", () => {
    const body = "MIIEowIBAAKCAQEA".repeat(4);
    expect(
      redactSecrets(
        `before\n-----BEGIN EC PRIVATE KEY-----\n${body}\n-----END EC PRIVATE KEY-----\nafter`,
      ).text,
    ).toBe("before\n[redacted: private-key]\nafter");
    expect(redactSecrets(`before\n-----BEGIN PRIVATE KEY-----\n${body}\n${body}`)).toStrictEqual({
      text: "before\n[redacted: private-key]",
      redactions: [{ kind: "private-key", line: 2 }],
    });
  });

  it("keeps the name of an assignment and the user of a URL, redacting only the value", () => {
    expect(
      redactSecrets('password = "correct-horse-9"\nhttps://ada:pa55word@example.com/x').text,
    ).toBe(
      'password = "[redacted: password-assignment]"\nhttps://ada:[redacted: url-password]@example.com/x',
    );
  });

  it("finds nothing in the empty string and refuses what is not a string", () => {
    expect(findSecrets("")).toStrictEqual([]);
    expect(() => findSecrets(42 as unknown as string)).toThrow(ArgumentError);
    expect(() => redactSecrets(undefined as unknown as string)).toThrow(
      "Invalid text: expected a string, got undefined.",
    );
  });

  // Timings are measured in bench/secrets.bench.ts; here, that hostile input is handled at all.
  it.each([
    ["runs of base64 without a dot", `eyJ${"A".repeat(200_000)}`],
    ["many BEGIN lines without an END", "-----BEGIN PRIVATE KEY-----\n".repeat(5_000)],
    ["URL starts without an @", "a://b:c".repeat(30_000)],
    ["assignments without values", "password=".repeat(30_000)],
    ["dotted schemes", "a.".repeat(100_000)],
    ["key prefixes without keys", "sk-ant-sk-proj-ghp_xoxb-glpat-AKIA".repeat(10_000)],
  ])("handles hostile input: %s", (_name, text) => {
    expect(Array.isArray(findSecrets(text))).toBe(true);
  });

  it("finds secrets between unrelated random text", () => {
    const secret = `ghp_${fake("abcdefghijklmnopqrstuvwxyz0123456789", 36)}`;
    const noise = fake("abcdefghij klmnop\n", 5_000);
    const found = findSecrets(`${noise} ${secret} ${noise}`);
    expect(found.map((finding) => finding.kind)).toStrictEqual(["github-token"]);
  });
});
