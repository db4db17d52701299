// The Worker the workerd tests run: src/workers.ts with a RunObject whose clock the tests move
// (over RPC: setClock), as the Node suites move their injected clock.

import type { DirectoryEntry } from "../../src/workers/run-directory.ts";
import { RunDirectory as ProductionRunDirectory } from "../../src/workers/run-directory.ts";
import { RunObject as ProductionRunObject } from "../../src/workers/run-object.ts";

export { default } from "../../src/workers.ts";

/** The runs directory, which a test can tell to refuse the next reports (a failure to retry). */
export class RunDirectory extends ProductionRunDirectory {
  #refusals = 0;

  /** The next `count` reports fail. */
  async refuseReports(count: number): Promise<void> {
    this.#refusals = count;
  }

  override async record(entry: DirectoryEntry): Promise<void> {
    if (this.#refusals > 0) {
      this.#refusals -= 1;
      throw new Error("the runs directory refused the report (test)");
    }
    return super.record(entry);
  }
}

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
