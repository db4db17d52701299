import type { LoadTaskContextOptions, Workspace } from "@task-context/core";
import { ArgumentError } from "@task-context/core";
import {
  type CheckedLoadOptions,
  describeArgument,
  LOAD_OPTION_KEYS,
  requireLoadOptions,
  requireObject,
  requireWorkspace,
} from "@task-context/core/internal";
import type { TaskContextReceipt } from "./task-context-receipt.ts";

/** What every delivery of this package takes: where CONTEXT.md is, how to load it, who to tell. */
export interface TaskContextDeliveryOptions extends LoadTaskContextOptions {
  /** Where CONTEXT.md is read from, each time an agent receives it. */
  workspace: Workspace;
  /**
   * Called with the receipt of every delivery (the context's hash, its view, any warning), after
   * the receiving agent's input is built and before it runs. It also goes into the run's trace.
   */
  onDelivery?: ((receipt: TaskContextReceipt) => void) | undefined;
}

/** The options of a delivery, checked once when the handoff or the tool is made. */
export interface CheckedDeliveryOptions {
  workspace: Workspace;
  load: CheckedLoadOptions;
  onDelivery: ((receipt: TaskContextReceipt) => void) | undefined;
}

/** The keys of {@link TaskContextDeliveryOptions}: what this package takes out of the SDK's options. */
const DELIVERY_KEYS = ["workspace", "onDelivery", ...LOAD_OPTION_KEYS] as const;

/** `options` without the delivery's own keys: what goes on to the SDK. */
export function sdkOptions<Options extends TaskContextDeliveryOptions>(
  options: Options,
): Omit<Options, (typeof DELIVERY_KEYS)[number]> {
  const rest: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  for (const key of DELIVERY_KEYS) delete rest[key];
  return rest as Omit<Options, (typeof DELIVERY_KEYS)[number]>;
}

/**
 * Checks the delivery part of `options` (what else they hold is the SDK's); throws core's
 * `ArgumentError` (`INVALID_ARGUMENT`) naming the option.
 */
export function checkDeliveryOptions(options: unknown): CheckedDeliveryOptions {
  const given = requireObject("options", options, "the options object");
  const { workspace, onDelivery } = given;
  if (onDelivery !== undefined && typeof onDelivery !== "function") {
    throw new ArgumentError({
      argument: "options.onDelivery",
      message: `expected a function that takes the receipt, got ${describeArgument(onDelivery)}.`,
    });
  }
  return {
    workspace: requireWorkspace("options.workspace", workspace),
    load: requireLoadOptions(given, "options."), // reads only the load options' keys
    onDelivery: onDelivery as CheckedDeliveryOptions["onDelivery"],
  };
}
