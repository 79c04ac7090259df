/**
 * The agent card is an A2A v1.0 AgentCard: checked with the official A2A JavaScript SDK
 * (@a2a-js/sdk, generated from the A2A protobuf definition), whose JSON codec drops any field A2A
 * does not define and coerces any value of the wrong type, so a round trip that changes nothing
 * means every field is A2A's, with A2A's type.
 */
import { AgentCard } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { agentCard } from "../../../worker/site/agent-card.js";
import pkg from "../../../package.json" with { type: "json" };

const card = JSON.parse(JSON.stringify(agentCard("https://relay.example")));

describe("the A2A agent card", () => {
  it("survives the A2A SDK's JSON codec unchanged", () => {
    const parsed: AgentCard = AgentCard.fromJSON(card);
    expect(AgentCard.toJSON(parsed)).toEqual(card);
  });

  it("has every field A2A v1.0 requires, an interface at this origin, and skills for seating a bot, reading and approving", () => {
    const parsed = AgentCard.fromJSON(card);
    expect(parsed.name && parsed.description).toBeTruthy();
    expect(parsed.version).toBe(pkg.version);
    expect(parsed.supportedInterfaces).toEqual([{ url: "https://relay.example", protocolBinding: "trestle/0.1", protocolVersion: "1.0", tenant: "" }]);
    expect(parsed.capabilities).toMatchObject({ streaming: false, pushNotifications: false });
    expect(parsed.defaultInputModes.length * parsed.defaultOutputModes.length).toBeGreaterThan(0);
    expect(parsed.skills.map((s) => s.id)).toEqual(["seat-a-bot", "read-a-table", "approve"]);
    for (const skill of parsed.skills) expect(skill.name && skill.description && skill.tags.length > 0).toBeTruthy();
  });

  describe("when a field is not A2A's or has the wrong type", () => {
    it("the round trip changes it, so the first check would fail", () => {
      for (const bad of [{ ...card, url: "https://relay.example" }, { ...card, version: 1 }, { ...card, skills: [{ ...card.skills[0], tags: "x" }] }]) {
        expect(AgentCard.toJSON(AgentCard.fromJSON(bad))).not.toEqual(bad);
      }
    });
  });
});
