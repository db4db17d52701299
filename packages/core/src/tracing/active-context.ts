import type { Context } from "@opentelemetry/api";
import { openTelemetryApi } from "#open-telemetry-api";

/** An immutable context of values, as the API's own: the active context without the API. */
class ValuesContext implements Context {
  readonly #values: ReadonlyMap<symbol, unknown>;

  constructor(values: ReadonlyMap<symbol, unknown> = new Map()) {
    this.#values = values;
  }

  getValue(key: symbol): unknown {
    return this.#values.get(key);
  }

  setValue(key: symbol, value: unknown): Context {
    return new ValuesContext(new Map(this.#values).set(key, value));
  }

  deleteValue(key: symbol): Context {
    const values = new Map(this.#values);
    values.delete(key);
    return new ValuesContext(values);
  }
}

/** The context without the API: empty, as the API's root context. */
const EMPTY_CONTEXT: Context = new ValuesContext();

/** The active OpenTelemetry context; without the API, an empty one (there is no trace to be in). */
export function activeContext(): Context {
  return openTelemetryApi?.context.active() ?? EMPTY_CONTEXT;
}
