/** Key files (0600, refused when others may read them), the relay pin store (trust on first use) and the head store. */
import { chmodSync, lstatSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  createKeyFile,
  FileHeadStore,
  HttpClient,
  PinStore,
  pinRelay,
  readKeyFile,
  trestleHome,
} from "../../../src/client/node.js";
import { LIMITS, signHead, TrestleError } from "../../../src/protocol/index.js";
import { keyOf } from "../../support/table-fixture.js";

const home = () => mkdtempSync(join(tmpdir(), "trestle-keys-"));

async function caught(promise: Promise<unknown> | (() => unknown)): Promise<TrestleError> {
  const run = typeof promise === "function" ? Promise.resolve().then(promise) : promise;
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TrestleError);
  return error as TrestleError;
}

function wellKnown(key: string, limits: Record<string, number> = {}): HttpClient {
  const body = JSON.stringify({ protocol: "trestle/0.1", relay_key: key, limits });
  return new HttpClient({ url: "http://relay.test", fetch: async () => new Response(body) });
}

describe("key files", () => {
  it("writes a key with mode 0600 in a 0700 directory and reads the same key back", async () => {
    const path = join(home(), "owners", "tao.json");
    const created = await createKeyFile(path, "owner", "tao");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, "..")).mode & 0o777).toBe(0o700);
    const loaded = await readKeyFile(path, "owner");
    expect(loaded.signer.publicKeyText).toBe(created.signer.publicKeyText);
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ type: "trestle-key", role: "owner", name: "tao" });
  });

  describe("when a key file is unsafe or wrong", () => {
    it.each([0o644, 0o640, 0o604, 0o660])("refuses a key file with mode %s", async (mode) => {
      const path = join(home(), "seat.json");
      await createKeyFile(path, "seat", "bot-tao");
      chmodSync(path, mode);
      const error = await caught(readKeyFile(path));
      expect(error.code).toBe("E_KEY_FILE");
      expect(error.message).toContain("chmod 600");
    });

    it("replaces a forced key file instead of writing through it: a symlink's target gets nothing of the new seed", async () => {
      const dir = home();
      const target = join(dir, "elsewhere.json");
      writeFileSync(target, "not a key\n", { mode: 0o644 });
      const link = join(dir, "linked.json");
      symlinkSync(target, link);
      const replaced = await createKeyFile(link, "seat", "bot-tao", { force: true });
      expect(readFileSync(target, "utf8")).toBe("not a key\n");
      expect(lstatSync(link).isSymbolicLink()).toBe(false);
      expect((await readKeyFile(link)).signer.publicKeyText).toBe(replaced.signer.publicKeyText);

      const readable = join(dir, "readable.json");
      writeFileSync(readable, "old\n", { mode: 0o644 });
      await createKeyFile(readable, "seat", "bot-tao", { force: true });
      expect(statSync(readable).mode & 0o777).toBe(0o600);
    });

    it("refuses to overwrite an existing key unless forced", async () => {
      const path = join(home(), "seat.json");
      const first = await createKeyFile(path, "seat", "bot-tao");
      expect((await caught(createKeyFile(path, "seat", "bot-tao"))).code).toBe("E_KEY_FILE");
      expect((await readKeyFile(path)).signer.publicKeyText).toBe(first.signer.publicKeyText);
      const second = await createKeyFile(path, "seat", "bot-tao", { force: true });
      expect(second.signer.publicKeyText).not.toBe(first.signer.publicKeyText);
      expect(statSync(path).mode & 0o777).toBe(0o600);
    });

    it("refuses a missing file, a non-key file, a key of the other role and a public key that does not match the seed", async () => {
      const dir = home();
      expect((await caught(readKeyFile(join(dir, "none.json")))).message).toContain("no key file");
      const junk = join(dir, "junk.json");
      writeFileSync(junk, "{}", { mode: 0o600 });
      expect((await caught(readKeyFile(junk))).code).toBe("E_KEY_FILE");
      const seat = join(dir, "seat.json");
      await createKeyFile(seat, "seat", "bot-tao");
      expect((await caught(readKeyFile(seat, "owner"))).message).toContain("holds a seat key, not an owner key");
      const file = JSON.parse(readFileSync(seat, "utf8"));
      writeFileSync(seat, JSON.stringify({ ...file, public_key: (await keyOf("other")).publicKeyText }), {
        mode: 0o600,
      });
      expect((await caught(readKeyFile(seat))).message).toContain("does not belong to its seed");
    });
  });
});

