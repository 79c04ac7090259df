/** The pure trestle protocol: schemas, canonical JSON, crypto, chain, policy, projection, verification. */
export * from "./encoding/bytes.js";
export * from "./encoding/canonical.js";
export * from "./ledger/chain.js";
export * from "./signing/crypto.js";
export * from "./requests/drafts.js";
export * from "./errors.js";
export * from "./ledger/export.js";
export * from "./encoding/hash.js";
export * from "./signing/head.js";
export * from "./encoding/inbound-json.js";
export * from "./limits/limits.js";
export * from "./limits/registry.js";
export * from "./reading/notifications.js";
export * from "./reading/projection.js";
export * from "./reading/projection-gateway.js";
export * from "./requests/requests.js";
export * from "./signing/statements.js";
export * from "./ledger/verify.js";
export * from "./ledger/entry-check.js";
export * from "./policy/admit.js";
export * from "./policy/apply.js";
export * from "./policy/config-check.js";
export * from "./policy/state.js";
export * from "./policy/pause.js";
export * from "./policy/seat-revoke.js";
export * from "./policy/tasks.js";
export * from "./policy/watchdog.js";
export * from "./schemas/approval.js";
export * from "./schemas/auth.js";
export * from "./schemas/card.js";
export * from "./schemas/config.js";
export * from "./schemas/control.js";
export * from "./schemas/create.js";
export * from "./schemas/entry.js";
export * from "./schemas/evidence.js";
export * from "./schemas/export.js";
export * from "./schemas/head.js";
export * from "./schemas/join.js";
export * from "./schemas/notify.js";
export * from "./schemas/owner.js";
export * from "./schemas/primitives.js";
export * from "./schemas/projection.js";
export * from "./schemas/task.js";
export * from "./schemas/topology.js";
export * from "./schemas/verify.js";
export * from "./schemas/responses.js";
export * from "./schemas/ws.js";
export * from "./encoding/text.js";
export * from "./encoding/records.js";
export * from "./schemas/subtable.js";
export * from "./schemas/visibility.js";
export * from "./signing/subtable-statements.js";
export * from "./requests/subtables.js";
export * from "./reading/visibility.js";
export * from "./policy/votes.js";
export * from "./policy/chat-approve.js";
export * from "./rooms/currencies.js";
export * from "./schemas/room.js";
export * from "./schemas/deal.js";
export * from "./policy/deals.js";
export * from "./policy/room-state.js";
export * from "./policy/room-live.js";
export * from "./policy/owners.js";
export * from "./policy/invites.js";
export { isRoomKind } from "./policy/kinds/registry.js";
export * from "./reading/projection-room.js";
export { searchListings } from "./reading/market-search.js";
export * from "./requests/room-requests.js";
export * from "./schemas/owner-ask.js";
export * from "./requests/owner-ask-requests.js";
export * from "./limits/operator-limits.js";
export * from "./limits/rate-limited.js";
export * from "./schemas/lifetime.js";
export * from "./rooms/auction.js";
export * from "./rooms/room-writes.js";
export * from "./signing/sealed-text.js";
export * from "./schemas/mechanism.js";
export * from "./policy/auctions.js";
export { isE2eRoom } from "./policy/sealed.js";
export { maxChars } from "./policy/admit-authored.js";
export * from "./signing/custody.js";
export * from "./ledger/replica-verify.js";
export * from "./ledger/replica-fork.js";
export * from "./schemas/custody.js";
export * from "./schemas/replica.js";
export * from "./schemas/revoke.js";
export { custodyElectorate, custodyNeeded } from "./policy/custody.js";
export * from "./tlog/base64.js";
export * from "./tlog/merkle.js";
export * from "./tlog/proofs.js";
export * from "./tlog/checkpoint.js";
export * from "./tlog/note.js";
export * from "./tlog/cosignature.js";
export * from "./tlog/tiles.js";
export * from "./tlog/witness.js";
export * from "./tlog/witness-logs.js";
export * from "./tlog/witness-judge.js";
export * from "./tlog/witness-service.js";
export * from "./schemas/market.js";
export * from "./schemas/market-group.js";
export * from "./schemas/match.js";
export * from "./schemas/listing-bid.js";
export * from "./policy/market/market-state.js";
export * from "./policy/market/listing-live.js";
export * from "./policy/market/listing-words.js";
export { pricesMeet } from "./policy/market/matching.js";
export {
  citeMatch,
  citedHead,
  citedMatch,
  matchRoomId,
  otherSide,
  MATCH_ROOM_PREFIX,
} from "./policy/market/citation.js";
export { dealQuantity, matchAt, matchSeatOf } from "./policy/market/recorded-deals.js";
export { isMarketKind } from "./policy/market/registry.js";
export { listingBidCommitment, type SealedListingBid } from "./policy/market/sealed-bids.js";
export {
  dueListingSettlements,
  listingSettledDraft,
  listingSettlement,
  sealedDeadline,
  sealedSettlesAt,
} from "./policy/market/sealed-settlement.js";
export * from "./signing/market.js";
export * from "./requests/group-requests.js";
