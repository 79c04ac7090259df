/**
 * Configs for the pipeline, hub_spoke and delegation topologies (the cast's owners tao, jenny and
 * ops), each with a human seat `h` outside the topology, plus helpers that read floor moves.
 */
import type { Entry, TableConfig } from "../../../src/protocol/index.js";
import { castOwners, type Cast } from "../../support/table-fixture.js";
import type { TestTable } from "./fixtures.js";

/** A three-stage pipeline draft -> review -> edit, one pass; `obs` is a bot outside the stages. */
export function pipelineConfig(k: Cast, overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    id: "t-pipeline",
    topic: "Release notes for 0.2",
    owners: castOwners(k),
    seats: {
      draft: { owner: "tao" },
      review: { owner: "jenny" },
      edit: { owner: "ops" },
      obs: { owner: "jenny" },
      h: { owner: "tao", human: true },
    },
    topology: { kind: "pipeline", stages: ["draft", "review", "edit"] },
    termination: { any: ["decision", "rounds_exhausted"] },
    ...overrides,
  };
}

/** A hub `mod` with spokes a, b, c, for two rounds. */
export function hubConfig(k: Cast, overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    id: "t-hub",
    topic: "Triage the incident",
    owners: castOwners(k),
    seats: {
      mod: { owner: "ops" },
      a: { owner: "tao" },
      b: { owner: "jenny" },
      c: { owner: "ops" },
      h: { owner: "tao", human: true },
    },
    topology: { kind: "hub_spoke", hub: "mod", spokes: ["a", "b", "c"], rounds: 2 },
    termination: { any: ["decision", "rounds_exhausted"] },
    ...overrides,
  };
}

/** Reporting lines: lead -> m1, m2; m1 -> w1, w2; m2 -> w3. */
export function delegationConfig(k: Cast, overrides: Partial<TableConfig> = {}): TableConfig {
  return {
    id: "t-delegation",
    topic: "Ship the migration",
    owners: castOwners(k),
    seats: {
      lead: { owner: "ops" },
      m1: { owner: "tao" },
      m2: { owner: "jenny" },
      w1: { owner: "tao" },
      w2: { owner: "tao" },
      w3: { owner: "jenny" },
      h: { owner: "ops", human: true },
    },
    topology: { kind: "delegation", lead: "lead", reports: { lead: ["m1", "m2"], m1: ["w1", "w2"], m2: ["w3"] } },
    termination: { any: ["decision", { max_entries: 100 }] },
    ...overrides,
  };
}

/** The floor moves and closings among `entries` as [holder, reason] or ["closed", reason]. */
export function floorLog(entries: readonly Entry[]): [string | null, string][] {
  return entries.flatMap((e): [string | null, string][] => {
    if (e.kind !== "system") return [];
    if (e.subkind === "floor") return [[e.data.holder, e.data.reason]];
    if (e.subkind === "table_closed") return [["closed", e.data.reason]];
    return [];
  });
}

/** The ledger head and folded state as text, to show a refusal changed nothing. */
export function snapshot(t: TestTable): string {
  return `${t.l.entries.length}:${JSON.stringify(t.state)}`;
}
