/**
 * How many files a new chat platform touches (issue 24; docs/CHAT-APPS.md "Adding a platform"):
 * every source file is read with its comments removed, and a file names a platform when it has the
 * platform's id in quotes, its name as people write it, its settings prefix, or imports its module.
 * Only the protocol's list, the registry and the platform's own module may; everything else goes
 * through the registry, so a fourth platform touches those three files and the compiler flags the rest.
 */
import { describe, expect, it } from "vitest";
import { CHAT_PLATFORM_NAMES, ChatPlatformSchema, type ChatPlatform } from "../../../src/protocol/index.js";
import { sourceFiles } from "../../support/source-tree.js";

/** The list of platforms, and the registry typed against it. */
const SHARED = ["src/protocol/schemas/control.ts", "src/chat/platforms/index.ts"];

/** Files that name one platform for history, not as a list a new platform joins (each with its reason). */
const HISTORY: Record<string, string> = {
  "durable-objects/chat-directory/directory.ts":
    "a migration names the platform whose deferred events were queued before the queue was every platform's (decision 0360)",
};

/**
 * The market demo's loopback stand-in for the chat apps (each one's API paths and webhook signature)
 * and the groups it plays, one per platform: demo code nothing of the relay reads. A new platform
 * plays in the demo once it has a stand-in there; the relay needs only the three files above.
 */
const DEMO_STAND_INS = ["src/demo/chat-fakes.ts", "src/demo/market-groups.ts"];

/** Files where a platform's id is an ordinary word, not the platform. */
const SAME_WORD: Record<string, { platform: ChatPlatform; reason: string }> = {
  "src/view/page/card.ts": { platform: "line", reason: 'the CSS class "line" of a verdict line' },
};

function names(code: string, platform: ChatPlatform): boolean {
  const name = CHAT_PLATFORM_NAMES[platform];
  const markers = [
    new RegExp(`["'\`]${platform}["'\`]`),
    new RegExp(`(?<![A-Za-z_])${name}(?![A-Za-z_])`),
    new RegExp(`(?<![A-Za-z_])${platform.toUpperCase()}_[A-Z]`),
    new RegExp(`["'][^"']*/${platform}(/[^"']*)?\\.js["']`),
  ];
  return markers.some((marker) => marker.test(code));
}

/** Every source file, scripts of the browser (.mjs) included, with its code. */
const FILES = sourceFiles(undefined, /(?<!\.d)\.(ts|mjs)$/);

function own(path: string, platform: ChatPlatform): boolean {
  return path === `src/chat/platforms/${platform}.ts` || path.startsWith(`src/chat/platforms/${platform}/`);
}

describe("the files a chat platform touches", () => {
  it.each(ChatPlatformSchema.options)(
    "names %s only in the protocol's list, the registry and its own module",
    (platform) => {
      const naming = FILES.filter(
        (f) => names(f.code, platform) && SAME_WORD[f.path]?.platform !== platform && !DEMO_STAND_INS.includes(f.path),
      ).map((f) => f.path);
      const expected = [
        ...SHARED,
        ...naming.filter((path) => own(path, platform)),
        ...Object.keys(HISTORY).filter((path) => naming.includes(path)),
      ];
      expect(naming.sort()).toEqual(expected.sort());
      expect(naming.filter((path) => own(path, platform)).length).toBeGreaterThan(0);
    },
  );

  it("adds up to three files for a new platform: the list, the registry and one module", () => {
    const everyPlatform = FILES.filter(
      (f) =>
        !DEMO_STAND_INS.includes(f.path) && ChatPlatformSchema.options.every((platform) => names(f.code, platform)),
    ).map((f) => f.path);
    expect(everyPlatform.sort()).toEqual([...SHARED].sort());
    const modules = ChatPlatformSchema.options.map((platform) => FILES.filter((f) => own(f.path, platform)).length);
    expect(SHARED.length + Math.max(...modules)).toBeLessThanOrEqual(3);
  });
});
