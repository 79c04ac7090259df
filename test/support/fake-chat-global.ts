/** Vitest globalSetup for the workers project: starts the fake chat APIs and provides their URL. */
import type { TestProject } from "vitest/node";
import { startFakeChatApi } from "./fake-chat-api.js";

declare module "vitest" {
  export interface ProvidedContext {
    fakeChatApi: string;
  }
}

/** Starts the fake; the returned function stops it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fake = await startFakeChatApi();
  project.provide("fakeChatApi", fake.url);
  // Hung requests (scripts with `hang`) are still open: close them, or close() would wait for them.
  return () =>
    new Promise<void>((resolve) => {
      fake.server.close(() => resolve());
      fake.server.closeAllConnections();
    });
}
