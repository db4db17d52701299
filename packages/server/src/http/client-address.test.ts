import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address.ts";

describe("clientAddress", () => {
  it("is the address itself, an IPv4 one in IPv6 form its IPv4 address, an IPv6 client its /64, none unknown", () => {
    expect(
      [
        "192.0.2.1",
        " 203.0.113.9 ",
        "2001:DB8:0001:0002:0003:0004:0005:0006",
        "2001:db8::1",
        "2001:db8:1:2::",
        "::1",
        "::ffff:192.0.2.1",
        "",
        undefined,
      ].map(clientAddress),
    ).toEqual([
      "192.0.2.1",
      "203.0.113.9",
      "2001:db8:1:2::/64",
      "2001:db8:0:0::/64",
      "2001:db8:1:2::/64",
      "0:0:0:0::/64",
      "192.0.2.1",
      "unknown",
      "unknown",
    ]);
  });
});
