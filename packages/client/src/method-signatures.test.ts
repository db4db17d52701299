// The generated plain methods keep the signatures the client's methods had when they were written
// by hand (docs, the CLI and agents call them so): TypeScript checks this file; the test below
// proves that each of them is still generated, not written by hand again.
import { describe, expect, expectTypeOf, it } from "vitest";
import { OperationMethods } from "./generated/methods.ts";
import type * as Types from "./generated/schemas.ts";
import type { CallOptions } from "./operation-call.ts";
import type { ServiceClient } from "./service-client.ts";

/** Each generated method's signature, as it was written by hand. */
interface Signatures {
  health(options?: CallOptions): Promise<Types.HealthView>;
  listSchemas(options?: CallOptions): Promise<Types.SchemaList>;
  getSchema(name: string, options?: CallOptions): Promise<Record<string, unknown>>;
  validate(name: string, value: unknown, options?: CallOptions): Promise<Types.ValidationView>;
  createRun(input: Types.CreateRunInput, options?: CallOptions): Promise<Types.RunCreated>;
  getRun(runId: string, options?: CallOptions): Promise<Types.RunView>;
  addAgent(
    runId: string,
    input: Types.AddAgentInput,
    options?: CallOptions,
  ): Promise<Types.AgentCreated>;
  listAgents(runId: string, options?: CallOptions): Promise<Types.AgentList>;
  getArtifact(runId: string, artifactId: string, options?: CallOptions): Promise<Types.Artifact>;
  listDeadLetters(runId: string, options?: CallOptions): Promise<Types.DeadLettersView>;
  requeue(runId: string, workItemId: string, options?: CallOptions): Promise<Types.RequeueView>;
  createViewLink(
    runId: string,
    input?: Types.CreateViewLinkInput,
    options?: CallOptions,
  ): Promise<Types.ViewLinkCreated>;
  claim(workItemId: string, options?: CallOptions): Promise<Types.ClaimView>;
  heartbeat(
    workItemId: string,
    body: Types.HeartbeatBody,
    options?: CallOptions,
  ): Promise<Types.HeartbeatView>;
}

describe("the generated methods", () => {
  it("have the signatures they had when written by hand", () => {
    expectTypeOf<Pick<ServiceClient, keyof Signatures>>().toEqualTypeOf<Signatures>();
  });

  it("are still generated, each of them (a new operation's method needs no line here)", () => {
    const generated = Object.getOwnPropertyNames(OperationMethods.prototype);
    const listed: (keyof Signatures)[] = [
      "health",
      "listSchemas",
      "getSchema",
      "validate",
      "createRun",
      "getRun",
      "addAgent",
      "listAgents",
      "getArtifact",
      "listDeadLetters",
      "requeue",
      "createViewLink",
      "claim",
      "heartbeat",
    ];
    expect(listed.filter((name) => !generated.includes(name))).toEqual([]);
  });
});