describe("trestleHome", () => {
  it("prefers the explicit directory, then TRESTLE_HOME, then XDG_CONFIG_HOME", () => {
    expect(trestleHome("/x/y", { TRESTLE_HOME: "/a" })).toBe("/x/y");
    expect(trestleHome(undefined, { TRESTLE_HOME: "/a" })).toBe("/a");
    expect(trestleHome(undefined, { XDG_CONFIG_HOME: "/c" })).toBe("/c/trestle");
  });
});

describe("the pin store", () => {
  it("pins a relay's key on first use and accepts it again", async () => {
    const store = new PinStore(home());
    const key = (await keyOf("relay")).publicKeyText;
    expect(await pinRelay(wellKnown(key), store, () => 5)).toEqual({
      relayKey: key,
      firstUse: true,
      maxEntries: LIMITS.entries,
    });
    expect(await pinRelay(wellKnown(key), store)).toEqual({
      relayKey: key,
      firstUse: false,
      maxEntries: LIMITS.entries,
    });
    expect(store.get("http://relay.test")).toEqual({ relay_key: key, pinned_at: 5 });
    expect(store.pins(key)).toBe(true);
  });

  it("reports the ledger limit the relay publishes, for the policy replay of verification (a value that is no positive integer is the default)", async () => {
    const key = (await keyOf("relay")).publicKeyText;
    expect((await pinRelay(wellKnown(key, { entries: 30_000 }), new PinStore(home()))).maxEntries).toBe(30_000);
    expect((await pinRelay(wellKnown(key, { entries: 0.5 }), new PinStore(home()))).maxEntries).toBe(LIMITS.entries);
  });

  describe("when the relay serves another key", () => {
    it("refuses loudly with E_RELAY_KEY and keeps the old pin until it is forgotten", async () => {
      const store = new PinStore(home());
      const key = (await keyOf("relay")).publicKeyText;
      const other = (await keyOf("impostor")).publicKeyText;
      await pinRelay(wellKnown(key), store);
      const error = await caught(pinRelay(wellKnown(other), store));
      expect(error.code).toBe("E_RELAY_KEY");
      expect(error.message).toMatch(/RELAY KEY CHANGED/);
      expect(error.details).toMatchObject({ pinned: key, served: other });
      expect(store.get("http://relay.test")?.relay_key).toBe(key);
      expect(store.forget("http://relay.test")).toBe(true);
      expect((await pinRelay(wellKnown(other), store)).firstUse).toBe(true);
    });
  });
});

describe("the head store", () => {
  it("keeps one head per relay key and table", async () => {
    const relay = await keyOf("relay");
    const store = new FileHeadStore(home());
    const head = await signHead(relay, { table: "t-459", seq: 3, link: "ab".repeat(32) });
    store.save(head);
    expect(store.load(relay.publicKeyText, "t-459")).toEqual(head);
    expect(store.load(relay.publicKeyText, "t-460")).toBeNull();
    expect(store.load("../../etc", "t-459")).toBeNull();
  });

  it("lists the tables it holds a head for at one relay, and nothing for a key that is not one", async () => {
    const relay = await keyOf("relay");
    const other = await keyOf("relay-2");
    const dir = home();
    const store = new FileHeadStore(dir);
    for (const table of ["t-b", "t-a"]) store.save(await signHead(relay, { table, seq: 1, link: "ab".repeat(32) }));
    store.save(await signHead(other, { table: "t-c", seq: 1, link: "ab".repeat(32) }));
    writeFileSync(join(dir, "heads", relay.publicKeyText, "NOT A TABLE.json"), "{}");
    expect(store.tables(relay.publicKeyText)).toEqual(["t-a", "t-b"]);
    expect(store.tables("../..")).toEqual([]);
    expect(store.tables((await keyOf("relay-3")).publicKeyText)).toEqual([]);
  });
});
