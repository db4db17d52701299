// The contract's schemas, types, error table and OpenAPI document, as the server's root exported
// them before they moved to @task-context/contract: deprecated re-exports for one minor version,
// each naming its new import (the changeset lists them). Nothing of the server uses them.
import * as contract from "@task-context/contract";
import type { Hono } from "hono";

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const workItem: typeof contract.workItem = contract.workItem;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const artifact: typeof contract.artifact = contract.artifact;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const collaborationEvent: typeof contract.collaborationEvent = contract.collaborationEvent;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const stageInput: typeof contract.stageInput = contract.stageInput;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const createRunBody: typeof contract.createRunBody = contract.createRunBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const stageView: typeof contract.stageView = contract.stageView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const runView: typeof contract.runView = contract.runView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const runCreated: typeof contract.runCreated = contract.runCreated;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const addAgentBody: typeof contract.addAgentBody = contract.addAgentBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const agentCreated: typeof contract.agentCreated = contract.agentCreated;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const lease: typeof contract.lease = contract.lease;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const claimView: typeof contract.claimView = contract.claimView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const offersView: typeof contract.offersView = contract.offersView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const heartbeatBody: typeof contract.heartbeatBody = contract.heartbeatBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const heartbeatView: typeof contract.heartbeatView = contract.heartbeatView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const artifactInput: typeof contract.artifactInput = contract.artifactInput;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const reviewInput: typeof contract.reviewInput = contract.reviewInput;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const completeBody: typeof contract.completeBody = contract.completeBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const completionView: typeof contract.completionView = contract.completionView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const maxReasonLength: typeof contract.maxReasonLength = contract.maxReasonLength;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const failBody: typeof contract.failBody = contract.failBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const failureView: typeof contract.failureView = contract.failureView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const attemptRecord: typeof contract.attemptRecord = contract.attemptRecord;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const deadLetter: typeof contract.deadLetter = contract.deadLetter;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const deadLettersView: typeof contract.deadLettersView = contract.deadLettersView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const requeueView: typeof contract.requeueView = contract.requeueView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const eventPage: typeof contract.eventPage = contract.eventPage;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const errorBody: typeof contract.errorBody = contract.errorBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const health: typeof contract.health = contract.health;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const schemaList: typeof contract.schemaList = contract.schemaList;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const validationView: typeof contract.validationView = contract.validationView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const pollQuery: typeof contract.pollQuery = contract.pollQuery;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const claimNextQuery: typeof contract.claimNextQuery = contract.claimNextQuery;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const eventsQuery: typeof contract.eventsQuery = contract.eventsQuery;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const createViewLinkBody: typeof contract.createViewLinkBody = contract.createViewLinkBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export const viewLinkCreated: typeof contract.viewLinkCreated = contract.viewLinkCreated;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type CreateRunInput = contract.CreateRunInput;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type StageInput = contract.StageInput;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type RunView = contract.RunView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type StageView = contract.StageView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type ClaimView = contract.ClaimView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type HeartbeatView = contract.HeartbeatView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type CompleteBody = contract.CompleteBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type CompletionView = contract.CompletionView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type FailBody = contract.FailBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type FailureView = contract.FailureView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type AttemptRecord = contract.AttemptRecord;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type DeadLetter = contract.DeadLetter;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type EventPage = contract.EventPage;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type ErrorBody = contract.ErrorBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type RunCreated = contract.RunCreated;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type AddAgentInput = contract.AddAgentInput;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type AgentCreated = contract.AgentCreated;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type OffersView = contract.OffersView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type HeartbeatBody = contract.HeartbeatBody;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type DeadLettersView = contract.DeadLettersView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type RequeueView = contract.RequeueView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type CreateViewLinkInput = contract.CreateViewLinkInput;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type ViewLinkCreated = contract.ViewLinkCreated;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type HealthView = contract.HealthView;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type SchemaList = contract.SchemaList;

/** @deprecated Import from `@task-context/contract`; this re-export goes in the next minor version. */
export type ValidationView = contract.ValidationView;

/**
 * @deprecated Import `deliveryErrorStatus` from `@task-context/contract`; this re-export goes in
 * the next minor version.
 */
export const deliveryErrorStatus: typeof contract.deliveryErrorStatus =
  contract.deliveryErrorStatus;

/**
 * @deprecated Import `OpenApiDocument` from `@task-context/contract`; this re-export goes in the
 * next minor version.
 */
export type OpenApiDocument = contract.OpenApiDocument;

/**
 * The contract's OpenAPI 3.1 document; `serverUrl` is its server (default: the one serving it).
 * The app is no longer read: the document is built from the contract's operation registry.
 *
 * @deprecated Use `openApiDocument({ serverUrl })` of `@task-context/contract`; this function
 * goes in the next minor version.
 */
export async function openApiDocument(
  _app: Hono<never>,
  serverUrl?: string,
): Promise<contract.OpenApiDocument> {
  return contract.openApiDocument(serverUrl === undefined ? {} : { serverUrl });
}
