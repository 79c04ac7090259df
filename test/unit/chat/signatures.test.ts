/** Webhook signatures as each platform makes them: LINE HMAC-SHA256 (checked against Node's crypto) and Discord Ed25519. */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyDiscordSignature } from "../../../src/chat/platforms/discord.js";
import { verifyLineSignature } from "../../../src/chat/platforms/line.js";
import { toHex, utf8 } from "../../../src/protocol/index.js";
import { keyOf } from "../../support/table-fixture.js";

const body = utf8('{"events":[{"type":"message"}]}');

describe("LINE signatures", () => {
  it("accepts base64 HMAC-SHA256 of the raw body with the channel secret", async () => {
    const sig = createHmac("sha256", "secret").update(body).digest("base64");
    expect(await verifyLineSignature("secret", body, sig)).toBe(true);
  });

  describe("when the signature is wrong", () => {
    it("refuses another secret, another body, a missing header and hex encoding", async () => {
      const sig = createHmac("sha256", "secret").update(body).digest("base64");
      expect(await verifyLineSignature("other", body, sig)).toBe(false);
      expect(await verifyLineSignature("secret", utf8('{"events":[]}'), sig)).toBe(false);
      expect(await verifyLineSignature("secret", body, null)).toBe(false);
      expect(await verifyLineSignature("secret", body, createHmac("sha256", "secret").update(body).digest("hex"))).toBe(
        false,
      );
    });
  });
});

describe("Discord signatures", () => {
  it("accepts Ed25519 over timestamp + body with the application key", async () => {
    const app = await keyOf("discord:application");
    const sig = toHex(await app.sign(utf8(`1700000000${new TextDecoder().decode(body)}`)));
    expect(await verifyDiscordSignature(toHex(app.publicKey), "1700000000", body, sig)).toBe(true);
  });

  describe("when the signature is wrong", () => {
    it("refuses another timestamp, another key, and malformed hex", async () => {
      const app = await keyOf("discord:application");
      const other = await keyOf("someone else");
      const sig = toHex(await app.sign(utf8(`1700000000${new TextDecoder().decode(body)}`)));
      expect(await verifyDiscordSignature(toHex(app.publicKey), "1700000001", body, sig)).toBe(false);
      expect(await verifyDiscordSignature(toHex(other.publicKey), "1700000000", body, sig)).toBe(false);
      expect(await verifyDiscordSignature(toHex(app.publicKey), "1700000000", body, "zz")).toBe(false);
      expect(await verifyDiscordSignature(toHex(app.publicKey), null, body, sig)).toBe(false);
    });
  });
});
