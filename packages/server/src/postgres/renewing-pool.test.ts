import type { Sql } from "postgres";
import { describe, expect, it } from "vitest";
import { RenewingPool } from "./renewing-pool.ts";

/** Pools that only record how they were ended. */
function fakePools() {
  const made: Array<{ ended: Array<number | null | undefined> }> = [];
  const create = () => {
    const pool = { ended: [] as Array<number | null | undefined> };
    made.push(pool);
    return {
      end: async ({ timeout }: { timeout?: number | null } = {}) => {
        pool.ended.push(timeout);
      },
    } as unknown as Sql;
  };
  return { made, create };
}

const lost = Object.assign(new Error("gone"), { code: "CONNECTION_CLOSED" });

describe("the pool a PostgreSQL store works on", () => {
  it("is replaced once when it loses a connection, and the old one ends within the time given", async () => {
    const { made, create } = fakePools();
    const pool = new RenewingPool(create, { retireMs: 2000 });
    const first = pool.current;
    pool.failed(first, lost);
    pool.failed(first, lost);
    expect(made).toHaveLength(2);
    expect(pool.current).not.toBe(first);
    await pool.end({ timeoutMs: 500 });
    expect(made.map((each) => each.ended)).toEqual([[2], [0.5]]);
  });

  it("is kept after an error that leaves its connections usable", () => {
    const { made, create } = fakePools();
    const pool = new RenewingPool(create, { retireMs: 2000 });
    pool.failed(pool.current, Object.assign(new Error("refused"), { code: "UNDEFINED_VALUE" }));
    expect(made).toHaveLength(1);
  });
});
