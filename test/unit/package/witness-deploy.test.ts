/**
 * The witness Worker deploys alone (decision 0399): `wrangler deploy --dry-run -c
 * wrangler.witness.toml` builds it without an account, it fits the Workers Free plan's 3 MB after
 * compression, and its one Durable Object class is a SQLite one its entry exports.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { compressedBytes, dryRunDeploy, kib } from "../../../scripts/worker-size.mjs";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

const WitnessConfigSchema = z.object({
  main: z.string(),
  migrations: z.array(z.object({ tag: z.string(), new_sqlite_classes: z.array(z.string()).optional() })),
  durable_objects: z.object({ bindings: z.array(z.object({ name: z.string(), class_name: z.string() })) }),
  vars: z.record(z.string(), z.unknown()),
});

let compressed: number;
beforeAll(async () => {
  compressed = compressedBytes(await dryRunDeploy("wrangler.witness.toml"));
  console.info(`Witness Worker bundle: ${compressed} bytes gzip (${kib(compressed)} KiB)`);
}, 120_000);

describe("the witness Worker", () => {
  it("builds for deployment and fits the free plan's Worker size limit after compression", () => {
    expect(compressed).toBeLessThan(3_000_000);
  });

  it("declares its one Durable Object in a SQLite migration, exports it, and names its settings", () => {
    const config = WitnessConfigSchema.parse(unstable_readConfig({ config: join(ROOT, "wrangler.witness.toml") }));
    expect(config.durable_objects.bindings).toEqual([{ name: "WITNESS", class_name: "WitnessDO" }]);
    expect(config.migrations).toEqual([{ tag: "v1", new_sqlite_classes: ["WitnessDO"] }]);
    expect(readFileSync(config.main, "utf8")).toMatch(/^export \{ WitnessDO \} from /m);
    expect(Object.keys(config.vars).sort()).toEqual(["WITNESS_LOGS", "WITNESS_NAME"]);
  });
});
