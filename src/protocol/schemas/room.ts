/**
 * Rooms (docs/SPEC.md §5.10, docs/ROOMS.md): the room section of a config, the typed commitments
 * seats sign (offer, counter, accept, reject, withdraw, grant, revoke, close, deal_sign), the creator's
 * invite and eject statements, and the invite routes' bodies. Terms are flat and strict: an
 * amount is a safe integer in minor units with its ISO 4217 currency; nothing nested, nothing
 * coerced, no unknown field.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import {
  AuthoredFields,
  BodySchema,
  InviteIdSchema,
  MillisSchema,
  NonceSchema,
  OwnerNameSchema,
  PublicKeySchema,
  SeatNameSchema,
  SeqSchema,
  Sha256Schema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";
import { SignedHeadSchema } from "./head.js";
import { CapabilityCardSchema } from "./card.js";
import { JoinStatementSchema } from "./join.js";
import { ownerText } from "./owner-ask.js";
import { MatchCitationSchema } from "./match.js";
import { AmountSchema, CurrencySchema } from "./money.js";

export { AmountSchema, CurrencySchema, type Currency } from "./money.js";

/**
 * `room` in a table config: the table is a room (topology `open`, no declared seats); `max_parties`
 * caps invited owners; `e2e: true` makes it end-to-end encrypted (§5.12: only sealed text is admitted);
 * `match` makes it the room of a market's match (§5.15), which the other side of the match joins.
 */
export const RoomConfigSchema = z.strictObject({
  max_parties: z.int().min(1).max(LIMITS.owners).optional(),
  e2e: z.literal(true).optional(),
  match: MatchCitationSchema.optional(),
});
export type RoomConfig = z.infer<typeof RoomConfigSchema>;

/** Terms of an offer: flat; `amount` and `currency` go together; at least an amount or a text. */
export const TermsSchema = z
  .strictObject({
    amount: AmountSchema.optional(),
    currency: CurrencySchema.optional(),
    text: z.string().min(1).max(LIMITS.terms_text_chars).optional(),
  })
  .refine((t) => (t.amount === undefined) === (t.currency === undefined), {
    message: "amount and currency go together",
    path: ["currency"],
  })
  .refine((t) => t.amount !== undefined || t.text !== undefined, {
    message: "terms need an amount with its currency, or a text",
  });
export type Terms = z.infer<typeof TermsSchema>;

/** An offer, counter or grant is named by its entry's leaf hash. */
export const EntryHashSchema = Sha256Schema;

/** A grant scope's pattern (docs/SPEC.md §3.1, §5.10): 1-64 of `[a-z0-9_.:/-]`, the first a lowercase letter or digit. */
export const GRANT_SCOPE = /^[a-z0-9][a-z0-9_.:/-]{0,63}$/;

/** A grant's scope: what it lets the grantee do, a label the parties agree on (the relay checks only its pattern). */
export const GrantScopeSchema = z
  .string()
  .regex(GRANT_SCOPE, "scope: 1-64 of [a-z0-9_.:/-], the first a lowercase letter or digit");

/** How a room ended. */
export const RoomOutcomeSchema = z.enum(["deal", "no_deal"]);
export type RoomOutcome = z.infer<typeof RoomOutcomeSchema>;

const Room = { ...AuthoredFields, body: BodySchema.default("") };

/** `offer`: terms this seat's owner is bound to if another party accepts while it is live. */
export const OfferSubmissionSchema = z.strictObject({
  ...Room,
  kind: z.literal("offer"),
  terms: TermsSchema,
  expires: MillisSchema.optional(),
});

/** `counter`: ends the live offer `offer` (another party's) and makes these terms the live offer. */
export const CounterSubmissionSchema = z.strictObject({
  ...Room,
  kind: z.literal("counter"),
  offer: EntryHashSchema,
  terms: TermsSchema,
  expires: MillisSchema.optional(),
});

/** `accept`: agrees to another party's live offer; its terms are the offer's (restating others is E_TERMS_MISMATCH). */
export const AcceptSubmissionSchema = z.strictObject({
  ...Room,
  kind: z.literal("accept"),
  offer: EntryHashSchema,
  terms: TermsSchema.optional(),
});

/** `reject`: turns down another party's live offer. */
export const RejectSubmissionSchema = z.strictObject({ ...Room, kind: z.literal("reject"), offer: EntryHashSchema });

