import {
  ArgumentError,
  memoryWorkspace,
  NotRegularFileError,
  type Workspace,
} from "@task-context/core";
import { describe, expect, it } from "vitest";
import {
  CONTEXT_LIMITS_PATH,
  DEFAULT_CONTEXT_LIMITS,
  loadContextLimits,
  MAX_CONTEXT_LIMITS_BYTES,
  parseContextLimitsConfig,
} from "./load-context-limits.ts";

const withLimits = (yaml: string | Uint8Array) => memoryWorkspace({ [CONTEXT_LIMITS_PATH]: yaml });

/** Matches a ContextLimitsError that has these fields. */
const limitsError = (fields: Record<string, unknown>) =>
  expect.objectContaining({
    name: "ContextLimitsError",
    code: "INVALID_CONTEXT_LIMITS",
    ...fields,
  });

const config = `# Sage context limits
defaults:
  max_total: 6000
  max_file_content: 1500
overrides:
  review:
    max_total: 12000
  plan:
    max_prior_output: 3000
`;

describe("loadContextLimits", () => {
  it("uses the built-in defaults when the file is absent", async () => {
    expect(DEFAULT_CONTEXT_LIMITS).toEqual({
      max_total: 8000,
      max_file_content: 2000,
      max_prior_output: 1000,
    });
    expect(await loadContextLimits(memoryWorkspace())).toEqual(DEFAULT_CONTEXT_LIMITS);
    expect(await loadContextLimits(memoryWorkspace(), "fix")).toEqual(DEFAULT_CONTEXT_LIMITS);
  });

  it("applies the file's defaults over the built-in ones", async () => {
    expect(await loadContextLimits(withLimits(config), "implement")).toEqual({
      max_total: 6000,
      max_file_content: 1500,
      max_prior_output: 1000,
    });
    expect(await loadContextLimits(withLimits(config))).toEqual({
      max_total: 6000,
      max_file_content: 1500,
      max_prior_output: 1000,
    });
  });

  it("applies the subagent type's overrides over the defaults, limit by limit", async () => {
    expect(await loadContextLimits(withLimits(config), "review")).toEqual({
      max_total: 12000,
      max_file_content: 1500,
      max_prior_output: 1000,
    });
    expect(await loadContextLimits(withLimits(config), "plan")).toEqual({
      max_total: 6000,
      max_file_content: 1500,
      max_prior_output: 3000,
    });
  });

  it("reads an empty or comment-only file as no settings", async () => {
    expect(await loadContextLimits(withLimits(""), "test")).toEqual(DEFAULT_CONTEXT_LIMITS);
    expect(await loadContextLimits(withLimits("# nothing yet\n"), "test")).toEqual(
      DEFAULT_CONTEXT_LIMITS,
    );
  });

  it("accepts a per-item limit above max_total (max_total still bounds the document)", async () => {
    const workspace = withLimits("overrides:\n  fix:\n    max_total: 500\n");
    expect(await loadContextLimits(workspace, "fix")).toEqual({
      max_total: 500,
      max_file_content: 2000,
      max_prior_output: 1000,
    });
  });

  it("reports malformed YAML with its line", async () => {
    await expect(
      loadContextLimits(withLimits("defaults:\n  max_total: [1, 2\noverrides: {}\n")),
    ).rejects.toThrow(
      limitsError({
        path: ".sage/config/context-limits.yaml",
        line: 3,
        message: expect.stringMatching(
          /^Invalid context limits in \.sage\/config\/context-limits\.yaml at line 3: malformed YAML: .+\. Fix the file, or delete it to use the built-in limits\.$/s,
        ),
      }),
    );
  });

  it("reports a duplicate key with its line", async () => {
    await expect(
      loadContextLimits(withLimits("defaults:\n  max_total: 1\n  max_total: 2\n")),
    ).rejects.toThrow(
      limitsError({
        line: 3,
        message: expect.stringContaining(
          'malformed YAML: the key "max_total" appears more than once in the same mapping.',
        ),
      }),
    );
  });

  it("reports a schema violation with the key path and the line of the value", async () => {
    await expect(
      loadContextLimits(
        withLimits("defaults:\n  max_total: 8000\noverrides:\n  review:\n    max_total: -5\n"),
        "review",
      ),
    ).rejects.toThrow(
      limitsError({
        key: "overrides.review.max_total",
        line: 5,
        message:
          "Invalid context limits in .sage/config/context-limits.yaml at line 5: overrides.review.max_total must be more than 0, not the number -5. Fix the file, or delete it to use the built-in limits.",
      }),
    );
  });

  it("reports a misspelt limit at its key", async () => {
    await expect(loadContextLimits(withLimits("defaults:\n  max_totl: 8000\n"))).rejects.toThrow(
      limitsError({
        key: "defaults.max_totl",
        line: 2,
        message: expect.stringContaining(
          'Unknown field "max_totl" in defaults. Allowed: max_total, max_file_content, max_prior_output.',
        ),
      }),
    );
  });

  it("reports an override for an unknown subagent type instead of ignoring it", async () => {
    await expect(
      loadContextLimits(withLimits("overrides:\n  reveiw:\n    max_total: 9000\n")),
    ).rejects.toThrow(
      limitsError({
        key: "overrides.reveiw",
        line: 2,
        message: expect.stringContaining(
          'Unknown field "reveiw" in overrides. Allowed: implement, test, fix, review, plan.',
        ),
      }),
    );
  });

  it("refuses aliases and tags", async () => {
    await expect(
      loadContextLimits(withLimits("defaults: &d\n  max_total: 100\noverrides:\n  review: *d\n")),
    ).rejects.toThrow(
      limitsError({
        message: expect.stringContaining(
          "malformed YAML: anchors (&d) are not allowed in untrusted YAML.",
        ),
      }),
    );
    await expect(
      loadContextLimits(withLimits("defaults:\n  max_total: !!int 100\n")),
    ).rejects.toThrow(
      limitsError({
        line: 2,
        message: expect.stringContaining(
          "malformed YAML: explicit tags (!!int) are not allowed in untrusted YAML.",
        ),
      }),
    );
  });

  it("refuses deep nesting before parsing", async () => {
    await expect(loadContextLimits(withLimits(`defaults: ${"[".repeat(10_000)}`))).rejects.toThrow(
      limitsError({
        line: 1,
        message: expect.stringContaining(
          "malformed YAML: mappings and sequences nest deeper than 4 levels.",
        ),
      }),
    );
    await expect(
      loadContextLimits(
        withLimits("overrides:\n  review:\n    max_total:\n      deeper:\n        deepest: 1\n"),
      ),
    ).rejects.toThrow(
      limitsError({ message: expect.stringContaining("nest deeper than 4 levels") }),
    );
  });

  it("refuses a file over the size limit without reading all of it", async () => {
    const big = new Uint8Array(10_000_000).fill(0x20);
    let maxBytes: number | undefined;
    const inner = withLimits(big);
    const workspace: Workspace = {
      description: "spy",
      readFile: (path, options) => {
        maxBytes = options?.maxBytes;
        return inner.readFile(path, options);
      },
      writeFile: inner.writeFile,
    };
    await expect(loadContextLimits(workspace)).rejects.toThrow(
      limitsError({
        message: expect.stringContaining("the file is 10000000 bytes, over the 65536-byte limit"),
      }),
    );
    expect(maxBytes).toBe(MAX_CONTEXT_LIMITS_BYTES + 1);
  });

  it("refuses a file that is not UTF-8", async () => {
    await expect(
      loadContextLimits(withLimits(new Uint8Array([0x64, 0x3a, 0xff, 0x0a]))),
    ).rejects.toThrow(
      limitsError({ message: expect.stringContaining("the file is not valid UTF-8") }),
    );
  });

  it("passes the workspace's own errors through", async () => {
    const workspace = memoryWorkspace({ [`${CONTEXT_LIMITS_PATH}/inner`]: "x" });
    await expect(loadContextLimits(workspace)).rejects.toBeInstanceOf(NotRegularFileError);
  });

  it("refuses an unknown subagent type", async () => {
    await expect(loadContextLimits(memoryWorkspace(), "deploy" as "review")).rejects.toBeInstanceOf(
      ArgumentError,
    );
  });
});

describe("parseContextLimitsConfig", () => {
  it("returns the parsed file", () => {
    expect(parseContextLimitsConfig(config)).toEqual({
      defaults: { max_total: 6000, max_file_content: 1500 },
      overrides: { review: { max_total: 12000 }, plan: { max_prior_output: 3000 } },
    });
  });

  it("reports a document that is not a mapping", () => {
    expect(() => parseContextLimitsConfig("- 1\n- 2\n")).toThrow(
      "context-limits.yaml: the file must be a mapping with, optionally, defaults and overrides, not a list.",
    );
  });
});
