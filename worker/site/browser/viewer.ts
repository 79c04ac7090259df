/**
 * The public viewer (bundled to /assets/viewer.js by scripts/build-site.mjs): reads a public
 * table's export from this relay, verifies it here with the same protocol code the relay and every
 * client run (chain, signatures, heads against the relay key, policy replay), shows it, and follows
 * new entries on the table's public WebSocket, verifying again on every push; a socket the relay
 * refuses for good (a deleted table) stops it, saying why. Its live line says connecting until the
 * socket is open (live.ts). A public market's listings, matches and recorded deals are shown above
 * its entries, folded from what was verified (market.ts), after every verification and as time
 * passes (a listing expires). It only reads, only from this relay, and signs nothing.
 */
import { safeLine } from "../../../src/text/framing.js";
import { refusalOf } from "../../../src/client/refusal.js";
import { connectWire } from "../../../src/client/websocket.js";
import {
  isEntry,
  parseExport,
  ServerFrameSchema,
  verifyExport,
  verifyLedger,
  WellKnownSchema,
  type Entry,
  type HiddenEntry,
  type ServerFrame,
  type SignedHead,
  type VerifyOptions,
  type VerifyReport,
} from "../../../src/protocol/index.js";
import { byId, page, type ViewPage } from "./dom.js";
import { showLive } from "./live.js";
import { showMarket } from "./market.js";
import { verifiedBoard } from "./verified-board.js";
import { byId as windowById, theDocument } from "../../../src/page/dom.js";
import { refreshTimes } from "../../../src/page/time.js";
import { entryItem, topicLine, verdictText } from "./render.js";

/** The ledger as the page holds it, with the key it is checked against. */
interface Held {
  items: (Entry | HiddenEntry)[];
  heads: SignedHead[];
  originals: Map<number, string>;
  key: string;
  pinned: boolean;
  maxEntries: number | undefined;
  /** The latest verification's report (null before the first). */
  report: VerifyReport | null;
}

const RECONNECT_MS = [1000, 2000, 5000, 10_000, 30_000];

