/**
 * Markets (docs/SPEC.md §5.15, docs/MARKETS.md, decision 0460): the `market` section of a config,
 * the listings members' seats sign (`listing`, `unlist`), the matches the relay computes, the
 * deals recorded back from rooms (with their terms when both owners allowed showing them), and the citation of a match a room opened from it carries.
 * Everything is flat and strict: amounts in minor units, no coercion, no unknown field.
 */
import * as z from "zod";
import { LIMITS } from "../limits/limits.js";
import {
  AuthoredFields,
  BodySchema,
  MillisSchema,
  OwnerNameSchema,
  PublicKeySchema,
  SeatNameSchema,
  SeqSchema,
  Sha256Schema,
  SignatureSchema,
  TableIdSchema,
} from "./primitives.js";
import { AmountSchema, CurrencySchema, EntryHashSchema } from "./room.js";
import { ChatPlatformSchema } from "./control.js";
import { MatchCitationSchema, MatchDataSchema } from "./match.js";
import { SignedHeadSchema } from "./head.js";
import { BidSubmissionSchema, SealedBidsSchema } from "./listing-bid.js";
import { DealTermsSchema } from "./deal.js";

/** A category's name: 1-32 of `[a-z0-9-]`, the first a letter or digit ("baby-gear", "books"). */
export const CategorySchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "category: 1-32 of [a-z0-9-], the first a letter or digit");
export type Category = z.infer<typeof CategorySchema>;

/**
 * `market` in a table config: the categories listings may use, how long a listing may live, how
 * many live listings one member may hold, and how many members the market admits in its life.
 */
export const MarketConfigSchema = z.strictObject({
  categories: z
    .array(CategorySchema)
    .min(1)
    .max(LIMITS.market_categories)
    .refine((c) => new Set(c).size === c.length, "categories must be distinct"),
  listing_ttl_ms: z.int().min(60_000).max(LIMITS.listing_ttl_max_ms),
  listings_per_member: z.int().min(1).max(LIMITS.listings_per_member),
  max_members: z.int().min(1).max(LIMITS.market_members).optional(),
});
export type MarketConfig = z.infer<typeof MarketConfigSchema>;

/** Whether a listing offers the item or wants it. */
export const ListingSideSchema = z.enum(["offer", "want"]);
export type ListingSide = z.infer<typeof ListingSideSchema>;

/** A listing's public price range in one currency: at least a `min` or a `max`, and `min` <= `max`. */
export const PriceRangeSchema = z
  .strictObject({ currency: CurrencySchema, min: AmountSchema.optional(), max: AmountSchema.optional() })
  .refine((p) => p.min !== undefined || p.max !== undefined, { message: "a price range has a min, a max or both" })
  .refine((p) => p.min === undefined || p.max === undefined || p.min <= p.max, {
    message: "min is at most max",
    path: ["min"],
  });
export type PriceRange = z.infer<typeof PriceRangeSchema>;

/** What a listing lists, whoever writes it (a seat's `listing`, a group's `system/group_listing`): side, title, text, category, quantity, public price, expiry. */
export const ListingTermsFields: {
  side: typeof ListingSideSchema;
  title: z.ZodString;
  text: z.ZodOptional<z.ZodString>;
  category: typeof CategorySchema;
  quantity: z.ZodInt;
  price: z.ZodOptional<z.ZodType<PriceRange>>;
  expires: typeof MillisSchema;
} = {
  side: ListingSideSchema,
  title: z.string().min(1).max(LIMITS.listing_title_chars),
  text: z.string().min(1).max(LIMITS.terms_text_chars).optional(),
  category: CategorySchema,
  quantity: z.int().min(1).max(LIMITS.listing_quantity),
  price: PriceRangeSchema.optional(),
  expires: MillisSchema,
};

/**
 * `listing`: an offer or a want. Without `price` the listing says "ask". With `supersedes` it is a
 * new version of the same owner's live listing, which it ends. With `sealed` an offer takes sealed
 * bids (listing-bid.ts): its `price` names their currency and its reserve (`min`), and it matches
 * nobody by words.
 */
export const ListingSubmissionSchema = z.strictObject({
  ...AuthoredFields,
  kind: z.literal("listing"),
  body: BodySchema.default(""),
  ...ListingTermsFields,
  supersedes: EntryHashSchema.optional(),
  sealed: SealedBidsSchema.optional(),
});

/** `unlist`: the listing's owner withdraws it (any seat of that owner). */
export const UnlistSubmissionSchema = z.strictObject({
  ...AuthoredFields,
  kind: z.literal("unlist"),
  body: BodySchema.default(""),
  listing: EntryHashSchema,
});

/** Every market kind's submission schema with one shape, in registry order; `bid` (BidSubmissionSchema) is told apart by `op`. */
export const MARKET_SUBMISSIONS = [ListingSubmissionSchema, UnlistSubmissionSchema] as const;

