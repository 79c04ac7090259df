/**
 * The relay's signing key (docs/SPEC.md §4.5): the RELAY_SIGNING_KEY secret when set, otherwise the
 * seed RelayDO generated once; and what GET /.well-known/trestle.json publishes about it.
 */
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import app from "../../worker/index.js";
import { fromBase64url, nobleEd25519, toBase64url } from "../../src/protocol/index.js";
import { PUBLISHED_LIMITS } from "../../src/protocol/schemas/responses.js";
import { limitsOf } from "../../durable-objects/settings.js";
import { features, VERSION } from "../../worker/site/relay-info.js";

const SECRET = toBase64url(new Uint8Array(32).fill(42));

/** The public key (base64url) of a base64url seed, derived by noble, independently of the relay. */
async function publicKeyOf(seed: string): Promise<string> {
  return toBase64url((await nobleEd25519.signer(fromBase64url(seed))).publicKey);
}

/** GET /.well-known/trestle.json through the Worker with `vars` added to its bindings. */
async function wellKnown(vars: Record<string, string>): Promise<Response> {
  return app.request("https://relay.test/.well-known/trestle.json", {}, { ...env, ...vars });
}

describe("the relay key", () => {
  it("is the one RelayDO generated and keeps, when no secret is set; the well-known document names it with the protocol and limits", async () => {
    const res = await SELF.fetch("https://relay.test/.well-known/trestle.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    const seed = await env.RELAY.getByName("relay").seed();
    expect(await res.json()).toEqual({
      protocol: "trestle/0.1",
      relay_key: await publicKeyOf(seed),
      limits: { ...PUBLISHED_LIMITS, ...limitsOf(env) },
      version: VERSION,
      features: features(env),
    });
  });

  it("is the RELAY_SIGNING_KEY secret's when it is set, not the generated one", async () => {
    const res = await wellKnown({ RELAY_SIGNING_KEY: SECRET });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { relay_key: string };
    expect(body.relay_key).toBe(await publicKeyOf(SECRET));
    expect(body.relay_key).not.toBe(await publicKeyOf(await env.RELAY.getByName("relay").seed()));
  });

  it("accepts the secret with surrounding whitespace, as `wrangler secret put` from a file leaves it", async () => {
    const body = (await (await wellKnown({ RELAY_SIGNING_KEY: `${SECRET}\n` })).json()) as { relay_key: string };
    expect(body.relay_key).toBe(await publicKeyOf(SECRET));
  });

  describe("when the secret is not a base64url 32-byte seed", () => {
    it.each([
      ["not base64url", "not a seed!"],
      ["31 bytes", toBase64url(new Uint8Array(31).fill(1))],
      ["33 bytes", toBase64url(new Uint8Array(33).fill(1))],
    ])("answers %s with E_UNAVAILABLE (503), never a 500 or another key", async (_what, secret) => {
      const res = await wellKnown({ RELAY_SIGNING_KEY: secret });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: { code: "E_UNAVAILABLE" } });
    });
  });
});
