// A slow platform (--latency-ms 2000). Leaving a screen while its request is still
// out, or asking for another page before the first one answered, shows only what was asked
// for last: the old answer is aborted or ignored, never painted over the new screen. The old
// answer is held back by the test until the new screen was asked for, so it surely comes after.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { consoleFixture, painted, platformGet, unexpectedErrors, waitFor } from "./harness.mjs";

const SCIM = "/api/scim/v2/Users";

describe("resilience: leaving a slow screen (--latency-ms 2000)", () => {
  const env = consoleFixture({ sandboxArgs: ["--latency-ms", "2000"] });

  const main = () => env.page.locator("main#main");
  const nav = () => env.page.getByRole("navigation", { name: "Main" });

  /**
   * Holds the platform's answers to requests whose URL `matches`, on top of the sandbox's own
   * latency, until `held.release()`: called once the new screen was asked for, the old answer
   * surely comes after that. Returns the held requests; each `outcome` turns from
   * "pending" to "delivered" when the page received the answer, or to "aborted" when the page
   * gave up on the request first.
   */
  async function holdAnswers(matches) {
    const held = [];
    const gate = new Promise((resolve) => (held.release = resolve));
    const settle = (outcome) => (request) => {
      const entry = held.find((h) => h.request === request);
      if (entry && entry.outcome === "pending") entry.outcome = outcome;
    };
    env.page.on("requestfinished", settle("delivered"));
    env.page.on("requestfailed", settle("aborted"));
    await env.page.route(matches, async (route) => {
      held.push({ request: route.request(), outcome: "pending" });
      try {
        const response = await route.fetch();
        await gate;
        await route.fulfill({ response });
      } catch {
        // The page aborted the request while it was held: nothing to deliver.
      }
    });
    return held;
  }

  const outcomes = (held) => held.map((h) => `${h.request.url()}: ${h.outcome}`).join("; ");

  /** Lets the held answers go, waits until each was delivered or aborted, and for the paint. */
  async function settled(held) {
    held.release();
    await waitFor(() => held.every((h) => h.outcome !== "pending"), {
      what: () => `every held answer delivered or aborted (${outcomes(held)})`,
    });
    await painted(env.page);
  }

  test("leaving Sends mid-request for Teams shows the teams only, and the old request is aborted", async () => {
    const { body: groups } = await platformGet(env.sandbox.url, env.token, "/api/v3/groups?page=1&per_page=25");
    await nav().getByRole("link", { name: "Teams", exact: true }).waitFor({ state: "visible" });
    // Only the Sends screen's own requests are held: its pages of 25. Home and Teams read this
    // month's sends in the background (pages of 100, the spend walk), and that walk's requests
    // are rightly answered; one of them must not pass for the screen's.
    const screens = (url) => url.pathname === "/api/v3/send" && url.searchParams.get("per_page") !== "100";
    // (A flag turned off on leaving would race the route's own matching of the request.)
    const held = await holdAnswers(screens);
    try {
      const sendsAsked = env.page.waitForRequest((r) => screens(new URL(r.url())));
      await nav().getByRole("link", { name: "Sends", exact: true }).click();
      await sendsAsked;
      await nav().getByRole("link", { name: "Teams", exact: true }).click();
      await env.page.waitForURL(/\/teams$/);
      const rows = main().locator("table tbody tr");
      await rows.first().waitFor({ state: "visible", timeout: 15_000 });

      // Now every held sends answer comes due; then look again.
      await settled(held);
      assert.ok(held.length > 0, "the sends screen did ask the platform");
      assert.ok(held.every((h) => h.outcome === "aborted"), `every sends request was aborted: ${outcomes(held)}`);
      assert.match(env.page.url(), /\/teams$/);
      await main().getByRole("heading", { level: 1, name: "Teams" }).waitFor({ state: "visible" });
      assert.equal(await env.page.locator("tr[data-send-id]").count(), 0, "no send on the teams screen");
      const shown = await rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector("th, td").textContent));
      assert.deepEqual(shown, groups.groups.map((g) => g.name), "exactly the platform's teams");
    } finally {
      held.release();
      await env.page.unrouteAll({ behavior: "ignoreErrors" });
    }
  });

  test("a slow answer for an older page never replaces the page asked for after it", async () => {
    const { body } = await platformGet(env.sandbox.url, env.token, `${SCIM}?count=0`);
    const total = body.totalResults;
    await env.page.goto(`${env.sandbox.url}/users?count=10`);
    const table = main().locator("table.users-table");
    await main().getByText(`Showing 1\u201310 of ${total}`).waitFor({ state: "visible", timeout: 15_000 });

    // The second page's answer is held back; meanwhile the admin asks for 25 rows a page.
    const held = await holdAnswers((url) => url.pathname === SCIM && url.searchParams.get("startIndex") === "11");
    try {
      const secondAsked = env.page.waitForRequest((r) => r.url().includes("startIndex=11"));
      await main().getByRole("link", { name: "Next", exact: true }).click();
      await secondAsked;
      await main().getByLabel("Rows per page").selectOption("25");
      await env.page.waitForURL(/startIndex=1&count=25/);
      // The old page's answer comes only now, after the newer page was asked for.
      held.release();
      await main().getByText(`Showing 1\u201325 of ${total}`).waitFor({ state: "visible", timeout: 15_000 });

      // The old page's answer came; the newer page stays.
      await settled(held);
      assert.equal(held.length, 1);
      assert.notEqual(held[0].outcome, "pending", `the old answer came: ${outcomes(held)}`);
      assert.match(env.page.url(), /startIndex=1&count=25/);
      await main().getByText(`Showing 1\u201325 of ${total}`).waitFor({ state: "visible" });
      assert.equal(await table.locator("tbody tr").count(), 25);
      const expected = (await platformGet(env.sandbox.url, env.token, `${SCIM}?startIndex=1&count=25`)).body.Resources.map((u) => u.userName);
      assert.deepEqual(await table.locator("tbody tr td:nth-child(3)").allTextContents(), expected);
    } finally {
      held.release();
      await env.page.unrouteAll({ behavior: "ignoreErrors" });
    }
  });

  test("no uncaught errors on the slow platform", () => {
    assert.deepEqual(unexpectedErrors(env.page), []);
  });
});