/** The market kinds: those MARKET_SUBMISSIONS writes, in its order, then `bid`. */
export const MarketKindSchema = z.enum([
  ...MARKET_SUBMISSIONS.map((schema) => schema.shape.kind.value),
  BidSubmissionSchema.options[0].shape.kind.value,
] as ["listing", "unlist", "bid"]);
export type MarketKind = z.infer<typeof MarketKindSchema>;

/** One owner's deal signature as a market records it: the owner, its key, and its signature (purpose `deal`). */
export const RecordedDealSignatureSchema = z.strictObject({
  owner: OwnerNameSchema,
  key: PublicKeySchema,
  sig: SignatureSchema,
});
export type RecordedDealSignature = z.infer<typeof RecordedDealSignatureSchema>;

/**
 * A recorded deal's shown price (decision 0529): the deal's terms, which hash to its `deal`, and
 * both owners' consents to show them (purpose `price`, over the market, the match and `deal`), by
 * the keys of the deal signatures in the same order.
 */
export const ShownPriceSchema = z.strictObject({
  terms: DealTermsSchema,
  consents: z.tuple([SignatureSchema, SignatureSchema]),
});
export type ShownPrice = z.infer<typeof ShownPriceSchema>;

/** Data of `system/deal_recorded`: the match (its seq), its room, the deal's terms hash and both owners' signatures of it (the offering side's first), the quantity it closes, and its terms when both owners let the market show them. */
export const DealRecordedDataSchema = z.strictObject({
  match: SeqSchema,
  room: TableIdSchema,
  deal: Sha256Schema,
  signatures: z.tuple([RecordedDealSignatureSchema, RecordedDealSignatureSchema]),
  /** 0 when deals on other matches already closed all either listing had. */
  quantity: z.int().min(0).max(LIMITS.listing_quantity),
  price: ShownPriceSchema.optional(),
});
export type DealRecordedData = z.infer<typeof DealRecordedDataSchema>;

/** POST /tables/:market/deals body: which room's deal to record (the relay reads the deal from the room). */
export const RecordDealRequestSchema = z.strictObject({ room: TableIdSchema });
export type RecordDealRequest = z.infer<typeof RecordDealRequestSchema>;

/** GET /tables/:market/listings query: a category, a side, words the title must all contain, an owner; only live listings are answered. */
export const ListingQuerySchema = z.strictObject({
  category: CategorySchema.optional(),
  side: ListingSideSchema.optional(),
  q: z.string().min(1).max(LIMITS.listing_title_chars).optional(),
  owner: OwnerNameSchema.optional(),
});
export type ListingQuery = z.infer<typeof ListingQuerySchema>;

/** One live listing as a search answers it: its entry (leaf, seq), owner and seat (or the platform of a group listing), what it lists, the quantity left, and when it expires. */
export const ListingViewSchema = z.strictObject({
  leaf: Sha256Schema,
  seq: SeqSchema,
  owner: OwnerNameSchema,
  /** The seat that signed it; absent for a listing a member posted from a chat group, which has `via` instead (relay-attested, unverified). */
  seat: SeatNameSchema.optional(),
  via: ChatPlatformSchema.optional(),
  side: ListingSideSchema,
  title: z.string(),
  text: z.string().optional(),
  category: CategorySchema,
  quantity: z.int().min(1),
  left: z.int().min(0),
  price: PriceRangeSchema.optional(),
  expires: MillisSchema,
  /** A listing that takes sealed bids: until when they are committed and revealed, and how many owners committed so far. */
  sealed: z.strictObject({ until: MillisSchema, reveal_until: MillisSchema, bids: z.int().min(0) }).optional(),
});
export type ListingView = z.infer<typeof ListingViewSchema>;

/** GET /tables/:market/listings answer: the newest matching live listings first, at most a page, and the head the reader may check them against. */
export const ListingsResponseSchema = z.strictObject({ items: z.array(ListingViewSchema), head: SignedHeadSchema });
export type ListingsResponse = z.infer<typeof ListingsResponseSchema>;

/** GET /tables/:market/matches/:seq answer: the match's citation (what its room's config carries), its room's id, and the seq of its recorded deal. */
export const MatchResponseSchema = z.strictObject({
  citation: MatchCitationSchema,
  room: TableIdSchema,
  deal: SeqSchema.nullable(),
});
export type MatchResponse = z.infer<typeof MatchResponseSchema>;

/** POST /tables/:market/deals answer: the seq of the deal_recorded entry (the first one, when the deal was recorded before) and a head over it. */
export const DealRecordResponseSchema = z.strictObject({ seq: SeqSchema, head: SignedHeadSchema });
export type DealRecordResponse = z.infer<typeof DealRecordResponseSchema>;
