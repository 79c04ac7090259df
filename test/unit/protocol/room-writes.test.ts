/**
 * The room kinds whose CLI verb and MCP tool are derived from their schema (src/protocol/rooms/
 * room-writes.ts, decision 0388): which fields each takes, and that the write built from them is
 * the kind's submission, field for field and in the order the hand-written verbs and tools built.
 */
import { describe, expect, it } from "vitest";
import {
  commonFields,
  commonWrite,
  parseOrThrow,
  RoomKindSchema,
  SubmissionSchema,
  isCommonKind,
  type CommonKind,
} from "../../../src/protocol/index.js";

const hash = "ab".repeat(32);
const terms = { amount: 280000, currency: "TWD" as const };
const envelope = { table: "room-writes", seat: "sara-bot", nonce: "n".repeat(22) };

describe("the room kinds written with common fields", () => {
  it("are offer, counter, accept, reject, withdraw and revoke, each taking what its schema requires", () => {
    const common = RoomKindSchema.options.filter(isCommonKind);
    expect(Object.fromEntries(common.map((k) => [k, commonFields(k)]))).toEqual({
      offer: { ref: null, terms: true, expires: true },
      counter: { ref: "offer", terms: true, expires: true },
      accept: { ref: "offer", terms: false, expires: false },
      reject: { ref: "offer", terms: false, expires: false },
      withdraw: { ref: "offer", terms: false, expires: false },
      revoke: { ref: "grant", terms: false, expires: false },
    });
  });

  it("build the kind's submission with its fields in the order the verbs and tools built them", () => {
    const built = (kind: CommonKind) => commonWrite(kind, { ref: hash, terms, expires: 1_900_000_000_000 });
    expect(built("offer")).toEqual({ kind: "offer", terms, expires: 1_900_000_000_000 });
    expect(Object.keys(built("counter"))).toEqual(["kind", "offer", "terms", "expires"]);
    expect(built("accept")).toEqual({ kind: "accept", offer: hash });
    expect(built("withdraw")).toEqual({ kind: "withdraw", offer: hash });
    expect(built("revoke")).toEqual({ kind: "revoke", grant: hash });
    for (const kind of RoomKindSchema.options.filter(isCommonKind)) {
      expect(parseOrThrow(SubmissionSchema, { ...built(kind), ...envelope }, kind).kind).toBe(kind);
    }
  });

  it("leave out an expiry that is not given", () => {
    expect(commonWrite("offer", { terms })).toEqual({ kind: "offer", terms });
  });
});