async function main(doc: ViewPage): Promise<void> {
  showLive(doc, { kind: "connecting" });
  const table = byId(doc, "viewer").getAttribute("data-table") ?? "";
  const known = WellKnownSchema.parse(await getJson("/.well-known/trestle.json"));
  const linked = /(?:^#|&)key=([A-Za-z0-9_-]{43})(?:&|$)/.exec(doc.location.hash)?.[1];
  const held: Held = {
    items: [],
    heads: [],
    originals: new Map(),
    key: linked ?? known.relay_key,
    pinned: linked !== undefined,
    maxEntries: known.limits.entries,
    report: null,
  };
  await load(doc, table, held);
  follow(doc, table, held, 0);
  // A listing's standing and every time's relative words follow the clock.
  setInterval(() => {
    if (held.report) showBoard(held, held.report);
    refreshTimes(theDocument());
  }, 30_000);
}

/** Reads the whole export again (the start, a gap, or a truncated entry whose original only the export carries). */
async function load(doc: ViewPage, table: string, held: Held): Promise<void> {
  const response = await fetch(`/tables/${encodeURIComponent(table)}/public/export`);
  const text = await response.text();
  if (!response.ok) throw new Error(errorMessage(text, response.status));
  const parsed = parseExport(text);
  if (!parsed.ok) return show(doc, held, await verifyExport(text, options(held)));
  held.items = [...parsed.view.items];
  held.heads = [...parsed.view.heads];
  held.originals = new Map(parsed.view.originals);
  byId(doc, "entries").replaceChildren(...held.items.filter(isEntry).map((e) => entryItem(doc, e)));
  const first = held.items[0];
  if (first && isEntry(first) && first.kind === "system" && first.subkind === "table_opened") {
    byId(doc, "topic").textContent = topicLine(first.data.config.topic);
    if (first.data.config.market) byId(doc, "kind").textContent = "public market";
  }
  await verifyAndShow(doc, held);
}

/** Verifies everything held (a hidden entry in a public export leaves the verdict INCONCLUSIVE). */
async function verifyAndShow(doc: ViewPage, held: Held): Promise<void> {
  show(
    doc,
    held,
    await verifyLedger({ items: held.items, heads: held.heads, originals: held.originals }, options(held)),
  );
}

function options(held: Held): VerifyOptions {
  return { relayKey: held.key, ...(held.maxEntries !== undefined ? { maxEntries: held.maxEntries } : {}) };
}

function show(doc: ViewPage, held: Held, report: VerifyReport): void {
  const { verdict, coverage, className } = verdictText(report, held.key, held.pinned);
  const line = byId(doc, "verdict");
  line.textContent = verdict;
  line.className = className;
  byId(doc, "coverage").textContent = coverage;
  held.report = report;
  showBoard(held, report);
}

/** A market's board, folded from what `report` verified of the held ledger (hidden for any other table). */
function showBoard(held: Held, report: VerifyReport): void {
  const doc = theDocument();
  const section = windowById(doc, "market");
  showMarket(doc, section, verifiedBoard(held.items, report, Date.now()), report);
  windowById(doc, "entries-title").hidden = section.hidden;
}

/** Follows the public socket from the newest held entry; reconnects after a drop, and stops at a refusal for good (a deleted table: E_TABLE_DELETED, 4410), saying why. */
function follow(doc: ViewPage, table: string, held: Held, attempt: number): void {
  showLive(doc, { kind: "connecting" });
  const scheme = doc.location.protocol === "https:" ? "wss" : "ws";
  const url = `${scheme}://${doc.location.host}/tables/${encodeURIComponent(table)}/public/ws?after=${held.items.length}`;
  let queue = Promise.resolve();
  let told: string | null = null;
  connectWire(url, {
    onMessage: (text) => {
      const frame = parseFrame(text);
      // An error frame without `id` is the relay's word on the close that follows (§6.3).
      if (frame?.type === "error" && frame.id === undefined)
        told = `${frame.error.code}: ${safeLine(frame.error.message, 500)}`;
      if (frame?.type === "entries")
        queue = queue.then(() => receive(doc, table, held, frame)).catch((error: unknown) => fail(doc, error));
    },
    onClose: (code, reason) => {
      const refused = refusalOf(code, reason, "this viewer");
      if (refused) return showLive(doc, { kind: "refused", why: told ?? `${refused.code}: ${refused.message}` });
      retry(doc, table, held, 0);
    },
  }).then(
    () => showLive(doc, { kind: "live" }),
    () => retry(doc, table, held, attempt),
  );
}

/** Says the socket is not connected and when it tries again (backing off with `attempt`), then does. */
function retry(doc: ViewPage, table: string, held: Held, attempt: number): void {
  const inMs = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]!;
  showLive(doc, { kind: "retrying", inMs });
  setTimeout(() => follow(doc, table, held, attempt + 1), inMs);
}

/** A frame from the relay, or null for one that is not JSON or not a server frame. */
function parseFrame(text: string): ServerFrame | null {
  try {
    const frame = ServerFrameSchema.safeParse(JSON.parse(text));
    return frame.success ? frame.data : null;
  } catch {
    return null;
  }
}

/** One pushed frame: new entries are appended in order and everything is verified again. */
async function receive(
  doc: ViewPage,
  table: string,
  held: Held,
  frame: Extract<ServerFrame, { type: "entries" }>,
): Promise<void> {
  const fresh = frame.items.filter((i) => i.seq > held.items.length);
  const gap = fresh[0] !== undefined && fresh[0].seq !== held.items.length + 1;
  if (gap || fresh.some((i) => isEntry(i) && "truncated" in i && i.truncated)) return load(doc, table, held);
  held.items.push(...fresh);
  held.heads = [...held.heads.slice(0, 1), frame.head];
  byId(doc, "entries").append(...fresh.filter(isEntry).map((e) => entryItem(doc, e)));
  await verifyAndShow(doc, held);
}

async function getJson(path: string): Promise<unknown> {
  const response = await fetch(path);
  const text = await response.text();
  if (!response.ok) throw new Error(errorMessage(text, response.status));
  return JSON.parse(text);
}

function errorMessage(text: string, status: number): string {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string") return `${body.error.code}: ${String(body.error.message)}`;
  } catch {
    // Not the relay's error envelope.
  }
  return `the relay answered ${status}`;
}

function fail(doc: ViewPage, error: unknown): void {
  const line = byId(doc, "verdict");
  line.textContent = `Cannot show this table: ${error instanceof Error ? error.message : String(error)}`;
  line.className = "verdict error";
}

const doc = page();
main(doc).catch((error: unknown) => {
  fail(doc, error);
  showLive(doc, { kind: "down" });
});
