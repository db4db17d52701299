import type { DeliveryStore } from "./delivery-store.ts";
import { type CommandType, commandTypes } from "./machine/machine.ts";

/**
 * How a store that keeps each run apart (on Workers, a Durable Object per run) forwards one
 * method of {@link DeliveryStore}:
 *
 * - `"run"`: the call concerns one existing run, whose id is its first argument; it is forwarded
 *   as it is to that run's storage, which answers it (`RUN_NOT_FOUND` when there is no such run).
 *   These forwarders are generated ({@link defineRunMethods}).
 * - `"explicit"`: the forwarders are written out, because the method is special: it creates the
 *   run's storage (`createRun`), must answer for any id without creating anything
 *   (`findAgent`, which authenticates every agent token), takes what cannot cross to the run's
 *   storage (`changed` and `claimNext`, an `AbortSignal`), or is every read of the registry of
 *   reads (`query`: a read of one run goes to the run's storage, which finds the same read by its
 *   name; a read across runs to the runs directory).
 */
export type Forwarding = "run" | "explicit";

/** The methods whose first argument is a run id: only these can be forwarded as `"run"`. */
type RunScoped = {
  [M in keyof DeliveryStore]: Parameters<DeliveryStore[M]> extends [string, ...unknown[]]
    ? M
    : never;
}[keyof DeliveryStore];

/** Every method of {@link DeliveryStore}, each with its {@link Forwarding}. */
export type StoreMethodList = {
  readonly [M in keyof DeliveryStore]: M extends RunScoped ? Forwarding : "explicit";
};

/**
 * The store's methods that change a run: one per command of the state machine (machine.ts's
 * `commandTypes`), each forwarded to its run's storage but `createRun`, which makes it.
 */
const commandMethods = Object.fromEntries(
  commandTypes.map((type) => [type, type === "createRun" ? "explicit" : "run"]),
) as { readonly [T in CommandType]: T extends "createRun" ? "explicit" : "run" };

/** The store's methods that read: views of a run, and the waits and lookups around them. */
const readMethods = {
  getRun: "run",
  findAgent: "explicit",
  a2aAgents: "run",
  offers: "run",
  claimNext: "explicit",
  deadLetters: "run",
  artifact: "run",
  overview: "run",
  events: "run",
  lastSeq: "run",
  changed: "explicit",
  query: "explicit",
} as const;

/**
 * The one list of the store's methods and how each is forwarded to a run's storage: the Workers
 * router's store and the run's Durable Object generate their `"run"` methods from it. A method
 * added to {@link DeliveryStore} and not here (a command of the machine, or a read) is a type
 * error, and one here and not there.
 */
export const storeMethods = {
  ...commandMethods,
  ...readMethods,
} as const satisfies StoreMethodList;

/** A method forwarded as it is to its run's storage. */
export type RunMethod = {
  [M in keyof typeof storeMethods]: (typeof storeMethods)[M] extends "run" ? M : never;
}[keyof typeof storeMethods];

/** The `"run"` methods of {@link storeMethods}, in its order. */
export const runMethods: readonly RunMethod[] = Object.entries(storeMethods)
  .filter(([, forwarding]) => forwarding === "run")
  .map(([method]) => method as RunMethod);

/**
 * Calls `method` of `target` with `args`, as a generated forwarder does: `target` declares the
 * method (a store, or the stub of a run's object), with the parameters of the store's.
 */
export function callMethod(target: object, method: RunMethod, args: readonly unknown[]): unknown {
  return (target as Record<RunMethod, (...args: readonly unknown[]) => unknown>)[method](...args);
}

/**
 * Defines each of the {@link runMethods} on `target.prototype` as an async method that passes
 * its name, its run id (the first argument) and all its arguments to `forward`, called with the
 * instance. A synchronous throw of `forward` rejects the call, as it would in an async method.
 * The class declares the methods' types by merging an interface with its own.
 */
export function defineRunMethods<Self>(
  target: { prototype: Self },
  forward: (self: Self, method: RunMethod, runId: string, args: unknown[]) => unknown,
): void {
  for (const method of runMethods) {
    // A computed name: the function is named after the method, in stack traces too.
    const forwarder = {
      async [method](this: Self, ...args: unknown[]) {
        return forward(this, method, args[0] as string, args);
      },
    }[method];
    Object.defineProperty(target.prototype, method, {
      value: forwarder,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }
}
