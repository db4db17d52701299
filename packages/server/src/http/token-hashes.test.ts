import { sha256Hex } from "@task-context/core/internal";
import { describe, expect, it } from "vitest";
import { tokenHashes } from "./token-hashes.ts";

/** tokenHashes over SHA-256, counting the tokens it had to hash. */
function counted(kept: number) {
  const hashed: string[] = [];
  const hashes = tokenHashes(kept, (text) => {
    hashed.push(text);
    return sha256Hex(text);
  });
  return { hashes, hashed };
}

describe("tokenHashes", () => {
  it("answers a kept token's SHA-256 without hashing it again", async () => {
    const { hashes, hashed } = counted(2);
    const hash = await hashes.hash("tc_agent_a");
    expect(hash).toBe(await sha256Hex("tc_agent_a"));
    hashes.keep("tc_agent_a", hash);
    expect(await hashes.hash("tc_agent_a")).toBe(hash);
    expect(hashed).toEqual(["tc_agent_a"]);
  });

  it("keeps only the tokens it is told to keep", async () => {
    const { hashes, hashed } = counted(2);
    await hashes.hash("not valid");
    await hashes.hash("not valid");
    expect(hashed).toEqual(["not valid", "not valid"]);
  });

  it("keeps at most `kept` tokens, the oldest kept out first", async () => {
    const { hashes, hashed } = counted(2);
    for (const token of ["a", "b", "c"]) hashes.keep(token, await hashes.hash(token));
    hashed.length = 0;
    for (const token of ["a", "b", "c"]) await hashes.hash(token);
    expect(hashed).toEqual(["a"]);
    hashes.keep("a", await hashes.hash("a")); // kept again: b goes
    hashed.length = 0;
    for (const token of ["a", "b", "c"]) await hashes.hash(token);
    expect(hashed).toEqual(["b"]);
  });
});
