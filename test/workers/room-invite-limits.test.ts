/**
 * Guessing invite codes (docs/SPEC.md §5.10): the invite directory counts wrong codes exactly, per
 * client address and relay-wide; a locked-out client is refused even with the right code, and the
 * ledger never moves on a refused join.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InviteDirectoryDO } from "../../durable-objects/invites/directory.js";
import { INVITE_LIMITS } from "../../durable-objects/invites/directory.js";
import { headUnmoved, RelayHttp } from "../support/relay-http.js";
import { RoomHttp } from "../support/room-http.js";

const relay = new RelayHttp((url, init) => SELF.fetch(url, init));
const directory = () => env.INVITES.getByName("invites");
const sql = (query: string, ...params: unknown[]) =>
  runInDurableObject(directory(), (_d: InviteDirectoryDO, state) => state.storage.sql.exec(query, ...params).toArray());

describe("guessing invite codes", () => {
  it("refuses a client after 5 wrong codes in 15 minutes, even with the right code; other clients go on", async () => {
    const room = await RoomHttp.open(relay, "room-guess-client");
    const issued = await room.invite();
    const guesser = "192.0.2.50";
    for (let i = 0; i < INVITE_LIMITS.misses_per_client; i++) {
      const miss = await room.lookup(`ZZZZ-ZZZ${"ABCDE"[i]}`, guesser);
      expect(miss.body.error.code).toBe("E_INVITE");
    }
    const locked = await headUnmoved(relay, room.id, () =>
      room.joinWith(issued.body.code, room.k.ben, "ben", "ben-bot", issued.body.invite, guesser),
    );
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe("E_RATE_LIMITED");
    expect((await room.lookup(issued.body.code, guesser)).body.error.code).toBe("E_RATE_LIMITED");
    expect(
      (await room.joinWith(issued.body.code, room.k.ben, "ben", "ben-bot", issued.body.invite, "192.0.2.51")).status,
    ).toBe(201);
  });

  it("lets the client in again once its window has passed", async () => {
    const room = await RoomHttp.open(relay, "room-guess-window");
    const issued = await room.invite();
    const guesser = "192.0.2.60";
    for (let i = 0; i < INVITE_LIMITS.misses_per_client; i++) await room.lookup("AAAA-AAAA", guesser);
    expect((await room.lookup(issued.body.code, guesser)).status).toBe(429);
    await sql("UPDATE counters SET window = window - ? WHERE name = ?", INVITE_LIMITS.window_ms, `miss:${guesser}`);
    expect((await room.lookup(issued.body.code, guesser)).status).toBe(200);
  });

  it("pauses all redemption after 100 wrong codes relay-wide", async () => {
    const room = await RoomHttp.open(relay, "room-guess-global");
    const issued = await room.invite();
    const window = Math.floor(Date.now() / INVITE_LIMITS.global_window_ms) * INVITE_LIMITS.global_window_ms;
    await sql(
      "INSERT OR REPLACE INTO counters (name, window, count) VALUES ('miss:*', ?, ?)",
      window,
      INVITE_LIMITS.misses_global - 1,
    );
    try {
      expect((await room.lookup("BBBB-BBBB", "192.0.2.70")).body.error.code).toBe("E_INVITE");
      const paused = await headUnmoved(relay, room.id, () =>
        room.joinWith(issued.body.code, room.k.ben, "ben", "ben-bot", issued.body.invite, "192.0.2.71"),
      );
      expect(paused.status).toBe(429);
      expect(paused.body.error.message).toMatch(/on this relay/);
    } finally {
      await sql("DELETE FROM counters WHERE name = 'miss:*'");
    }
  });

  it("counts an expired code as a wrong one", async () => {
    const room = await RoomHttp.open(relay, "room-guess-expired");
    const issued = await room.invite();
    await sql("UPDATE codes SET expires_at = ? WHERE invite = ?", Date.now() - 1, issued.body.invite);
    const client = "192.0.2.80";
    const expired = await headUnmoved(relay, room.id, () =>
      room.joinWith(issued.body.code, room.k.ben, "ben", "ben-bot", issued.body.invite, client),
    );
    expect(expired.body.error.code).toBe("E_INVITE");
    const [row] = await sql("SELECT count FROM counters WHERE name = ?", `miss:${client}`);
    expect(row).toMatchObject({ count: 1 });
  });

  it("counts a malformed code as a wrong one without looking anything up", async () => {
    const room = await RoomHttp.open(relay, "room-guess-malformed");
    const client = "192.0.2.90";
    expect((await room.lookup("not a code at all", client)).body.error.code).toBe("E_INVITE");
    expect(
      (await relay.request("POST", "/invites/lookup", { code: 1234 }, { "cf-connecting-ip": client })).body.error.code,
    ).toBe("E_SCHEMA");
    const [row] = await sql("SELECT count FROM counters WHERE name = ?", `miss:${client}`);
    expect(row).toMatchObject({ count: 1 });
  });
});
