/** Who a request counts as (worker/limits/client-address.ts): the CF-Connecting-IP address, an IPv6 client by its /64. */
import { describe, expect, it } from "vitest";
import { clientAddress } from "../../../worker/limits/client-address.js";

const from = (ip?: string) =>
  clientAddress(new Request("https://relay.test/", ip === undefined ? {} : { headers: { "cf-connecting-ip": ip } }));

describe("clientAddress", () => {
  it("is the IPv4 address Cloudflare reports", () => {
    expect(from("203.0.113.9")).toBe("203.0.113.9");
  });

  it("is an IPv6 address's /64, however it is written", () => {
    expect(from("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(from("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(from("2001:db8::7")).toBe("2001:db8:0:0::/64");
    expect(from("::1")).toBe("0:0:0:0::/64");
  });

  it("is one client, local, without the header (wrangler dev, tests)", () => {
    expect(from()).toBe("local");
  });

  describe("when the header is not an address", () => {
    it("counts every such request as one client", () => {
      expect(from("not an address")).toBe("invalid");
      expect(from("1:2:3")).toBe("invalid");
      expect(from("1::2::3")).toBe("invalid");
    });
  });
});
