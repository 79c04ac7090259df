/**
 * Relays keep checkpoints of the folded state (durable-objects/table/storage/checkpoint.ts) under the
 * STATE_VERSION of the policy that folded them. A change to the policy code could fold the same
 * entries differently, so it must come with a new STATE_VERSION (old checkpoints are then ignored):
 * this test notices a change to src/protocol/policy and asks for the bump.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256, STATE_VERSION, toHex, utf8 } from "../../../src/protocol/index.js";
import { REPO_ROOT, sourcePaths } from "../../support/source-tree.js";

const POLICY = join(REPO_ROOT, "src/protocol/policy");

/** The policy code each STATE_VERSION was recorded with (sha256 over its files, sorted by name; from 9 on, the files of its sub-folders too). */
const RECORDED: Record<number, string> = {
  1: "40d38f0641725068fa0046f05812218d822b9ae4a16f48101a7e9b875ea082b5",
  // Rooms (issue 13): room state and the room kinds fold into the state.
  2: "0b99df160054dfaeb12de4d5f20bf09c585b894b81ddd1155ab38b442eae6b65",
  // Sealed bids and e2e rooms (issue 17): auctions fold into the room state; sealed text is judged.
  3: "5063a3ff1c9a4ce47e179e0f8df9b72c996063e715cb90c1bb16c5bdde546c0f",
  // Custody (issue 17), merged after sealed bids: the relay holding the table moves with a custody entry (state.custody).
  4: "0ad62a85c744dd57b8411466088865ebe88aa621f6c9186774794bae35c9d648",
  // Pauses per owner and seat revocation (issue 22): state.pauses replaces state.paused (a resume lifts only its owner's pause);
  // revoked keys fold into the state (state.revoked) and a revoked name is seated again in place.
  5: "a703423b5d28f5ba80f901afa8c24db2a119fac8a1e27fbe91d0a9372e860fa4",
  // Ejecting a party (decision 0355): ejecting an invited party's seat makes every present seat of that owner leave.
  // Re-recorded for the same version after a refactor that folds nothing differently (decision 0380: the protocol
  // grouped by job, room liveness in room-live.ts, the gateway's exchanges.ts).
  6: "b870b748351218bb1d8178328c6115f296f92496466ff89ba6da1e552c2de33a",
  // Deals both owners sign (issue 25): an accept opens a deal (room.deals), deal_sign records each owner's signature,
  // and a deal's signature may land after the close with that deal.
  7: "d011e4d12ef396fcc6bf2450802798efc8f4c912e4b714961a50c829f42ad712",
  // Deals from auctions (issue 25, decision 0421): an auction that settles with a deal opens a deal between the seller's and
  // the buyer's owners at the clearing price (room.deals by the auction's leaf), which deal_sign signs like an accepted offer's.
  8: "863843d9453c76cf3d287f6f316e70144c182ce683b7f45f6d358aed4c7947b2",
  // Markets (issue 35, decision 0460): listings, matches and recorded deals fold into state.market, a market admits members
  // as a room admits parties (invites bound to a key), and a match's room admits the match's other side. From this version on
  // the fingerprint covers the policy's sub-folders too (kinds/, topologies/, market/).
  9: "6a28ca2966130e4ec663b568caa19f9461a99f81544a0937b65e651cae308cf5",
  // Sealed bids on a listing (issue 35, decision 0469): a listing's sealed bids, their settlement and a sale's match fold into
  // state.market (listing.sealed, market.sealed, match.sale); a sealed listing leaves the matching index.
  10: "1212beb9d2aaaee98e3023606fa3e826249677a02df4c2e3a67f5e7725b756eb",
  // A market's chat groups (issue 37, decision 0500): group_bound and group_unbound fold into market.groups; a listing a
  // member posted from a bound group (group_listing, no seat, its `via`) is live and matched like a seat's, and group_unlist withdraws it.
  // Re-recorded for the same version, three times: a new version of a sealed listing holding a committed bid must keep its sealed
  // terms (decision 0527), a check on new drafts that folds no admitted entry differently; a deal's price shown with both owners'
  // consents (decision 0529), an optional field set only from new data; and two loop bounds in rotation.ts and delegation.ts
  // renamed (guard → step, hops). And once more for Prettier's layout of the policy files (decision 0540): the text, not the fold.
  11: "956a59ab07a9b793d58b84c7d9c9617b3b5ce28b18f3e1a5d7869cb95bf59aef",
};

/** Every .ts file under the policy folder, its sub-folders included (kinds/, topologies/, market/), by path from it. */
function policyFiles(): string[] {
  return sourcePaths(["src/protocol/policy"]).map((path) => path.slice("src/protocol/policy/".length));
}

function fingerprint(): string {
  return toHex(
    sha256(
      utf8(
        policyFiles()
          .map((name) => `${name}\n${readFileSync(join(POLICY, name), "utf8")}`)
          .join("\n"),
      ),
    ),
  );
}

describe("the policy's STATE_VERSION", () => {
  it("was bumped with the last change to src/protocol/policy", () => {
    expect(
      fingerprint(),
      `src/protocol/policy changed: if it can fold any ledger differently, bump STATE_VERSION (src/protocol/policy/state.ts) to ${STATE_VERSION + 1} and record this fingerprint for it here; if it cannot (a refactor, a comment), record it for ${STATE_VERSION}`,
    ).toBe(RECORDED[STATE_VERSION]);
  });
});
