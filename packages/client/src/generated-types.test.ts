// The generated types against the contract's zod types: each type the client exports for a
// schema of the document is assignable to the zod schema's type and back — its output (what the
// service answers) and its input (what a caller sends). TypeScript checks this file (the
// package's typecheck); the test below proves that no schema of the document is left out.

import type * as Contract from "@task-context/contract";
import { describe, expect, it } from "vitest";
import { clientTypeName } from "../scripts/client-generation.ts";
import { serviceDocument } from "../scripts/service-document.ts";
import type * as Generated from "./generated/schemas.ts";

/** What a zod schema parses to, and what it accepts (zod's `z.output` and `z.input`). */
type ZodTypes = { _zod: { output: unknown; input: unknown } };

/** `true` when A and B are assignable to each other, else `false`. */
type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Compiles only when `Type` is `schema`'s output and input type, both ways. */
function same<Type, Schema extends ZodTypes>(
  ..._proof: MutuallyAssignable<Type, Schema["_zod"]["output"]> extends true
    ? MutuallyAssignable<Type, Schema["_zod"]["input"]> extends true
      ? []
      : [error: "not the schema's input type"]
    : [error: "not the schema's output type"]
): true {
  return true;
}

/** Every named type of the generated file, against the contract's schema of the same name. */
const checked = {
  A2aCredential: same<Generated.A2aCredential, typeof Contract.a2aCredential>(),
  AddAgentInput: same<Generated.AddAgentInput, typeof Contract.addAgentBody>(),
  AgentCreated: same<Generated.AgentCreated, typeof Contract.agentCreated>(),
  AgentList: same<Generated.AgentList, typeof Contract.agentList>(),
  AgentView: same<Generated.AgentView, typeof Contract.agentView>(),
  Artifact: same<Generated.Artifact, typeof Contract.artifact>(),
  ArtifactInput: same<Generated.ArtifactInput, typeof Contract.artifactInput>(),
  AttemptRecord: same<Generated.AttemptRecord, typeof Contract.attemptRecord>(),
  CancelRun: same<Generated.CancelRun, typeof Contract.cancelRunBody>(),
  CardSignature: same<Generated.CardSignature, typeof Contract.cardSignature>(),
  ClaimView: same<Generated.ClaimView, typeof Contract.claimView>(),
  CollaborationEvent: same<Generated.CollaborationEvent, typeof Contract.collaborationEvent>(),
  CompleteBody: same<Generated.CompleteBody, typeof Contract.completeBody>(),
  CompletionView: same<Generated.CompletionView, typeof Contract.completionView>(),
  CreateRunInput: same<Generated.CreateRunInput, typeof Contract.createRunBody>(),
  CreateViewLinkInput: same<Generated.CreateViewLinkInput, typeof Contract.createViewLinkBody>(),
  DeadLetter: same<Generated.DeadLetter, typeof Contract.deadLetter>(),
  DeadLettersView: same<Generated.DeadLettersView, typeof Contract.deadLettersView>(),
  ErrorBody: same<Generated.ErrorBody, typeof Contract.errorBody>(),
  EventPage: same<Generated.EventPage, typeof Contract.eventPage>(),
  FailBody: same<Generated.FailBody, typeof Contract.failBody>(),
  FailureView: same<Generated.FailureView, typeof Contract.failureView>(),
  HealthView: same<Generated.HealthView, typeof Contract.health>(),
  HeartbeatBody: same<Generated.HeartbeatBody, typeof Contract.heartbeatBody>(),
  HeartbeatView: same<Generated.HeartbeatView, typeof Contract.heartbeatView>(),
  Lease: same<Generated.Lease, typeof Contract.lease>(),
  OffersView: same<Generated.OffersView, typeof Contract.offersView>(),
  RequeueView: same<Generated.RequeueView, typeof Contract.requeueView>(),
  ReviewInput: same<Generated.ReviewInput, typeof Contract.reviewInput>(),
  RunCreated: same<Generated.RunCreated, typeof Contract.runCreated>(),
  RunList: same<Generated.RunList, typeof Contract.runList>(),
  RunSummary: same<Generated.RunSummary, typeof Contract.runSummary>(),
  RunView: same<Generated.RunView, typeof Contract.runView>(),
  SchemaList: same<Generated.SchemaList, typeof Contract.schemaList>(),
  StageInput: same<Generated.StageInput, typeof Contract.stageInput>(),
  StageView: same<Generated.StageView, typeof Contract.stageView>(),
  ValidationView: same<Generated.ValidationView, typeof Contract.validationView>(),
  ViewLinkCreated: same<Generated.ViewLinkCreated, typeof Contract.viewLinkCreated>(),
  WorkItem: same<Generated.WorkItem, typeof Contract.workItem>(),
};

describe("the generated types", () => {
  it("are checked against the contract's zod types, every one the client exports", async () => {
    const schemas = Object.keys((await serviceDocument()).components?.schemas ?? {});
    expect(Object.keys(checked).sort()).toEqual(schemas.map(clientTypeName).sort());
  });
});
