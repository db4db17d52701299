import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeText,
  encodeText,
  numberPlaceholders,
  postgresSchema,
  postgresText,
} from "./postgres-sql.ts";

describe("the store's statements on PostgreSQL", () => {
  it("numbers the placeholders, leaving quoted text alone", () => {
    expect(
      numberPlaceholders(
        "SELECT * FROM work_items WHERE run_id = ? AND status = 'why?' AND \"q?\" = ? LIMIT ?",
      ),
    ).toBe(
      "SELECT * FROM work_items WHERE run_id = $1 AND status = 'why?' AND \"q?\" = $2 LIMIT $3",
    );
    expect(numberPlaceholders("SELECT 1")).toBe("SELECT 1");
  });

  it("locks the rows of a locking read until the transaction ends", () => {
    const sql = "SELECT * FROM runs WHERE id = ?";
    expect(postgresText({ kind: "all", sql, params: ["r"], lock: true })).toBe(
      "SELECT * FROM runs WHERE id = $1 FOR UPDATE",
    );
    expect(postgresText({ kind: "all", sql, params: ["r"] })).toBe(
      "SELECT * FROM runs WHERE id = $1",
    );
  });

  it("makes the schema's INTEGER columns BIGINT (milliseconds since the epoch)", () => {
    expect(postgresSchema("CREATE TABLE t (a INTEGER NOT NULL, integers TEXT)")).toBe(
      "CREATE TABLE t (a BIGINT NOT NULL, integers TEXT)",
    );
  });

  it("stores any string without U+0000 and reads it back as sent; equal strings stay equal", () => {
    expect(encodeText("a\u0000b\u0001c")).toBe("a\u0001\u0002b\u0001\u0001c");
    expect(encodeText("plain")).toBe("plain");
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
        const encoded = encodeText(a);
        expect(encoded.includes("\u0000")).toBe(false);
        expect(decodeText(encoded)).toBe(a);
        expect(encodeText(a) === encodeText(b)).toBe(a === b);
      }),
    );
  });
});
