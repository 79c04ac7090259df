/**
 * The arithmetic of the sealed-bid k-double auction (docs/SPEC.md §5.11), shared by the relay's
 * policy, every verifier and the bidder's own machine: the commitment a side publishes for its bid,
 * and the clearing price. Pure and exact: the commitment is a domain-separated SHA-256 over
 * canonical JSON, the price is computed in BigInt and rounded down.
 */
import { concatBytes, toHex, utf8 } from "../encoding/bytes.js";
import { canonicalBytes } from "../encoding/canonical.js";
import { PROTOCOL_LABEL } from "../signing/crypto.js";
import { sha256 } from "../encoding/hash.js";
import type { AuctionK, AuctionSide } from "../schemas/mechanism.js";

/** What a side's commitment covers: the room, the auction (its open entry's leaf), the side, the bid and its secret salt. */
export interface SealedBid {
  table: string;
  auction: string;
  side: AuctionSide;
  bid: number;
  salt: string;
}

/** SHA-256(utf8("trestle/0.1 bid\n") || JCS({ auction, bid, salt, side, table })) in hex: the commitment to `sealed`. */
export function bidCommitment(sealed: SealedBid): string {
  const { table, auction, side, bid, salt } = sealed;
  return toHex(
    sha256(concatBytes(utf8(`${PROTOCOL_LABEL} bid\n`), canonicalBytes({ table, auction, side, bid, salt }))),
  );
}

/**
 * The price of a k-double auction with buyer bid `b` and seller ask `s` (safe integers): null when
 * the bids do not cross (b < s), else s + floor(k.num * (b - s) / k.den), which lies in [s, b].
 */
export function clearingPrice(b: number, s: number, k: AuctionK): number | null {
  if (b < s) return null;
  const spread = (BigInt(k.num) * BigInt(b - s)) / BigInt(k.den);
  return s + Number(spread);
}
