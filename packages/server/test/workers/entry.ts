// The Worker the workerd tests run: src/workers.ts with a RunObject whose clock the tests move
// (over RPC: setClock), as the Node suites move their injected clock.
import { RunObject as ProductionRunObject } from "../../src/workers/run-object.ts";

export { default } from "../../src/workers.ts";

export class RunObject extends ProductionRunObject {
  #now: number | undefined;

  protected override now(): number {
    return this.#now ?? Date.now();
  }

  /** From now on, the object's time is `now` (milliseconds since the epoch) until set again. */
  async setClock(now: number): Promise<void> {
    this.#now = now;
  }
}
