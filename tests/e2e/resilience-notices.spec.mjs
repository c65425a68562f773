// What the console tells the admin when the platform is busy, the browser is
// offline, or an answer cannot be read, and that a write is never sent twice on its own.
// The sandbox is real; the test bends single answers on the way (Playwright routes) where
// the sandbox's dice would make the case a matter of luck.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, laterRequest, unexpectedErrors } from "./harness.mjs";

const HIDDEN = { state: "hidden", timeout: 15_000 };
const SCIM = "/api/scim/v2/Users";

describe("resilience: busy, offline, unreadable answers, writes", () => {
  const env = consoleFixture();

  const main = () => env.page.locator("main#main");
  const nav = () => env.page.getByRole("navigation", { name: "Main" });
  // A screen that reads afresh on every visit (Teams' groups are shared across screens and kept
  // for a minute): Campaigns and its list of campaigns (touches).
  const touchesList = (url) => url.pathname === "/api/v3/touches";

  /** Opens Home (the brand link) first, so the next nav click starts a screen afresh. */
  async function fromHome() {
    await env.page.locator("header a.brand").click();
    await main().getByRole("heading", { level: 1, name: "Home" }).waitFor(VISIBLE);
  }

  test("a 503 with Retry-After shows the busy countdown, then the data, with no error", async () => {
    await fromHome();
    let asked = 0;
    await env.page.route(touchesList, (route) => {
      asked++;
      if (asked > 2) return route.continue();
      return route.fulfill({
        status: 503,
        headers: { "Retry-After": "2", "Content-Type": "application/json" },
        body: JSON.stringify({ message: "The platform is temporarily unavailable." }),
      });
    });
    try {
      await nav().getByRole("link", { name: "Campaigns", exact: true }).click();
      const busy = env.page.locator(".banner--busy");
      await busy.waitFor(VISIBLE);
      assert.match(await busy.innerText(), /^The platform is busy, retrying in [12] s/);
      await main().locator("table tbody tr").first().waitFor(VISIBLE);
      await busy.waitFor(HIDDEN);
      assert.equal(asked, 3, "two busy answers waited out, the third try answered");
      assert.equal(await main().locator(".error-panel").count(), 0);
    } finally {
      await env.page.unrouteAll({ behavior: "ignoreErrors" });
    }
  });

  test("offline: a banner says so, and the screen loads by itself when the connection is back", async () => {
    await fromHome();
    const context = env.page.context();
    await context.setOffline(true);
    try {
      await nav().getByRole("link", { name: "Sends", exact: true }).click();
      const banner = env.page.locator(".banner--offline");
      await banner.waitFor(VISIBLE);
      assert.match(await banner.innerText(), /You are offline/);
      await main().locator(".error-panel").getByText(/You are offline/).waitFor(VISIBLE);
    } finally {
      await context.setOffline(false);
    }
    // No click: the screen retries when the browser is back online.
    await main().locator("tbody tr[data-send-id]").first().waitFor(VISIBLE);
    await env.page.locator(".banner--offline").waitFor(HIDDEN);
    assert.equal(await main().locator(".error-panel").count(), 0);
  });

  test("the platform unreachable: a banner, and the screen loads by itself when it answers", async () => {
    await fromHome();
    // Every request to the platform fails on the network, the console's probe included.
    let refused = 0;
    const platform = (url) => url.pathname.startsWith("/api/") || url.pathname === "/";
    await env.page.route(platform, (route) => {
      refused++;
      return route.abort("connectionrefused");
    });
    const banner = env.page.locator(".banner--unreachable");
    try {
      await nav().getByRole("link", { name: "Campaigns", exact: true }).click();
      await banner.waitFor(VISIBLE);
      assert.match(await banner.innerText(), /The platform cannot be reached/);
      await main().locator(".error-panel").waitFor(VISIBLE);
      assert.equal(await env.page.locator(".banner--offline").count(), 0, "the browser itself is online");
      assert.ok(refused >= 3, `the read was tried 3 times (${refused} refused)`);
    } finally {
      await env.page.unrouteAll({ behavior: "ignoreErrors" });
    }
    // No click: the console looks for the platform, and the screen retries once it answers.
    await main().locator("table tbody tr").first().waitFor({ state: "visible", timeout: 20_000 });
    await banner.waitFor(HIDDEN);
    assert.equal(await main().locator(".error-panel").count(), 0);
  });

  test("an answer that cannot be read names the endpoint, on that screen only", async () => {
    await fromHome();
    await env.page.route(touchesList, (route) =>
      route.fulfill({
        status: 200,
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ current_page: 1, per_page: 25, total_posts: "many", touches: [{}] }),
      }),
    );
    try {
      await nav().getByRole("link", { name: "Campaigns", exact: true }).click();
      const panel = main().locator(".error-panel");
      await panel.waitFor(VISIBLE);
      assert.match(
        await panel.locator(".error-panel__message").innerText(),
        /The platform sent data the console could not read \(GET \/api\/v3\/touches\)/,
      );
      // The rest of the console goes on: the header, the navigation, another screen.
      await env.page.locator("[data-testid=current-user] .current-user__name").waitFor(VISIBLE);
      await nav().getByRole("link", { name: "Sends", exact: true }).click();
      await main().locator("tbody tr[data-send-id]").first().waitFor(VISIBLE);
      assert.equal(await main().locator(".error-panel").count(), 0);
    } finally {
      await env.page.unrouteAll({ behavior: "ignoreErrors" });
    }
  });

  test("a create answered 503 is not sent again by the console, and the form is kept", async () => {
    let posts = 0;
    await env.page.route(
      (url) => url.pathname === SCIM,
      (route) => {
        if (route.request().method() !== "POST") return route.continue();
        posts++;
        return route.fulfill({
          status: 503,
          headers: { "Retry-After": "1", "Content-Type": "application/scim+json" },
          body: JSON.stringify({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "503", detail: "Busy." }),
        });
      },
    );
    try {
      // The page's clock, so the test can move it past the Retry-After instead of waiting.
      await env.page.clock.install();
      await env.page.goto(`${env.sandbox.url}/users/new`);
      const teams = env.page.locator('#user-team option:not([value=""])');
      await teams.first().waitFor({ state: "attached", timeout: 15_000 });
      const team = await teams.first().getAttribute("value");
      const email = `busy.create.${Date.now()}@example.com`;
      await main().getByLabel("Email").fill(email);
      await main().getByLabel("First name").fill("Busy");
      await main().getByLabel("Last name").fill("Platform");
      await main().getByLabel("Role").selectOption("manager");
      await main().getByLabel("Team").selectOption(team);
      await main().getByRole("button", { name: "Create user", exact: true }).click();
      const banner = env.page.getByTestId("form-banner");
      await banner.waitFor(VISIBLE);
      assert.match(await banner.innerText(), /was not created/);
      // Longer than the Retry-After on the page's clock: a read would have been tried again by
      // now, and that request seen before a later one.
      await env.page.clock.runFor(2_000);
      await laterRequest(env.page);
      assert.equal(posts, 1, "exactly one POST");
      assert.equal(await main().getByLabel("Email").inputValue(), email);
      assert.equal(await main().getByLabel("First name").inputValue(), "Busy");
      assert.equal(await main().getByLabel("Last name").inputValue(), "Platform");
      assert.equal(await main().getByLabel("Role").inputValue(), "manager");
      assert.equal(await main().getByLabel("Team").inputValue(), team);
    } finally {
      await env.page.unrouteAll({ behavior: "ignoreErrors" });
    }
  });

  test("no uncaught errors and no CSP violations", () => {
    assert.deepEqual(unexpectedErrors(env.page), []);
  });
});
