/** The room scenario's checks fail loudly on a missing deal, a verify that is not CLEAN, no guard refusal, or the floor or cap anywhere in the ledger. */
import { describe, expect, it } from "vitest";
import { roomChecksOf } from "../../../src/demo/room-checks.js";
import type { RoomOutcome } from "../../../src/demo/room.js";
import { strollerExport as exported, twd } from "../../support/room-fixture.js";

async function good(): Promise<RoomOutcome> {
  return {
    table: "r-stroller",
    outcome: "deal",
    deal: twd(280000),
    exportPath: "/out/r-stroller.jsonl",
    exportText: await exported(),
    verify: { code: 0, stdout: "CLEAN  table r-stroller, 12 entries\n" },
    dealStatus: "done",
    certificate: { code: 0, stdout: "CLEAN: the certificate holds …\n" },
    refused: { kind: "say", reason: "disclose" },
    floor: ["2400", "2,400", "240000"],
    cap: ["3000", "3,000", "300000"],
  };
}

const failing = (outcome: RoomOutcome) =>
  roomChecksOf(outcome)
    .filter((c) => !c.ok)
    .map((c) => c.name);

describe("the room scenario's checks", () => {
  it("all hold for a deal at 2,800, a CLEAN verify, a refused leak and a ledger without floor or cap", async () => {
    expect(failing(await good())).toEqual([]);
  });

  it("skip the random fields (keys, hashes, times), where a 4-digit run appears by chance", async () => {
    const outcome = await good();
    const timesOnly = outcome.exportText.replace(/"ts":(\d+)/g, (_, ts: string) => `"ts":${ts.slice(0, -4)}2400`);
    expect(failing({ ...outcome, exportText: timesOnly })).not.toContain("floor_absent");
  });

  describe("when something is wrong", () => {
    it.each([
      ["no deal", { outcome: "no_deal" }, ["deal"]],
      ["a deal at another price", { deal: twd(300000) }, ["deal"]],
      ["verify is REFUTED", { verify: { code: 4, stdout: "REFUTED  table …\n" } }, ["verify_clean"]],
      ["the guard refused nothing", { refused: null }, ["guard_refused"]],
      ["one owner has not signed the deal", { dealStatus: "pending" }, ["deal_signed"]],
      ["the deal certificate does not verify", { certificate: { code: 4, stdout: "REFUTED: …\n" } }, ["deal_signed"]],
    ] as const)("fails when %s", async (_, change, names) => {
      expect(failing({ ...(await good()), ...change })).toEqual(names);
    });

    it("fails when the floor is in a body, in any case or spelling listed", async () => {
      expect(failing({ ...(await good()), exportText: await exported("fine, your floor was 2,400 anyway") })).toEqual([
        "floor_absent",
      ]);
    });

    it("fails when the cap is an amount in the ledger (300000 minor units)", async () => {
      expect(failing({ ...(await good()), exportText: await exported(undefined, 300000) })).toEqual(["cap_absent"]);
    });
  });
});
