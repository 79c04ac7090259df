import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { chatBindings } from "./test/support/chat-env.js";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { bindings: await chatBindings(inject("fakeChatApi")) },
          })),
        ],
        test: { name: "workers", include: ["test/workers/**/*.test.ts"], globalSetup: ["test/support/fake-chat-global.ts"] },
      },
    ],
  },
});
