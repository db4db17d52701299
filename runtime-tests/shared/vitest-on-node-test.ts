// The "vitest" module for runtimes whose suites run on node:test (Node 20, Deno): node:test's
// describe and it, and vitest's own expect, set up on chai as @vitest/expect's README shows.
import { chai, JestAsymmetricMatchers, JestChaiExpect, JestExtend } from "@vitest/expect";

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

export const expect = chai.expect;
export { describe, it } from "node:test";
