// A refresh whose answer is lost must not end the grant. Refresh tokens are single
// use, and the platform treats a spent one presented again as theft and ends the whole grant
// (every tab signed out). So a tab that presented its refresh token and never learned the answer
// (a reload while the refresh was in flight, a gateway's 504 after the platform rotated) never
// presents it again: it asks the admin to sign in again in a window of its own, and the screen,
// what was typed in it, and the other tabs of the session go on with the new session.
// Everything is checked against the sandbox's own counters and API.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  SESSION_KEY,
  VISIBLE,
  consoleFixture,
  expireSession,
  openCopy,
  platformGet,
  scimUsers,
  sessionToken,
  signedInPage,
  unexpectedErrors,
  waitFor,
} from "./harness.mjs";

/** The session `tab` keeps in sessionStorage (null when none). */
function storedSession(tab) {
  return tab.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? "null"), SESSION_KEY);
}

/** Waits until `tab` shows the teams table (data loaded, so the token worked). */
async function teamsLoaded(tab, url) {
  await tab.goto(`${url}/teams`);
  await tab.locator("main#main table tbody tr").first().waitFor(VISIBLE);
}

/**
 * Lets `page`'s next refresh reach the platform, which rotates the tokens, and then answers the
 * page with `status` (a 504, as a gateway whose platform was slow), or never (`null`: the test
 * reloads the page meanwhile). Its `platformAnswered` resolves, once the platform has answered, to
 * its status.
 */
async function loseNextRefreshAnswer(page, status = null) {
  let answered;
  const platformAnswered = new Promise((resolve) => (answered = resolve));
  let taken = false;
  await page.route("**/oauth/token", async (route) => {
    if (taken || !/grant_type=refresh_token/.test(route.request().postData() ?? "")) return route.continue();
    taken = true;
    const response = await route.fetch();
    answered(response.status());
    if (status !== null) await route.fulfill({ status, contentType: "text/html", body: "<h1>Gateway Timeout</h1>" });
  });
  return { platformAnswered };
}

/** The banner that asks to sign in again, or the sign-in screen (a session that ended). */
async function renewalOrSignedOut(page) {
  const banner = page.getByTestId("sign-in-again");
  await banner.or(page.getByRole("button", { name: "Sign in", exact: true })).first().waitFor(VISIBLE);
  assert.ok(await banner.isVisible(), "the tab asks to sign in again (not signed out)");
  return banner;
}

/** Signs in again from the banner, in the window it opens, and waits for that window to close. */
async function signInAgain(page, email = "admin@example.com") {
  const [popup] = await Promise.all([
    page.context().waitForEvent("page"),
    page.getByRole("button", { name: "Sign in again", exact: true }).click(),
  ]);
  await popup.waitForURL(/\/oauth\/authorize/);
  await popup.locator(`input[type=radio][name=user][value="${email}"]`).check();
  const closed = popup.waitForEvent("close", { timeout: 15_000 });
  await popup.getByRole("button", { name: "Allow", exact: true }).click();
  await closed;
}

describe("a refresh whose answer is lost", () => {
  const env = consoleFixture({ page: false });

  test("a reload while a refresh is in flight leaves the admin signed in on the same screen, and the other tab too", async () => {
    const url = env.sandbox.url;
    const page = await signedInPage(env.browser, url);
    // Another tab of the session, quiet (a screen that asks the platform nothing).
    const other = await openCopy(page);
    await other.goto(`${url}/nothing/here`);
    await other.getByRole("heading", { name: "Page not found" }).waitFor(VISIBLE);
    await teamsLoaded(page, url);
    const before = await env.sandbox.stats();
    const spent = await storedSession(page);

    const { platformAnswered } = await loseNextRefreshAnswer(page);
    await expireSession(env.sandbox, [page]);
    await page.reload({ waitUntil: "commit" });
    assert.equal(await platformAnswered, 200, "the platform rotated the tokens");
    // The answer is on its way to a page that is about to go. The route is removed only after
    // the reload: removing a route whose handler still holds the request lets Playwright send
    // that request on, a second presentation of the token that no browser would make.
    await page.reload({ waitUntil: "commit" });
    await page.unroute("**/oauth/token", { behavior: "ignoreErrors" });
    await renewalOrSignedOut(page);
    await page.locator("main#main").getByRole("heading", { level: 1, name: "Teams" }).waitFor(VISIBLE);
    let stats = await env.sandbox.stats();
    assert.equal(stats.refresh_token_reuse, before.refresh_token_reuse, "the spent refresh token was not presented again");
    assert.equal(stats.token_refreshes, before.token_refreshes + 1, "one refresh, the one whose answer was lost");

    await signInAgain(page);
    await page.locator("main#main table tbody tr").first().waitFor(VISIBLE);
    await page.getByTestId("sign-in-again").waitFor({ state: "hidden", timeout: 15_000 });
    assert.equal(new URL(page.url()).pathname, "/teams", "the same screen");
    const renewed = await storedSession(page);
    assert.notEqual(renewed.refresh_token, spent.refresh_token);
    assert.equal((await platformGet(url, renewed.access_token, "/api/v3/me")).status, 200);

    // The other tab held the same maybe spent token: it took the new session instead.
    await waitFor(async () => (await storedSession(other))?.refresh_token === renewed.refresh_token, {
      what: "the other tab to take the renewed session",
    });
    await teamsLoaded(other, url);
    stats = await env.sandbox.stats();
    assert.equal(stats.refresh_token_reuse, before.refresh_token_reuse, "no reuse at the platform");
    assert.equal(stats.authorization_codes_exchanged, before.authorization_codes_exchanged + 1, "one sign-in again");
    assert.deepEqual([...unexpectedErrors(page), ...unexpectedErrors(other)].filter((e) => !/status of 401/.test(e.text)), []);
    await page.context().close();
  });

  test("a 504 after the platform rotated keeps the form and what was typed; the write goes through after signing in again", async () => {
    const url = env.sandbox.url;
    const page = await signedInPage(env.browser, url);
    const before = await env.sandbox.stats();
    await page.goto(`${url}/users/new`);
    const main = page.locator("main#main");
    const teams = page.locator('#user-team option:not([value=""])');
    await teams.first().waitFor({ state: "attached", timeout: 15_000 });
    const team = await teams.first().getAttribute("value");
    const email = `renewed.${Date.now()}@example.com`;
    await main.getByLabel("Email").fill(email);
    await main.getByLabel("First name").fill("Renewed");
    await main.getByLabel("Last name").fill("Session");
    await main.getByLabel("Role").selectOption("manager");
    await main.getByLabel("Team").selectOption(team);

    const { platformAnswered } = await loseNextRefreshAnswer(page, 504);
    await expireSession(env.sandbox, [page]);
    await main.getByRole("button", { name: "Create user", exact: true }).click();
    assert.equal(await platformAnswered, 200, "the platform rotated the tokens");
    await renewalOrSignedOut(page);
    assert.equal((await env.sandbox.stats()).refresh_token_reuse, before.refresh_token_reuse);
    assert.equal(await main.getByLabel("Email").inputValue(), email, "what was typed is still there");
    assert.equal(await main.getByLabel("First name").inputValue(), "Renewed");

    await signInAgain(page);
    const token = await sessionToken(page);
    await waitFor(async () => (await scimUsers(url, token)).some((u) => u.userName === email), {
      what: "the user the form created once the session was renewed",
    });
    assert.equal((await env.sandbox.stats()).refresh_token_reuse, before.refresh_token_reuse, "no reuse at the platform");
    await page.context().close();
  });
});
