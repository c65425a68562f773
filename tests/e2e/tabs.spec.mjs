// Issue 15: tabs of one browser work together. A link opened in a new tab is signed in
// without the consent page; a duplicated tab does not burn the other's single-use refresh
// token; signing out in one tab signs out the others; an idle tab whose access token expired
// signs out leaving no live grant at the platform.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  SESSION_KEY,
  consoleFixture,
  expireSession,
  openTab,
  platformGet,
  sessionToken,
  signIn,
  signedInPage,
  unexpectedErrors,
} from "./harness.mjs";

const VISIBLE = { state: "visible", timeout: 15_000 };

/** Waits until `tab` shows the teams table (data loaded, so the token worked). */
async function teamsLoaded(tab, url) {
  await tab.goto(`${url}/teams`);
  await tab.locator("main#main table tbody tr").first().waitFor(VISIBLE);
}

describe("tabs of one browser share the session (--token-ttl 5)", () => {
  const env = consoleFixture({ sandboxArgs: ["--token-ttl", "5"], page: false });

  test("a user opened in a new tab from the list is shown without the consent page", async () => {
    const first = await signedInPage(env.browser, env.sandbox.url);
    const exchanged = (await env.sandbox.stats()).authorization_codes_exchanged;
    await first.goto(`${env.sandbox.url}/users`);
    const link = first.locator("main#main table tbody tr a").first();
    await link.waitFor(VISIBLE);
    const name = (await link.textContent()).trim();
    const href = await link.getAttribute("href");
    // What a middle click does: the same address in a new tab, which starts with no session.
    const second = await openTab(first.context());
    const consent = [];
    second.on("request", (r) => {
      if (r.url().includes("/oauth/authorize")) consent.push(r.url());
    });
    await second.goto(new URL(href, env.sandbox.url).href);
    await second.locator("main#main").getByRole("heading", { level: 1, name, exact: true }).waitFor(VISIBLE);
    assert.match(new URL(second.url()).pathname, /^\/users\/\d+$/, "still on the user's page");
    assert.deepEqual(consent, [], "no consent page");
    assert.equal((await env.sandbox.stats()).authorization_codes_exchanged, exchanged, "no second sign-in");
    assert.deepEqual([...unexpectedErrors(first), ...unexpectedErrors(second)], []);
    await first.context().close();
  });

  test("a lone tab shows sign-in without asking other tabs; a tab opened beside a signed-in one asks", async () => {
    const context = await env.browser.newContext();
    // What each tab posts on the session channel (the messages are JSON text).
    const recordPosts = () => {
      window.__posted = [];
      const post = BroadcastChannel.prototype.postMessage;
      BroadcastChannel.prototype.postMessage = function (message) {
        window.__posted.push(String(message));
        return post.call(this, message);
      };
    };
    const alone = await openTab(context);
    await alone.addInitScript(recordPosts);
    await alone.goto(env.sandbox.url);
    await alone.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    assert.deepEqual(await alone.evaluate(() => window.__posted), [], "no other tab was asked");
    await signIn(alone, env.sandbox.url);
    const beside = await openTab(context);
    await beside.addInitScript(recordPosts);
    await teamsLoaded(beside, env.sandbox.url);
    assert.ok((await beside.evaluate(() => window.__posted)).includes('"ask"'), "the open tab was asked");
    assert.deepEqual([...unexpectedErrors(alone), ...unexpectedErrors(beside)], []);
    await context.close();
  });

  test("a duplicated tab and its original both outlive each expiry, refreshing in turn", async () => {
    const original = await signedInPage(env.browser, env.sandbox.url);
    // "Duplicate tab" copies sessionStorage into the new tab: the same single-use refresh token.
    const copy = await original.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY);
    const duplicate = await openTab(original.context());
    await duplicate.addInitScript(
      ([key, value]) => {
        if (!sessionStorage.getItem("e2e.duplicated")) {
          sessionStorage.setItem("e2e.duplicated", "1");
          sessionStorage.setItem(key, value);
        }
      },
      [SESSION_KEY, copy],
    );
    await teamsLoaded(duplicate, env.sandbox.url);
    const before = await env.sandbox.stats();
    for (let round = 0; round < 2; round += 1) {
      await expireSession(env.sandbox, [original, duplicate]); // as if past the 5-second lifetime
      // One after the other, then both at once: the lock keeps them apart either way.
      if (round === 0) {
        await teamsLoaded(original, env.sandbox.url);
        await teamsLoaded(duplicate, env.sandbox.url);
      } else {
        await Promise.all([teamsLoaded(original, env.sandbox.url), teamsLoaded(duplicate, env.sandbox.url)]);
      }
    }
    const stats = await env.sandbox.stats();
    assert.equal(stats.refresh_token_reuse, before.refresh_token_reuse, "no spent refresh token was presented");
    assert.equal(stats.token_refresh_failures, before.token_refresh_failures, "no refresh was refused");
    assert.equal(stats.authorization_codes_exchanged, before.authorization_codes_exchanged, "no new sign-in");
    assert.ok(stats.token_refreshes > before.token_refreshes, "the tokens were refreshed");
    assert.equal(await sessionToken(original), await sessionToken(duplicate), "both hold the newest tokens");
    assert.deepEqual([...unexpectedErrors(original), ...unexpectedErrors(duplicate)], []);
    await original.context().close();
  });

  test("signing out in one tab signs out the other within a second", async () => {
    const first = await signedInPage(env.browser, env.sandbox.url);
    const second = await openTab(first.context());
    await teamsLoaded(second, env.sandbox.url);
    const token = await sessionToken(second);
    await first.getByRole("button", { name: "Sign out", exact: true }).click();
    await first.getByText("You have signed out.").waitFor(VISIBLE);
    await second.getByText("You have signed out.").waitFor({ state: "visible", timeout: 1_000 });
    await second.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    assert.equal((await platformGet(env.sandbox.url, token, "/api/v3/me")).status, 401, "the other tab's token is refused");
    assert.equal(await second.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY), null);
    await first.context().close();
  });

  test("an idle tab whose access token expired signs out leaving no live grant", async () => {
    const liveBefore = (await env.sandbox.stats()).live_grants;
    const tab = await signedInPage(env.browser, env.sandbox.url);
    assert.equal((await env.sandbox.stats()).live_grants, liveBefore + 1);
    await expireSession(env.sandbox, [tab]); // as if idle past the 5-second lifetime
    await tab.getByRole("button", { name: "Sign out", exact: true }).click();
    await tab.getByText("You have signed out.").waitFor(VISIBLE);
    assert.equal((await env.sandbox.stats()).live_grants, liveBefore, "the grant ended at the platform");
    await tab.context().close();
  });
});