/** `withdraw`: the offer's author takes back its own live offer. */
export const WithdrawSubmissionSchema = z.strictObject({
  ...Room,
  kind: z.literal("withdraw"),
  offer: EntryHashSchema,
});

/** `grant`: lets seat `grantee` act within `scope` until `expires`, unless revoked first. */
export const GrantSubmissionSchema = z.strictObject({
  ...Room,
  kind: z.literal("grant"),
  grantee: SeatNameSchema,
  scope: GrantScopeSchema,
  expires: MillisSchema,
});

/** `revoke`: the grantor ends its own live grant. */
export const RevokeSubmissionSchema = z.strictObject({ ...Room, kind: z.literal("revoke"), grant: EntryHashSchema });

/** `close`: ends the room with its outcome; a deal names the accepted offer, or the auction that settled with a deal (§5.11). */
export const CloseSubmissionSchema = z.strictObject({
  ...Room,
  kind: z.literal("close"),
  outcome: RoomOutcomeSchema,
  offer: EntryHashSchema.optional(),
  auction: EntryHashSchema.optional(),
});

/** In a match room's `deal_sign`: the owner also allows the market to show the deal's terms, signing (purpose `price`, by `owner_key`) the market, the match and the deal's hash (decision 0529). */
export const ShowPriceSchema = z.strictObject({ market: TableIdSchema, match: SeqSchema, sig: SignatureSchema });
export type ShowPrice = z.infer<typeof ShowPriceSchema>;

/** `deal_sign`: the seat's owner signed (`owner_sig`, purpose `deal`, by `owner_key`) the final terms of the deal on accepted offer `offer`, whose hash is `deal`; in a match room, with `show_price` when that owner lets the market show them. */
export const DealSignSubmissionSchema = z.strictObject({
  ...Room,
  kind: z.literal("deal_sign"),
  offer: EntryHashSchema,
  deal: Sha256Schema,
  owner_key: PublicKeySchema,
  owner_sig: SignatureSchema,
  show_price: ShowPriceSchema.optional(),
});

/** Every room kind's submission schema, in registry order (a new kind's schema goes here; docs/ROOMS.md "Adding a room kind"). */
export const ROOM_SUBMISSIONS = [
  OfferSubmissionSchema,
  CounterSubmissionSchema,
  AcceptSubmissionSchema,
  RejectSubmissionSchema,
  WithdrawSubmissionSchema,
  GrantSubmissionSchema,
  RevokeSubmissionSchema,
  CloseSubmissionSchema,
  DealSignSubmissionSchema,
] as const;

/** The room kinds: those ROOM_SUBMISSIONS writes, in its order, then `mechanism` (the sealed-bid auction, §5.11; its schemas are in mechanism.ts). */
export const RoomKindSchema = z.enum([...ROOM_SUBMISSIONS.map((schema) => schema.shape.kind.value), "mechanism"]);
export type RoomKind = z.infer<typeof RoomKindSchema>;

/** What the creator signs (purpose `room`) to issue an invite, rotating `replaces` if given; with `owner_key`, only that key may use it, and it needs no code (§5.15). */
export const InviteStatementSchema = z.strictObject({
  scope: z.literal("invite"),
  table: TableIdSchema,
  invite: InviteIdSchema,
  expires: MillisSchema,
  replaces: InviteIdSchema.optional(),
  owner_key: PublicKeySchema.optional(),
});
export type InviteStatement = z.infer<typeof InviteStatementSchema>;

/** Data of `system/invite_issued`: the creator's statement without scope and table, plus who signed it. */
export const InviteDataSchema = z.strictObject({
  invite: InviteIdSchema,
  expires: MillisSchema,
  replaces: InviteIdSchema.optional(),
  owner_key: PublicKeySchema.optional(),
  by: OwnerNameSchema,
});

/** What the creator signs (purpose `room`) to eject a seat. */
export const EjectStatementSchema = z.strictObject({
  scope: z.literal("eject"),
  table: TableIdSchema,
  seat: SeatNameSchema,
  nonce: NonceSchema,
});
export type EjectStatement = z.infer<typeof EjectStatementSchema>;

/** Data of `system/seat_ejected`. */
export const EjectDataSchema = z.strictObject({ seat: SeatNameSchema, by: OwnerNameSchema, nonce: NonceSchema });

/** POST /tables/:id/invites body. */
export const InviteRequestSchema = z.strictObject({ statement: InviteStatementSchema, sig: SignatureSchema });
export type InviteRequest = z.infer<typeof InviteRequestSchema>;

