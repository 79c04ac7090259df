/**
 * The bot-only run limit (docs/SPEC.md §5.2) in a debate; broadcast and open are covered in
 * policy-floor.test.ts, pipeline, hub_spoke and delegation in their topology tests.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { TableConfig } from "../../../src/protocol/index.js";
import { cast, debateConfig, type Cast } from "../../support/table-fixture.js";
import { TestTable } from "./fixtures.js";
import { floorLog } from "./topology-fixtures.js";

let k: Cast;
beforeAll(async () => {
  k = await cast();
});

/** A debate with a human seat `h` (tao) outside the rotation and max_bot_depth 2. */
function deepDebate(): TableConfig {
  const config = debateConfig(k, { floor: { max_bot_depth: 2 } });
  return { ...config, seats: { ...config.seats, h: { owner: "tao", human: true } } };
}

describe("the bot-only run limit in a debate", () => {
  it("hands the floor to the human, then resumes pro and con", async () => {
    const t = await TestTable.open(deepDebate(), undefined, k);
    await t.say("bot-tao");
    expect(floorLog(await t.say("bot-jenny"))).toEqual([["h", "bot_depth"]]);
    expect(floorLog(await t.say("h", "stay on topic"))).toEqual([["bot-tao", "turn"]]);
  });

  it("resets on a human entry", async () => {
    const t = await TestTable.open(deepDebate(), undefined, k);
    await t.say("bot-tao");
    await t.say("h", "good point");
    expect(floorLog(await t.say("bot-jenny"))).toEqual([["bot-tao", "turn"]]);
  });

  it("closes the table when no human seat is present", async () => {
    const t = await TestTable.open(deepDebate(), ["bot-tao", "bot-jenny", "judge"], k);
    await t.say("bot-tao");
    expect(floorLog(await t.say("bot-jenny"))).toEqual([["closed", "bot_depth"]]);
  });
});
