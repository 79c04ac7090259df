/**
 * The shipped wrangler.toml and the operator limits (docs/SELF-HOST.md "Limits"): the edge binding
 * counts per minute at the limit the relay publishes for it, and every setting in `[vars]` is one the
 * relay can run with.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveOperatorLimits } from "../../../src/protocol/index.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const ConfigSchema = z.object({
  vars: z.record(z.string(), z.unknown()),
  ratelimits: z.array(z.object({ name: z.string(), simple: z.object({ limit: z.number(), period: z.number() }) })),
});

describe("wrangler.toml", () => {
  const config = ConfigSchema.parse(unstable_readConfig({ config: join(ROOT, "wrangler.toml") }));

  it("binds EDGE_READS per minute at the limit it publishes as edge_reads_per_min", () => {
    const binding = config.ratelimits.find((r) => r.name === "EDGE_READS");
    expect(binding?.simple.period).toBe(60);
    expect(binding?.simple.limit).toBe(resolveOperatorLimits((name) => config.vars[name]).edge_reads_per_min);
  });

  it("sets only settings the relay can run with", () => {
    expect(() => resolveOperatorLimits((name) => config.vars[name])).not.toThrow();
  });
});
