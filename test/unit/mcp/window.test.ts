/**
 * An approval through MCP, decided in real Chromium (decision 0480): the agent's call gives its
 * client a link (URL-mode elicitation); the page that link opens is the principal window at that
 * one decision, showing the effects in plain words, and the owner key signs only when Approve is
 * clicked there; the call then answers with what was signed. A page with a wrong credential, and a
 * request from another origin, read and sign nothing. The page asks nothing of anyone but its own
 * server.
 */
import { describe, expect, it } from "vitest";
import type { TableClient } from "../../../src/client/index.js";
import { isEntry, type Signer } from "../../../src/protocol/index.js";
import { relayAndChromium, requestLog, screenshot } from "../../support/browser.js";
import { tableClient, uniqueTable } from "../../support/client-table.js";
import { inProcess, makeHome, textOf, type Home, type Mcp } from "../../support/mcp.js";
import { keyOf } from "../../support/table-fixture.js";

const shared = relayAndChromium();
const EFFECT = { owner: "tao", resource: "calendar", action: "book", args: { day: "saturday", at: "10:00" } };

/** tao's server in process, whose client only collects the links (the owner opens them in Chromium), at a table where bot-tao proposed EFFECT. */
async function proposal(): Promise<{
  mcp: Mcp;
  home: Home;
  harness: TableClient;
  jenny: Signer;
  task: string;
  links: string[];
}> {
  const links: string[] = [];
  const home = await makeHome(shared.relay.url, "tao", "bot-tao");
  const mcp = await inProcess(home.settings, (request) => {
    if (request.mode === "url") links.push(request.url);
    return { action: request.mode === "url" ? "accept" : "decline" };
  });
  const [jenny, botJenny] = await Promise.all([keyOf("owner:jenny"), keyOf("seat:bot-jenny")]);
  const id = uniqueTable("mcp-window");
  const config = {
    id,
    topic: "Book the hall",
    owners: {
      tao: { public_key: home.owner.publicKeyText },
      jenny: { public_key: jenny.publicKeyText, approvals: "async" },
    },
    seats: { "bot-tao": { owner: "tao" }, "bot-jenny": { owner: "jenny" } },
    topology: { kind: "open" },
    termination: { any: ["decision"] },
  };
  expect((await mcp.call("trestle_create_table", { config })).isError).toBeFalsy();
  expect((await mcp.call("trestle_join")).isError).toBeFalsy();
  const harness = await tableClient(shared.relay.url, id);
  await harness.join(jenny, {
    seat: "bot-jenny",
    owner: "jenny",
    seatKey: botJenny.publicKeyText,
    card: {},
    expires: Date.now() + 60_000,
  });
  const task = /It opened a task: (\d+\.tao)/.exec(
    textOf(await mcp.call("trestle_propose", { text: "book the hall for saturday", effects: [EFFECT] })),
  )![1]!;
  return { mcp, home, harness, jenny, task, links };
}

async function approvals(harness: TableClient, jenny: Signer) {
  return (await harness.history({ signer: jenny, as: { owner: "jenny" } })).items
    .filter(isEntry)
    .filter((e) => e.kind === "approval");
}

describe("an approval decided in the principal window, in Chromium", { timeout: 30_000 }, () => {
  it("shows the decision the link names and signs only on the click of Approve; the agent's call answers with it", async () => {
    const { mcp, home, harness, jenny, task, links } = await proposal();
    const call = mcp.call("trestle_approve", { task });
    await expect.poll(() => links.length).toBe(1);
    const page = await shared.browser.newPage();
    const requested = requestLog(page);
    await page.goto(links[0]!);
    await page.waitForSelector("#decision button.approve");
    expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const words = (await page.textContent("#decision .decision-words")) ?? "";
    expect(words).toContain(`to APPROVE task ${task}`);
    expect(words).toContain('1. book on calendar with day = "saturday", at = "10:00"');
    expect(await page.isVisible("#main")).toBe(false);
    expect(await approvals(harness, jenny)).toEqual([]);
    await screenshot(page, "mcp-decision-pending");
    await page.click("#decision button.approve");
    await page.waitForSelector("#decision .notice.ok");
    expect(await page.textContent("#decision .notice.ok")).toContain("Signed with your owner key");
    expect(textOf(await call)).toContain(`task ${task} approved`);
    expect(await approvals(harness, jenny)).toMatchObject([
      { owner: "tao", task, verdict: "approve", author: { key: home.owner.publicKeyText } },
    ]);
    const origin = new URL(links[0]!).origin;
    expect(requested.filter((url) => !url.startsWith(origin))).toEqual([]);
    await screenshot(page, "mcp-decision-signed");
    await page.close();
    await mcp.close();
  });

  describe("when the link is wrong or the request comes from elsewhere", () => {
    it("shows the refusal for a wrong credential, refuses another origin's request, and signs nothing", async () => {
      const { mcp, harness, jenny, task, links } = await proposal();
      const call = mcp.call("trestle_reject", { task });
      await expect.poll(() => links.length).toBe(1);
      const link = new URL(links[0]!);
      const [id] = link.hash.replace("#decision=", "").split(".");
      const page = await shared.browser.newPage();
      await page.goto(`${link.origin}/#decision=${id}.${"A".repeat(43)}`);
      await page.waitForSelector("#decision .notice.bad");
      expect(await page.textContent("#decision .notice.bad")).toContain(
        "E_AUTH: this decision's link is wrong or it ended",
      );
      expect(await page.locator("#decision button.approve").count()).toBe(0);
      const forged = await fetch(`${link.origin}/api/decision`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "http://evil.example",
          "x-trestle-decision": link.hash.replace("#decision=", ""),
        },
        body: JSON.stringify({ verdict: "approve" }),
      });
      expect(forged.status).toBe(403);
      expect(await approvals(harness, jenny)).toEqual([]);
      await page.close();
      const right = await shared.browser.newPage();
      await right.goto(links[0]!);
      await right.click("#decision button.reject");
      await right.waitForSelector("#decision .notice.bad");
      expect(await right.textContent("#decision .notice.bad")).toBe("Declined: nothing was signed.");
      expect(textOf(await call)).toContain('details: {"reason":"declined"}');
      expect(await approvals(harness, jenny)).toEqual([]);
      await right.close();
      await mcp.close();
    });
  });
});
