/**
 * What goes into the public viewer's script (/assets/viewer.js): zod's code for the schemas the
 * protocol uses, but none of its translations, which only a namespace import lets the bundler
 * drop (every file of src/protocol and src/client imports `* as z from "zod"`).
 */
import { describe, expect, it } from "vitest";
import { viewerBundle } from "../../../scripts/viewer-size.mjs";

describe("the public viewer's script", () => {
  it("carries zod's English messages and none of its other locales", async () => {
    const { inputs } = await viewerBundle();
    const locales = Object.keys(inputs)
      .filter((file) => file.includes("/zod/v4/locales/"))
      .map((file) => file.replace(/.*\/zod\/v4\/locales\//, ""));
    expect(locales).toEqual(["en.js"]);
  });
});
