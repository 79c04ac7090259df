/**
 * A client written from docs/SPEC.md alone, importing nothing from src/: its own base64url (§1),
 * JCS (§2), statements (§4.2), chain (§4.3) and heads (§4.4), SHA-256 and Ed25519 from WebCrypto,
 * raw fetch and a raw WebSocket. It creates a table, seats two owners' bots, writes over HTTP,
 * reads with the §6.2 header as a seat and as an owner, and opens a socket with the §6.3 answer,
 * checking every head's signature and every entry's leaf, link and author signature on the way.
 * Whatever it needed that the SPEC does not say would be a hole in the SPEC.
 */
import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";

const RELAY = "https://relay.test";
const encoder = new TextEncoder();
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

// §1: unpadded base64url; lowercase hex.
const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const unb64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text: string) => Uint8Array.from(text.match(/../g)!, (h) => parseInt(h, 16));
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
};

// §2: JCS in the profile: no whitespace, members sorted by UTF-16 code units, safe integers, JSON.stringify strings.
function jcs(value: Json): string {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`not a safe integer: ${value}`);
    return String(value === 0 ? 0 : value);
  }
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(",")}]`;
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${jcs(value[k]!)}`)
    .join(",")}}`;
}

const sha256 = async (bytes: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
const sha256Hex = async (value: Json) => hex(await sha256(encoder.encode(jcs(value))));
// §4.1: the signed bytes.
const signedBytes = (purpose: string, statement: Json) => encoder.encode(`trestle/0.1 ${purpose}\n${jcs(statement)}`);

/** An Ed25519 key made by WebCrypto. */
class Key {
  private constructor(
    private readonly secret: CryptoKey,
    readonly text: string,
  ) {}
  static async generate(): Promise<Key> {
    const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
    const raw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
    return new Key(pair.privateKey, b64url(raw));
  }
  async sign(purpose: string, statement: Json): Promise<string> {
    return b64url(new Uint8Array(await crypto.subtle.sign("Ed25519", this.secret, signedBytes(purpose, statement))));
  }
}

async function verify(keyText: string, purpose: string, statement: Json, sig: string): Promise<boolean> {
  const key = await crypto.subtle.importKey("raw", unb64url(keyText), { name: "Ed25519" }, false, ["verify"]);
  return crypto.subtle.verify("Ed25519", key, unb64url(sig), signedBytes(purpose, statement));
}

const nonce = () => b64url(crypto.getRandomValues(new Uint8Array(16)));

async function call(
  method: string,
  path: string,
  body?: Json,
  authorization?: string,
): Promise<{ status: number; body: Obj }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (authorization) headers.authorization = authorization;
  const res = await SELF.fetch(RELAY + path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Obj };
}

// §6.2: the read header.
async function readHeader(key: Key, table: string, as: Obj, path: string): Promise<string> {
  const statement: Obj = { scope: "http", table, as, method: "GET", path, ts: Date.now() };
  const sig = await key.sign("auth", statement);
  return `Trestle ${b64url(encoder.encode(jcs({ ...statement, sig })))}`;
}

/** Checks a head (§4.4, its shape §6.1) is signed by the pinned relay key. */
async function checkHead(head: Json, relayKey: string, table: string): Promise<Obj> {
  const { sig, ...statement } = head as Obj;
  expect(statement).toMatchObject({ relay: relayKey, table });
  expect(await verify(relayKey, "head", statement, sig as string)).toBe(true);
  return head as Obj;
}

/** Checks each entry's leaf and link (§4.3) from `prevLink`, and each authored entry's signature (§3.1, §4.2); returns the last link. */
async function checkChain(items: Json[], prevLink: string, seatKeys: Map<string, string>): Promise<string> {
  let link = prevLink;
  for (const item of items as Obj[]) {
    const { leaf, link: stored, ...content } = item;
    const computedLeaf = hex(await sha256(concat(Uint8Array.of(0), encoder.encode(jcs(content)))));
    link = hex(await sha256(concat(Uint8Array.of(1), unhex(link), unhex(computedLeaf))));
    expect([leaf, stored]).toEqual([computedLeaf, link]);
    if (item.kind === "say") {
      const { seq: _s, ts: _t, truncated, author, body, ...signed } = content;
      const body_sha256 =
        (truncated as Obj | undefined)?.body_sha256 ?? hex(await sha256(encoder.encode(body as string)));
      const { key, sig } = author as Obj;
      expect(key).toBe(seatKeys.get(item.seat as string));
      expect(await verify(key as string, "entry", { ...signed, body_sha256 }, sig as string)).toBe(true);
    }
  }
  return link;
}

it("creates a table, seats two bots, writes, reads and follows the socket, from the SPEC alone", async () => {
  const id = `indep-${Date.now().toString(36)}`;
  const [ann, bo, annBot, boBot] = await Promise.all([Key.generate(), Key.generate(), Key.generate(), Key.generate()]);
  const seatKeys = new Map([
    ["ann-bot", annBot.text],
    ["bo-bot", boBot.text],
  ]);

  // §4.5: pin the relay key.
  const wellKnown = await call("GET", "/.well-known/trestle.json");
  expect(wellKnown.body.protocol).toBe("trestle/0.1");
  const relayKey = wellKnown.body.relay_key as string;

  // §3.2, §4.2 create, §6.1 POST /tables.
  const config: Obj = {
    id,
    topic: "An independent client",
    owners: { ann: { public_key: ann.text }, bo: { public_key: bo.text } },
    seats: { "ann-bot": { owner: "ann" }, "bo-bot": { owner: "bo" } },
    topology: { kind: "open" },
    termination: { any: [{ max_entries: 100 }] },
  };
  const sig = await ann.sign("create", { table: id, config_sha256: await sha256Hex(config), owner: "ann" });
  const created = await call("POST", "/tables", { config, owner: "ann", sig });
  expect(created.status).toBe(201);
  await checkHead(created.body.head!, relayKey, id);

  // §4.2 join with a capability card.
  for (const [owner, key, seat, bot] of [
    ["ann", ann, "ann-bot", annBot],
    ["bo", bo, "bo-bot", boBot],
  ] as const) {
    const card: Obj = { summary: `${owner}'s bot`, role: "writer", skills: ["reading"], model: "any" };
    const join: Obj = {
      table: id,
      seat,
      owner,
      seat_key: bot.text,
      card_sha256: await sha256Hex(card),
      human: false,
      nonce: nonce(),
      expires: Date.now() + 60_000,
    };
    const joined = await call("POST", `/tables/${id}/join`, { join, card, sig: await key.sign("join", join) });
    expect(joined).toMatchObject({ status: 201, body: { seat } });
  }

  // §3.1, §4.2 entry statement: the submission with body replaced by body_sha256.
  const submission: Obj = {
    table: id,
    seat: "ann-bot",
    nonce: nonce(),
    kind: "say",
    body: "Hello from a client built from the SPEC.\nSecond line: é, 表, 😀.",
  };
  const { body, ...rest } = submission;
  const statement = { ...rest, body_sha256: hex(await sha256(encoder.encode(body as string))) };
  const written = await call("POST", `/tables/${id}/entries`, {
    submission,
    sig: await annBot.sign("entry", statement),
  });
  expect(written).toMatchObject({ status: 201, body: { truncated: false } });
  const seq = written.body.seq as number;
  await checkHead(written.body.head!, relayKey, id);

  // §6.2 reads, as a seat and as an owner; §6.1 from..to inclusive.
  const path = `/tables/${id}/entries?from=1&to=${seq}`;
  for (const [key, as] of [
    [boBot, { seat: "bo-bot" }],
    [ann, { owner: "ann" }],
  ] as const) {
    const read = await call("GET", path, undefined, await readHeader(key, id, as, path));
    expect(read.status).toBe(200);
    const items = read.body.items as Obj[];
    expect(items.map((e) => e.seq)).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
    expect(read.body.next).toBeNull();
    const link = await checkChain(items, "0".repeat(64), seatKeys);
    expect(await checkHead(read.body.head!, relayKey, id)).toMatchObject({ seq, link });
    expect(items.at(-1)).toMatchObject({ kind: "say", seat: "ann-bot", body: submission.body });
  }

  // §6.3: challenge, auth answer, welcome, catch-up, a submit and its push.
  const res = await SELF.fetch(`${RELAY}/tables/${id}/ws`, { headers: { upgrade: "websocket" } });
  const ws = (res as Response & { webSocket: WebSocket | null }).webSocket!;
  const frames: Obj[] = [];
  const waiters: [(f: Obj) => boolean, (f: Obj) => void][] = [];
  ws.addEventListener("message", (event) => {
    const frame = JSON.parse(String(event.data)) as Obj;
    frames.push(frame);
    for (const [test, resolve] of waiters) if (test(frame)) resolve(frame);
  });
  ws.accept();
  const next = (test: (f: Obj) => boolean) =>
    new Promise<Obj>((resolve) => (frames.find(test) ? resolve(frames.find(test)!) : waiters.push([test, resolve])));
  const challenge = await next((f) => f.type === "challenge");
  expect(challenge.table).toBe(id);
  const answer = await boBot.sign("auth", { scope: "ws", table: id, seat: "bo-bot", challenge: challenge.challenge! });
  ws.send(JSON.stringify({ type: "auth", seat: "bo-bot", sig: answer, cursor: 0 }));
  const welcome = await next((f) => f.type === "welcome");
  expect(welcome).toMatchObject({ seat: "bo-bot", cursor: 0 });
  await checkHead(welcome.head!, relayKey, id);

  const reply = { table: id, seat: "bo-bot", nonce: nonce(), kind: "say", body: "And a reply over the socket." };
  const { body: replyBody, ...replyRest } = reply;
  const replySig = await boBot.sign("entry", {
    ...replyRest,
    body_sha256: hex(await sha256(encoder.encode(replyBody))),
  });
  ws.send(JSON.stringify({ type: "submit", id: "r1", request: { submission: reply, sig: replySig } }));
  const ack = await next((f) => f.type === "ack" && f.id === "r1");
  expect(ack.seq).toBe(seq + 1);
  await next((f) => f.type === "entries" && (f.items as Obj[]).some((e) => e.seq === ack.seq));

  const pushed = frames.filter((f) => f.type === "entries").flatMap((f) => f.items as Obj[]);
  expect(pushed.map((e) => e.seq)).toEqual(Array.from({ length: seq + 1 }, (_, i) => i + 1));
  const link = await checkChain(pushed, "0".repeat(64), seatKeys);
  const last = frames.findLast((f) => f.type === "entries")!;
  expect((await checkHead(last.head!, relayKey, id)).link).toBe(link);
  ws.close();
});
