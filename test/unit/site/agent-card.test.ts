/**
 * The agent card is one card for both A2A generations (decision 0335): valid against the published
 * A2A v0.3.0 JSON schema (test/vectors/a2a-v0.3.0.json, checked with ajv), and an A2A v1.0
 * AgentCard for the official A2A JavaScript SDK (@a2a-js/sdk, generated from the v1.0 protobuf
 * definition), whose JSON codec drops any field v1.0 does not define and coerces any value of the
 * wrong type: a round trip that changes nothing but the three v0.3 fields means every other field
 * is v1.0's, with v1.0's type. From a running relay, the SDK's card resolver reads it as v1.0 with
 * or without its v0.3 compatibility, and its v0.3 reading finds the same interface.
 */
import { readFileSync } from "node:fs";
import { AgentCard } from "@a2a-js/sdk";
import { ClientFactory, DefaultAgentCardResolver } from "@a2a-js/sdk/client";
import { parseLegacyAgentCard } from "@a2a-js/sdk/compat/v0_3/client";
import { Ajv } from "ajv";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { agentCard } from "../../../worker/site/agent-card.js";
import pkg from "../../../package.json" with { type: "json" };
import { sharedRelay, type LocalRelay } from "../../support/local-relay.js";

const card = JSON.parse(JSON.stringify(agentCard("https://relay.example")));
const { url, preferredTransport, protocolVersion, ...v1 } = card;
const v03Schema = z
  .looseObject({ definitions: z.record(z.string(), z.unknown()) })
  .parse(JSON.parse(readFileSync(new URL("../../vectors/a2a-v0.3.0.json", import.meta.url), "utf8")));
const validV03 = new Ajv().compile({ ...v03Schema, $ref: "#/definitions/AgentCard" });
/** The schema's complaints about `value` as a v0.3 AgentCard; none when it is one. */
const v03Errors = (value: unknown) => (validV03(value) ? [] : validV03.errors);
let shared: LocalRelay | undefined;
beforeAll(async () => {
  shared = await sharedRelay();
}, 60_000);
const relay = (): LocalRelay => shared!;

describe("the A2A agent card", () => {
  it("is a valid AgentCard under the published A2A v0.3.0 JSON schema", () => {
    expect(v03Errors(card)).toEqual([]);
  });

  it("carries v0.3's main url, transport and protocol version for the same interface v1.0 lists", () => {
    expect({ url, preferredTransport, protocolVersion }).toEqual({
      url: "https://relay.example",
      preferredTransport: "trestle/0.1",
      protocolVersion: "0.3.0",
    });
    expect(v1.supportedInterfaces).toEqual([{ url, protocolBinding: preferredTransport, protocolVersion: "1.0" }]);
  });

  it("survives the A2A v1.0 SDK's JSON codec unchanged but for the three v0.3 fields", () => {
    expect(AgentCard.toJSON(AgentCard.fromJSON(card))).toEqual(v1);
  });

  it("has every field A2A v1.0 requires, an interface at this origin, and skills for seating a bot, reading and approving", () => {
    const parsed = AgentCard.fromJSON(card);
    expect(parsed.name && parsed.description).toBeTruthy();
    expect(parsed.version).toBe(pkg.version);
    expect(parsed.supportedInterfaces).toEqual([
      { url: "https://relay.example", protocolBinding: "trestle/0.1", protocolVersion: "1.0", tenant: "" },
    ]);
    expect(parsed.capabilities).toMatchObject({ streaming: false, pushNotifications: false });
    expect(parsed.defaultInputModes.length * parsed.defaultOutputModes.length).toBeGreaterThan(0);
    expect(parsed.skills.map((s) => s.id)).toEqual(["seat-a-bot", "read-a-table", "approve"]);
    for (const skill of parsed.skills) expect(skill.name && skill.description && skill.tags.length > 0).toBeTruthy();
  });

  describe("when a field is not A2A's or has the wrong type", () => {
    it("the v1.0 round trip changes it, and the v0.3 schema refuses a card without url or protocolVersion, so the checks above would fail", () => {
      for (const bad of [
        { ...v1, colour: "green" },
        { ...v1, version: 1 },
        { ...v1, skills: [{ ...v1.skills[0], tags: "x" }] },
      ]) {
        expect(AgentCard.toJSON(AgentCard.fromJSON(bad))).not.toEqual(bad);
      }
      for (const bad of [v1, { ...card, url: undefined }, { ...card, protocolVersion: 3 }])
        expect(v03Errors(JSON.parse(JSON.stringify(bad)))).not.toEqual([]);
    });
  });
});

// The first request to a freshly started relay starts its objects, which takes seconds on a busy machine.
describe("the card a running relay serves", { timeout: 20_000 }, () => {
  it("gives a v0.3 reading the same interface: the main url with the trestle transport", async () => {
    const raw: unknown = await (await fetch(`${relay().url}/.well-known/agent-card.json`)).json();
    expect(v03Errors(raw)).toEqual([]);
    expect(parseLegacyAgentCard(raw).supportedInterfaces).toEqual([
      { url: relay().url, protocolBinding: "trestle/0.1", tenant: "", protocolVersion: "0.3.0" },
    ]);
  });

  it("is read as v1.0 by the A2A SDK's card resolver, with or without its v0.3 compatibility, naming the trestle interface at the relay", async () => {
    for (const resolver of [
      new DefaultAgentCardResolver(),
      new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
    ]) {
      const resolved = await resolver.resolve(relay().url);
      expect(resolved.supportedInterfaces).toEqual([
        { url: relay().url, protocolBinding: "trestle/0.1", protocolVersion: "1.0" },
      ]);
      expect(resolved.skills.map((s) => s.id)).toEqual(["seat-a-bot", "read-a-table", "approve"]);
    }
  });

  it("leads an A2A client to no A2A transport: the relay speaks the trestle protocol, not A2A messages", async () => {
    await expect(new ClientFactory().createFromUrl(relay().url)).rejects.toThrow(/No compatible transport found/);
  });
});
