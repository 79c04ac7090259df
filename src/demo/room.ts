/**
 * The room scenario (`npm run demo -- room`, docs/ROOMS.md): a second-hand stroller. sara sells
 * (asks 3,600 TWD; private floor 2,400) and creates the room on her machine; ben buys (cap 3,000)
 * and joins from his by her invite link. Each owner signs a mandate for their seat; the scripted
 * seats negotiate through the owner-side guards: ben's seat tries to tell the seller its cap and
 * its own guard refuses before signing; the accept is held for ben, who approves it with
 * `trestle gate approve`; both owners sign the deal's final terms with their owner keys (`trestle
 * deal sign`) and sara closes with the deal at 2,800. Then the export is written and checked with
 * `trestle verify`, and the deal certificate with `trestle deal verify`, offline with only the
 * relay key. Returns what the checks need.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createKeyFile,
  openTable,
  ownerKeyPath,
  randomBytes,
  seatKeyPath,
  type LoadedKey,
  type TableClient,
} from "../client/node.js";
import { GuardedSeat, issueInvite, joinByInvite, roomConfigFor, type Sent } from "../owner/index.js";
import { dealStatus, isEntry, parseExport, toHex, TrestleError, type Terms } from "../protocol/index.js";
import { DemoError } from "./errors.js";
import { signSeatMandate } from "./owner-files.js";
import type { ScenarioOptions } from "./scenario-options.js";
import { shortPath } from "./paths.js";
import { ShownLedger } from "./shown-ledger.js";
import { trestleCli } from "./trestle-cli.js";
import type { Transcript } from "./transcript.js";

/** What the room scenario produced, for the checks. */
export interface RoomOutcome {
  table: string;
  /** The outcome the ledger records, and the terms of the offer it names. */
  outcome: string | null;
  deal: Terms | null;
  exportPath: string;
  exportText: string;
  verify: { code: number | null; stdout: string };
  /** The deal's status as the verified ledger folds it, and `trestle deal verify` on its certificate. */
  dealStatus: string | null;
  certificate: { code: number | null; stdout: string };
  /** The guard's refusal of ben's seat telling its cap, as ben's journal records it. */
  refused: { kind: string; reason: string } | null;
  /** Every way sara's floor and ben's cap could be written. */
  floor: string[];
  cap: string[];
}

const FLOOR = ["2400", "2,400", "240000"];
const CAP = ["3000", "3,000", "300000"];
const twd = (amount: number): Terms => ({ amount, currency: "TWD" });

/** One owner's machine: its trestle home, its owner key, and its seat writing through its guards. */
interface Side {
  home: string;
  owner: LoadedKey;
  seat: GuardedSeat;
  client: TableClient;
}

