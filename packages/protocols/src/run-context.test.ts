import { ArgumentError } from "@task-context/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type RunContext, renderRunContext, runContextSha256 } from "./run-context.ts";

const context: RunContext = {
  goal: "Launch Lumen",
  constraints: ["Plain words"],
  stage_context: {
    stage_description: "Write the copy",
    expected_output: "Markdown",
    available_skills: [],
  },
};

const HASH = "01758c7e90d202252a401c16327a6a67b94cfe74bc4210cd0d55cb32f84faba3";

describe("renderRunContext", () => {
  it("writes goal, constraints and stage context with sorted keys and no whitespace", () => {
    expect(renderRunContext(context)).toBe(
      '{"constraints":["Plain words"],"goal":"Launch Lumen","stage_context":{"available_skills":[],"expected_output":"Markdown","stage_description":"Write the copy"}}',
    );
    expect(
      renderRunContext({
        ...context,
        stage_context: { ...context.stage_context, background: "Ü \u2028 \ud800" },
      }),
    ).toBe(
      '{"constraints":["Plain words"],"goal":"Launch Lumen","stage_context":{"available_skills":[],"background":"Ü \u2028 \\ud800","expected_output":"Markdown","stage_description":"Write the copy"}}',
    );
  });

  it("ignores everything of a work item that is not the run context", () => {
    const item = {
      kind: "task",
      id: "wi_1",
      ...context,
      stage_context: { ...context.stage_context, extra: "not hashed" },
      previous_artifacts: [],
      attempt: 3,
    } as RunContext;
    expect(renderRunContext(item)).toBe(renderRunContext(context));
  });

  it("does not depend on the order of the keys it is given", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.string()),
        fc.option(fc.string()),
        (goal, constraints, background) => {
          const stage = {
            stage_description: "d",
            expected_output: "o",
            available_skills: ["s"],
            ...(background === null ? {} : { background }),
          };
          const reversed = Object.fromEntries(Object.entries(stage).reverse());
          expect(
            renderRunContext({ stage_context: reversed, constraints, goal } as RunContext),
          ).toBe(renderRunContext({ goal, constraints, stage_context: stage }));
          expect(JSON.parse(renderRunContext({ goal, constraints, stage_context: stage }))).toEqual(
            {
              goal,
              constraints,
              stage_context: stage,
            },
          );
        },
      ),
    );
  });

  it("refuses something that is not a run context", () => {
    expect(() => renderRunContext(null as never)).toThrow(ArgumentError);
    expect(() => renderRunContext({ goal: "g", constraints: [] } as never)).toThrow(
      "Invalid context.stage_context: expected an object, got undefined.",
    );
  });
});

describe("runContextSha256", () => {
  it("is the SHA-256 of the canonical text's UTF-8 bytes", async () => {
    expect(await runContextSha256(context)).toBe(HASH);
  });

  it("changes when any part of the run context changes", async () => {
    const changed = [
      { ...context, goal: "Launch Lumen 2" },
      { ...context, constraints: [] },
      { ...context, stage_context: { ...context.stage_context, background: "" } },
      { ...context, stage_context: { ...context.stage_context, available_skills: ["x"] } },
    ];
    for (const other of changed) expect(await runContextSha256(other)).not.toBe(HASH);
  });
});

describe("the published fixtures", () => {
  it("carry the context_sha256 runContextSha256 computes", async () => {
    const fixture = (await import("../fixtures/work-item.v1/valid/with-context-sha256.json", {
      with: { type: "json" },
    })) as { default: RunContext & { context_sha256: string } };
    expect(await runContextSha256(fixture.default)).toBe(fixture.default.context_sha256);
    expect(fixture.default.context_sha256).toBe(
      "1e2c24681f3bc30d0339abef31595c720f8c6ca03a2c6278b175a2e43b8b7829",
    );
  });
});
