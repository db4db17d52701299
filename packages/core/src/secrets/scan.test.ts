import { findSecrets, type SecretFinding } from "@task-context/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LOOK_ALIKES, SECRET_SAMPLES } from "../../test-corpus/secrets.ts";
import { secretRules } from "./secret-rules.ts";

/**
 * What findSecrets finds by definition: every rule's pattern run over the whole text on its own
 * (one global scan per rule), earliest first, the most specific rule at the same start, no
 * overlaps. findSecrets tries a rule only where `scanStops` stops; it must find exactly this.
 */
function everyRuleOverTheWholeText(text: string): SecretFinding[] {
  const found: Array<Omit<SecretFinding, "line" | "column">> = [];
  for (const rule of secretRules()) {
    for (const match of text.matchAll(new RegExp(rule.pattern.source, rule.pattern.flags))) {
      const group = match.findIndex((value, index) => index > 0 && value !== undefined);
      const [start, end] = match.indices?.[group === -1 ? 0 : group] ?? [0, 0];
      const value = match[group === -1 ? 0 : group] ?? "";
      if (!rule.isPlaceholder?.(value))
        found.push({ kind: rule.kind, label: rule.label, start, end });
    }
  }
  found.sort((a, b) => a.start - b.start);
  const findings: SecretFinding[] = [];
  let covered = 0;
  for (const { kind, label, start, end } of found) {
    if (start < covered) continue;
    covered = end;
    const before = text.slice(0, start);
    const line = before.split("\n").length;
    findings.push({
      kind,
      label,
      line,
      column: start - (before.lastIndexOf("\n") + 1) + 1,
      start,
      end,
    });
  }
  return findings;
}

/** Whole samples, their parts, look-alikes, anchors and names, to be glued together at random. */
const pieces = [
  ...SECRET_SAMPLES.flatMap(({ before, secret, after }) => [
    `${before}${secret}${after}`,
    secret,
    secret.slice(0, 12),
    secret.slice(-12),
    before,
  ]),
  ...LOOK_ALIKES.map(({ text }) => text.slice(0, 200)),
  ...["sk-", "ghp_", "AKIA", "AIza", "eyJ", "SG.", "GOCSPX-", "xoxb-", "glpat-", "r8_", "8Q~"],
  ...["://", "https://", "@", ":", "=", ":=", "=>", "-", "_", "~", ".", '"', "'", " ", "\t", "\n"],
  ...["-----BEGIN RSA PRIVATE KEY-----\n", "-----END RSA PRIVATE KEY-----", '"private_key_id": "'],
  ...["password", "API_KEY", "aws_secret_access_key", "AccountKey", "token", `${"$"}{TOKEN}`, "—"],
];

describe("the secret scan", () => {
  it("finds exactly what every rule run over the whole text finds", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6 })), {
          maxLength: 14,
        }),
        (parts) => {
          const text = parts.join("");
          expect(findSecrets(text)).toStrictEqual(everyRuleOverTheWholeText(text));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("finds exactly that in the corpus and in a long text that holds every sample", () => {
    const texts = [
      ...SECRET_SAMPLES.map(({ before, secret, after }) => `${before}${secret}${after}`),
      ...LOOK_ALIKES.map(({ text }) => text),
    ];
    for (const text of [...texts, texts.join("\n— ")]) {
      expect(findSecrets(text)).toStrictEqual(everyRuleOverTheWholeText(text));
    }
    expect(findSecrets(texts.join("\n— "))).toHaveLength(SECRET_SAMPLES.length);
  });
});