/** Plays the room; throws DemoError when a step the story needs does not happen. */
export async function playRoom(o: ScenarioOptions): Promise<RoomOutcome> {
  const t = o.transcript;
  const table = `r-stroller-${toHex(randomBytes(3))}`;
  const saraHome = join(o.work, "sara");
  const benHome = join(o.work, "ben");

  t.section("sara opens the room on her machine");
  const saraOwner = await createKeyFile(ownerKeyPath(saraHome, "sara"), "owner", "sara");
  const saraSeat = await createKeyFile(seatKeyPath(saraHome, "sara-bot"), "seat", "sara-bot");
  const saraClient = await openTable({ relay: o.relay.url, table, home: saraHome });
  if (saraClient.tracker.relayKey !== o.relay.relayKey)
    throw new DemoError(`the relay's key changed during the demo (pinned ${saraClient.tracker.relayKey})`);
  await saraClient.create(
    saraOwner.signer,
    "sara",
    roomConfigFor({
      id: table,
      topic: "A second-hand stroller",
      owner: "sara",
      ownerKey: saraOwner.signer.publicKeyText,
      maxParties: 1,
    }),
  );
  await saraClient.join(saraOwner.signer, {
    seat: "sara-bot",
    owner: "sara",
    seatKey: saraSeat.signer.publicKeyText,
    card: { summary: "sells sara's stroller" },
    expires: Date.now() + 600_000,
  });
  await signSeatMandate(saraHome, saraOwner, table, "sara-bot", {
    money: { currency: "TWD", cap: 400000, floor: 240000 },
    never_disclose: FLOOR,
  });
  t.say(
    'sara signs sara-bot\'s mandate: commit between 2,400.00 and 4,000.00 TWD, never write "2400" in any form (her private floor)',
  );
  const invite = await issueInvite(saraClient, saraOwner.signer, { ttlMs: 3_600_000 });
  t.say(`invite link (carries the relay key sara pinned): ${invite.link.replace(/code=[^&]+/, "code=XXXX-XXXX")}`);
  const sara: Side = {
    home: saraHome,
    owner: saraOwner,
    client: saraClient,
    seat: new GuardedSeat({ client: saraClient, seat: "sara-bot", signer: saraSeat.signer, home: saraHome }),
  };

  t.section("ben joins from his machine with the link");
  const benOwner = await createKeyFile(ownerKeyPath(benHome, "ben"), "owner", "ben");
  const benSeat = await createKeyFile(seatKeyPath(benHome, "ben-bot"), "seat", "ben-bot");
  const { client: benClient } = await joinByInvite({
    invite: invite.link,
    home: benHome,
    owner: "ben",
    ownerSigner: benOwner.signer,
    seat: "ben-bot",
    seatKey: benSeat.signer.publicKeyText,
    card: { summary: "buys a stroller for ben" },
    ttlMs: 600_000,
  });
  await signSeatMandate(benHome, benOwner, table, "ben-bot", {
    money: { currency: "TWD", cap: 300000 },
    never_disclose: CAP,
    require_confirm: ["accept"],
  });
  t.say(
    'ben signs ben-bot\'s mandate: commit at most 3,000.00 TWD, never write "3000" in any form, and every accept waits for him',
  );
  const ben: Side = {
    home: benHome,
    owner: benOwner,
    client: benClient,
    seat: new GuardedSeat({ client: benClient, seat: "ben-bot", signer: benSeat.signer, home: benHome }),
  };
  const bens = new ShownLedger(benClient, { signer: benOwner.signer, as: { owner: "ben" } });
  await bens.show(t);

  t.section("the negotiation (scripted seats, no model calls), each write through its owner's guards");
  const ask = await leafOf(
    sara,
    await sara.seat.send({
      kind: "offer",
      terms: { ...twd(360000), text: "stroller, folds flat, with the rain cover" },
      body: "Asking 3,600.",
    }),
  );
  ben.seat.rationale("The listing matches what ben wants; 2,500 leaves room under his cap.");
  const counter = await leafOf(
    ben,
    await ben.seat.send({ kind: "counter", offer: ask, terms: twd(250000), body: "Would you take 2,500?" }),
  );
  await bens.show(t);
  const refused = await attemptLeak(t, ben);
  sara.seat.rationale("2,800 is comfortably inside sara's mandate; hold there.");
  const final = await leafOf(
    sara,
    await sara.seat.send({
      kind: "counter",
      offer: counter,
      terms: twd(280000),
      body: "I can do 2,800, and that is final.",
    }),
  );
  await bens.show(t);

  t.section("ben's seat accepts; the gate holds it until ben approves on his machine");
  const hash = await heldAccept(ben, final);
  t.say(`held: message ${hash.slice(0, 12)}… (accept of 2,800.00 TWD), in ben's journal until he signs`);
  const trestle = trestleCli(o.root, benHome, o.relay.url);
  const approveArgs = ["gate", "approve", hash.slice(0, 12), "--table", table, "--seat", "ben-bot", "--owner", "ben"];
  const approved = await t.command(approveArgs, () => trestle(approveArgs));
  if (approved.code !== 0) throw new DemoError(`trestle gate approve exited ${approved.code}`);
  await ben.seat.sendHeld(hash);
  await ben.seat.tellOwner("Deal at 2,800.00 TWD, under your cap. Pick-up details to follow.");
  t.say('ben-bot told ben (his chat apps, through the relay; never the room): "Deal at 2,800.00 TWD …"');

  t.section("both owners sign the deal's final terms with their owner keys; until both have, it is pending");
  const saraCli = trestleCli(o.root, saraHome, o.relay.url);
  await signAs(t, trestle, "ben", table, final);
  const pendingArgs = ["deal", "show", final.slice(0, 12), "--table", table, "--owner", "sara"];
  await t.command(pendingArgs, () => saraCli(pendingArgs));
  await signAs(t, saraCli, "sara", table, final);
  await sara.seat.send({ kind: "close", outcome: "deal", offer: final, body: "Deal. Thank you!" });
  await bens.show(t);

  t.section("export, and the CLI's own verification");
  const { text } = await saraClient.exportLedger({ signer: saraOwner.signer, as: { owner: "sara" } });
  mkdirSync(o.outDir, { recursive: true });
  const exportPath = join(o.outDir, `${table}.jsonl`);
  writeFileSync(exportPath, text);
  t.say(`export (as owner sara, every entry): ${shortPath(exportPath)}`);
  const verifyArgs = ["verify", shortPath(exportPath)];
  const verified = await t.command(verifyArgs, () => saraCli(verifyArgs));
  const certificatePath = join(o.outDir, `${table}.deal.json`);
  const shownDeal = await saraCli(["deal", "show", final.slice(0, 12), "--table", table, "--owner", "sara", "--json"]);
  if (shownDeal.code !== 0) throw new DemoError(`trestle deal show exited ${shownDeal.code}`);
  writeFileSync(certificatePath, shownDeal.stdout);
  t.say(`deal certificate (trestle deal show --json, the export inside): ${shortPath(certificatePath)}`);
  const certificateArgs = ["deal", "verify", shortPath(certificatePath), "--relay-key", o.relay.relayKey];
  const certificate = await t.command(certificateArgs, () =>
    trestleCli(o.root, join(o.work, "anyone"), o.relay.url)(certificateArgs),
  );
  const room = (await sara.seat.transcript()).state?.room ?? null;
  const dealOffer = room?.outcome?.offer ? room.offers[room.outcome.offer] : undefined;
  return {
    table,
    outcome: room?.outcome?.outcome ?? null,
    deal: dealOffer?.terms ?? null,
    exportPath,
    exportText: text,
    verify: { code: verified.code, stdout: verified.stdout },
    dealStatus: room && Object.hasOwn(room.deals, final) ? dealStatus(room.deals[final]!) : null,
    certificate: { code: certificate.code, stdout: certificate.stdout },
    refused,
    floor: FLOOR,
    cap: CAP,
  };
}

