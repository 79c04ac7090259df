/**
 * One process of the buyer's, for the allowance tests (test/unit/owner/allowance.test.ts), run from
 * its bundle: argv[2] is a JSON job. It says "ready" once it opened what it works on, waits for "go"
 * on stdin, then works and prints its outcome as one JSON line:
 * - `accept`: accepts the offer in the room through the owner-side guard;
 * - `crash`: reserves that accept in the allowance as the guard does, says "reserved", and waits,
 *   never signing, until the test kills it;
 * - `bid`: commits a sealed bid on a market's listing through the owner-side guard;
 * - `append`: adds `count` commitments to the allowance store, one change each;
 * - `die-locked`: is killed while it holds the allowance store's lock.
 */
import { readKeyFile, openTable, seatKeyPath } from "../../src/client/node.js";
import { randomNonce } from "../../src/client/random.js";
import {
  AllowanceStore,
  GuardedSeat,
  marketBidMessage,
  reserveAllowance,
  thisProcess,
  type AllowanceOwner,
} from "../../src/owner/index.js";
import { refuser } from "../../src/owner/guard-refusal.js";
import { canonicalSha256, parseOrThrow, SubmissionSchema, TrestleError } from "../../src/protocol/index.js";

/** A job in a room: accept an offer (or reserve the accept and die). */
type RoomJob = { mode: "accept" | "crash"; relay: string; home: string; room: string; seat: string; offer: string };
/** A job at a market: commit a sealed bid of `amount` on the listing at `listing`. */
type BidJob = {
  mode: "bid";
  relay: string;
  home: string;
  market: string;
  seat: string;
  listing: string;
  amount: number;
};
/** A job on the allowance store alone. */
type StoreJob = { mode: "append" | "die-locked"; home: string; store: AllowanceOwner; count: number };
/** What the test asks of this process. */
export type ChildJob = RoomJob | BidJob | StoreJob;

const onStore = (j: ChildJob): j is StoreJob => j.mode === "append" || j.mode === "die-locked";

const job = JSON.parse(process.argv[2]!) as ChildJob;
const go = async () => {
  process.stdout.write("ready\n");
  await new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
};
const done = (outcome: object) => {
  process.stdout.write(JSON.stringify(outcome) + "\n");
  process.exit(0);
};

if (onStore(job)) {
  const store = new AllowanceStore(job.home, job.store);
  await go();
  if (job.mode === "die-locked") {
    await store.update((commitments) => {
      process.kill(process.pid, "SIGKILL");
      return { commitments, result: null };
    });
  }
  for (let i = 0; i < job.count; i++) {
    const commitment = {
      room: job.store.market,
      seat: "ana-bot",
      kind: "offer",
      nonce: randomNonce(),
      message_sha256: "0".repeat(64),
      side: "seller" as const,
      amount: 0,
      state: "open" as const,
      process: thisProcess(),
      at: Date.now(),
    };
    await store.update((list) => ({ commitments: [...list, commitment], result: null }));
  }
  done({ ok: true, seq: 0 });
} else {
  const key = await readKeyFile(seatKeyPath(job.home, job.seat), "seat");
  const client = await openTable({
    relay: job.relay,
    table: job.mode === "bid" ? job.market : job.room,
    home: job.home,
  });
  const guard = new GuardedSeat({ client, seat: job.seat, signer: key.signer, home: job.home });
  await go();
  if (job.mode === "bid") {
    await outcome(async () => (await guard.send(await marketBidMessage(guard, job.listing, job.amount))).seq);
  } else if (job.mode === "crash") {
    const transcript = await guard.transcript();
    const mandate = await guard.mandate(transcript);
    if (!mandate.ok) throw new Error(mandate.message);
    const accept = parseOrThrow(
      SubmissionSchema,
      { kind: "accept", offer: job.offer, table: job.room, seat: job.seat, nonce: randomNonce() },
      "accept",
    );
    const hash = canonicalSha256(accept);
    const at = {
      home: job.home,
      seat: job.seat,
      table: job.room,
      journal: guard.journal,
      transcript,
      clock: () => Date.now(),
    };
    await reserveAllowance(
      mandate.mandate,
      accept,
      accept,
      hash,
      at,
      refuser(guard.journal, accept.kind, () => hash),
    );
    // Reserved and never signed: it waits here until the test kills it, as a crash would.
    process.stdout.write("reserved\n");
    setInterval(() => undefined, 60_000);
  } else {
    await outcome(async () => (await guard.send({ kind: "accept", offer: job.offer })).seq);
  }
}

/** Prints the entry `write` made, or the guard's or relay's refusal, as the outcome. */
async function outcome(write: () => Promise<number>): Promise<void> {
  try {
    done({ ok: true, seq: await write() });
  } catch (error) {
    if (!(error instanceof TrestleError)) throw error;
    done({ ok: false, code: error.code, reason: error.details?.reason, message: error.message });
  }
}
