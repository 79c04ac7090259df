/** The one reader of optional settings (durable-objects/settings.ts): defaults, and E_UNAVAILABLE for a malformed setting. */
import { describe, expect, it } from "vitest";
import { chatPlatforms, outboxDelay, relaySigningKey } from "../../../durable-objects/settings.js";
import { TrestleError } from "../../../src/protocol/index.js";

describe("the settings reader", () => {
  it("reads a relay without chat settings as every platform present and none configured", () => {
    const platforms = chatPlatforms({});
    expect(Object.keys(platforms)).toEqual(["telegram", "line", "discord"]);
    expect(Object.values(platforms).map((p) => p.configured)).toEqual([false, false, false]);
  });

  it("counts a platform configured only with both its sending and its webhook secrets", () => {
    const platforms = chatPlatforms({
      TELEGRAM_BOT_TOKEN: "t",
      TELEGRAM_WEBHOOK_SECRET: "s",
      LINE_CHANNEL_ACCESS_TOKEN: "l",
      DISCORD_PUBLIC_KEY: "k",
    });
    expect(Object.values(platforms).map((p) => p.configured)).toEqual([true, false, false]);
    expect(platforms.telegram.secrets).toEqual(["t", "s"]);
  });

  it("reads OUTBOX_DELAY_MS as 0 unless a positive whole number, and RELAY_SIGNING_KEY as given", () => {
    expect(
      [{}, { OUTBOX_DELAY_MS: "250" }, { OUTBOX_DELAY_MS: "-5" }, { OUTBOX_DELAY_MS: "soon" }].map(outboxDelay),
    ).toEqual([0, 250, 0, 0]);
    expect(relaySigningKey({})).toBeUndefined();
    expect(relaySigningKey({ RELAY_SIGNING_KEY: "seed" })).toBe("seed");
  });

  describe("when a setting is not text", () => {
    it("refuses with E_UNAVAILABLE", () => {
      for (const read of [
        () => chatPlatforms({ TELEGRAM_BOT_TOKEN: 5 }),
        () => relaySigningKey({ RELAY_SIGNING_KEY: ["x"] }),
      ]) {
        expect(read).toThrow(TrestleError);
        try {
          read();
        } catch (error) {
          expect(error).toMatchObject({ code: "E_UNAVAILABLE" });
        }
      }
    });
  });
});