/** `owner` signs the deal on `offer` with `trestle deal sign`, their seat recording it. */
async function signAs(
  t: Transcript,
  cli: ReturnType<typeof trestleCli>,
  owner: string,
  table: string,
  offer: string,
): Promise<void> {
  const args = ["deal", "sign", offer.slice(0, 12), "--table", table, "--seat", `${owner}-bot`, "--owner", owner];
  const signed = await t.command(args, () => cli(args));
  if (signed.code !== 0) throw new DemoError(`trestle deal sign as ${owner} exited ${signed.code}`);
}

/** The leaf hash of the entry a send wrote, from that side's verified transcript. */
async function leafOf(side: Side, sent: Sent): Promise<string> {
  const entry = (await side.seat.transcript()).entries.find((e) => e.seq === sent.seq);
  if (!entry) throw new DemoError(`entry #${sent.seq} is not in the verified transcript`);
  return entry.leaf;
}

/** ben's seat drafts a message naming its cap; its own guard must refuse it before signing. */
async function attemptLeak(t: Transcript, ben: Side): Promise<{ kind: string; reason: string } | null> {
  t.say('ben-bot drafts: "My cap is 3000, so meet me halfway?"');
  try {
    await ben.seat.send({ kind: "say", body: "My cap is 3000, so meet me halfway?" });
  } catch (error) {
    if (!(error instanceof TrestleError) || error.code !== "E_MANDATE") throw error;
    t.say(
      `  refused on ben's machine before signing: ${error.code} (${String(error.details?.reason)}); nothing reached the relay`,
    );
    const record = ben.seat.journal.ofType("refusal").at(-1);
    return record ? { kind: record.kind, reason: record.reason } : null;
  }
  throw new DemoError("ben's guard let the seat write its cap");
}

/** Sends ben's accept of `offer`, which his mandate holds; returns the held message's hash. */
async function heldAccept(ben: Side, offer: string): Promise<string> {
  try {
    await ben.seat.send({ kind: "accept", offer, body: "Deal at 2,800." });
  } catch (error) {
    if (error instanceof TrestleError && error.code === "E_HELD") return String(error.details?.message_sha256);
    throw error;
  }
  throw new DemoError("ben's accept was sent without his approval");
}

/** Every entry of an export with its random parts removed (ids, hashes, keys, signatures, nonces, times), for the leak checks. */
export function exportContent(text: string): string[] {
  const parsed = parseExport(text);
  if (!parsed.ok) return [text];
  return parsed.view.items
    .filter(isEntry)
    .map((entry) => JSON.stringify(entry, (key, value: unknown) => (RANDOM_FIELDS.has(key) ? undefined : value)));
}

/** Fields whose values are random or clock-made (a 4-digit run can appear in them by chance). */
const RANDOM_FIELDS: ReadonlySet<string> = new Set([
  "seq",
  "ts",
  "leaf",
  "link",
  "author",
  "nonce",
  "sig",
  "relay",
  "public_key",
  "seat_key",
  "owner_key",
  "owner_sig",
  "deal",
  "card_sha256",
  "config_sha256",
  "body_sha256",
  "expires",
  "invite",
  "replaces",
  "offer",
  "grant",
  "table",
  "id",
]);
