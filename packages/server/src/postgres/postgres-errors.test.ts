import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { isConnectionLost, mayRunStrictly } from "./postgres-errors.ts";

/** A PostgresError as the driver makes it from PostgreSQL's ErrorResponse. */
const refused = (severity: string, code: string) =>
  Object.assign(new postgres.PostgresError({ message: code } as never), { severity, code });

/** A driver error or a Node socket error. */
const failure = (fields: Record<string, string>) => Object.assign(new Error("failed"), fields);

describe("what a failure means for a PostgreSQL transaction", () => {
  it("takes FATAL errors, the driver's connection codes and socket errors as a lost connection", () => {
    expect(
      [
        refused("FATAL", "57P01"),
        refused("FATAL", "53300"),
        refused("PANIC", "XX000"),
        failure({ code: "CONNECTION_CLOSED" }),
        failure({ code: "CONNECTION_DESTROYED" }),
        failure({ code: "CONNECTION_ENDED" }),
        failure({ code: "CONNECT_TIMEOUT" }),
        failure({ code: "ECONNRESET", syscall: "read" }),
        failure({ code: "ECONNREFUSED", syscall: "connect" }),
      ].map(isConnectionLost),
    ).toEqual([true, true, true, true, true, true, true, true, true]);
    expect(
      [
        refused("ERROR", "23505"),
        refused("ERROR", "57014"),
        failure({ code: "UNDEFINED_VALUE" }),
        new TypeError("not a connection"),
        undefined,
      ].map(isConnectionLost),
    ).toEqual([false, false, false, false, false]);
  });

  it("runs a group again strictly after a refused statement, not after a cancelled one or a lost connection", () => {
    expect(
      [
        refused("ERROR", "23505"),
        refused("ERROR", "40P01"),
        refused("ERROR", "57014"),
        refused("FATAL", "57P01"),
        failure({ code: "CONNECTION_CLOSED" }),
        new TypeError("a bug"),
      ].map(mayRunStrictly),
    ).toEqual([true, true, false, false, false, false]);
  });
});