/** POST /tables/:id/eject body. */
export const EjectRequestSchema = z.strictObject({ statement: EjectStatementSchema, sig: SignatureSchema });
export type EjectRequest = z.infer<typeof EjectRequestSchema>;

/** The short code that points at an invite: 8 of `ABCDEFGHJKLMNPQRSTUVWXYZ23456789`, shown `XXXX-XXXX`. */
export const InviteCodeSchema = z.string().regex(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/, "invite code: XXXX-XXXX");

/** A typed code in canonical form (case, spaces and the hyphen forgiven), or null when it cannot be one. */
export function normalizeInviteCode(typed: string): string | null {
  const compact = typed.toUpperCase().replace(/[\s-]/g, "");
  const code = `${compact.slice(0, 4)}-${compact.slice(4)}`;
  return compact.length === 8 && InviteCodeSchema.safeParse(code).success ? code : null;
}

/** 201 answer to an invite: the code (shown once, kept by the relay until used or replaced) and the entry. */
export const InviteResponseSchema = z.strictObject({
  invite: InviteIdSchema,
  code: InviteCodeSchema,
  expires: MillisSchema,
  seq: SeqSchema,
  head: SignedHeadSchema,
});
export type InviteResponse = z.infer<typeof InviteResponseSchema>;

/** POST /invites/lookup body: which room a code opens (guesses are counted). */
export const InviteLookupRequestSchema = z.strictObject({ code: z.string().max(32) });

/** POST /invites/join body: a join statement naming the invite (and the joiner's own key), signed by that key, with the code. */
export const InviteJoinRequestSchema = z.strictObject({
  code: z.string().max(32),
  join: JoinStatementSchema,
  card: CapabilityCardSchema,
  sig: SignatureSchema,
});
export type InviteJoinRequest = z.infer<typeof InviteJoinRequestSchema>;

/** POST /invites/lookup answer. */
export const InviteLookupResponseSchema = z.strictObject({
  table: TableIdSchema,
  invite: InviteIdSchema,
  expires: MillisSchema,
});
export type InviteLookupResponse = z.infer<typeof InviteLookupResponseSchema>;

/**
 * A note that tells the owner its gate holds a message (§11.3 room news): the held message's kind,
 * its hash (what `trestle gate approve` names) and, outside an e2e room, the terms it binds.
 */
export const HeldNoticeSchema = z.strictObject({
  kind: z.string().regex(/^[a-z][a-z_]{0,31}$/, "kind: 1-32 of [a-z_]"),
  message_sha256: Sha256Schema,
  terms: TermsSchema.optional(),
});
export type HeldNotice = z.infer<typeof HeldNoticeSchema>;

/** A seat's note as a table takes it; `sealed`: an e2e room's, whose text may be sealed. */
function noteStatement(sealed: boolean) {
  return z.strictObject({
    scope: z.literal("owner_note"),
    table: TableIdSchema,
    seat: SeatNameSchema,
    /** At most LIMITS.note_chars, or in an e2e room that much sealed (§5.12); longer is E_TOO_LARGE, as for every published limit. */
    text: ownerText(LIMITS.note_chars, "a note", sealed),
    held: HeldNoticeSchema.optional(),
    nonce: NonceSchema,
    ts: MillisSchema,
  });
}

/** What a seat signs (purpose `note`) to tell its owner something through the owner's chat apps, never the room; `held` when it tells of a held message. */
export const NoteStatementSchema = noteStatement(true);
export type NoteStatement = z.infer<typeof NoteStatementSchema>;

/** POST /tables/:id/notes body. */
export const NoteRequestSchema = z.strictObject({ note: NoteStatementSchema, sig: SignatureSchema });
export type NoteRequest = z.infer<typeof NoteRequestSchema>;

const PLAIN_NOTE_REQUEST = z.strictObject({ note: noteStatement(false), sig: SignatureSchema });

/** POST /tables/:id/notes body as a table takes it (decision 0448): sealed text's larger allowance only when `e2e`. */
export function noteRequestFor(e2e: boolean): z.ZodType<NoteRequest> {
  return e2e ? NoteRequestSchema : PLAIN_NOTE_REQUEST;
}

/** POST /tables/:id/notes answer: the notification id and how many of the owner's channels it was queued for. */
export const NoteResponseSchema = z.strictObject({ id: z.string(), queued: z.int().min(0) });
export type NoteResponse = z.infer<typeof NoteResponseSchema>;
