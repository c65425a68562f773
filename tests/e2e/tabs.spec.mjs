// Tabs of one browser work together. A tab the console opens (sessionStorage copied)
// is signed in without the consent page; a duplicated tab does not burn the other's single-use
// refresh token; signing out in one tab signs out the others; an idle tab whose access token
// expired signs out leaving no live grant.
//
// And the tabs' channel trusts only tabs of one sign-in (src/auth/tabs.rs): a same-origin page
// that is not the console (here /boot.js opened as a page in the same browser; /config.json
// would not do, its CSP `sandbox` gives it an opaque origin) hears no token on it, neither by
// asking nor while a tab refreshes, and cannot plant a session in a console tab. A tab opened
// with empty sessionStorage (an address typed in) therefore does not join silently: it says the
// console is signed in in another tab, and signs in. A console link opened in a new tab
// (Ctrl/⌘-click, middle click) is opened by the console with window.open, and is signed in.
// Nothing holding the refresh lock for ever keeps a sign-out from ending the session.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  SESSION_KEY,
  VISIBLE,
  consoleFixture,
  expireSession,
  openCopy,
  openTab,
  platformGet,
  sessionToken,
  signIn,
  signedInPage,
  unexpectedErrors,
  waitFor,
} from "./harness.mjs";

const CHANNEL = "gifting-console.session";
const ELSEWHERE = "You are signed in in another tab.";

/** Waits until `tab` shows the teams table (data loaded, so the token worked). */
async function teamsLoaded(tab, url) {
  await tab.goto(`${url}/teams`);
  await tab.locator("main#main table tbody tr").first().waitFor(VISIBLE);
}

/** The session `tab` keeps in sessionStorage (null when none). */
function storedSession(tab) {
  return tab.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? "null"), SESSION_KEY);
}

/**
 * Makes `page` (not the console) an intruder on the tabs' channel: it records everything it hears
 * (binary parts as Latin-1 text, so a token inside would show), holds the console's presence lock
 * (console tabs then count it as an open tab and talk), and can post what the test gives it.
 */
function intrude(page) {
  return page.evaluate((name) => {
    window.__heard = [];
    const text = (part) =>
      typeof part === "string"
        ? part
        : part instanceof ArrayBuffer || ArrayBuffer.isView(part)
          ? String.fromCharCode(...new Uint8Array(part.buffer ?? part))
          : JSON.stringify(part);
    window.__channel = new BroadcastChannel(name);
    window.__channel.onmessage = (event) =>
      window.__heard.push(Array.isArray(event.data) ? event.data.map(text).join(" ") : text(event.data));
    navigator.locks.request("gifting-console.tab", { mode: "shared" }, () => new Promise(() => {}));
  }, CHANNEL);
}

/**
 * A signed-in console tab showing the teams table, the session it keeps then, and beside it
 * (same context, same origin) a page that is not the console: the app's own script served as a
 * page, made an intruder on the tabs' channel (see `intrude`).
 */
async function consoleAndIntruder(browser, url) {
  const consoleTab = await signedInPage(browser, url);
  await teamsLoaded(consoleTab, url);
  const session = await storedSession(consoleTab);
  const intruder = await openTab(consoleTab.context());
  await intruder.goto(`${url}/boot.js`);
  await intrude(intruder);
  return { consoleTab, session, intruder };
}

/** A planted session, in the form the console's messages had before the channel was sealed. */
function planted(replaces) {
  const now = Date.now();
  return JSON.stringify({
    session: {
      session: {
        access_token: "planted-access",
        refresh_token: "planted-refresh",
        expires_at_ms: now + 3_600_000,
        refresh_at_ms: now + 3_000_000,
        scope: "users:read users:write",
      },
      replaces,
    },
  });
}

describe("tabs of one browser share the session (--token-ttl 5)", () => {
  const env = consoleFixture({ sandboxArgs: ["--token-ttl", "5"], page: false });

  test("a user opened in a tab the console opens is shown without the consent page", async () => {
    const first = await signedInPage(env.browser, env.sandbox.url);
    const exchanged = (await env.sandbox.stats()).authorization_codes_exchanged;
    await first.goto(`${env.sandbox.url}/users`);
    const link = first.locator("main#main table tbody tr a").first();
    await link.waitFor(VISIBLE);
    const name = (await link.textContent()).trim();
    const href = await link.getAttribute("href");
    // window.open (or a link with rel=opener): the browser copies sessionStorage into the tab.
    const second = await openCopy(first);
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

  test("a link opened in a new tab says the console is signed in in another tab, and signs in", async () => {
    const first = await signedInPage(env.browser, env.sandbox.url);
    // An address typed in a new tab, which starts with empty sessionStorage: nothing tells it
    // apart from any other page of the origin.
    const second = await openTab(first.context());
    await second.goto(`${env.sandbox.url}/teams`);
    await second.getByText(ELSEWHERE).waitFor(VISIBLE);
    await second.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    assert.equal(await storedSession(second), null, "no session handed over");
    await signIn(second, env.sandbox.url);
    await teamsLoaded(second, env.sandbox.url);
    await teamsLoaded(first, env.sandbox.url);
    assert.notEqual(await sessionToken(first), await sessionToken(second), "a session of its own");
    assert.deepEqual([...unexpectedErrors(first), ...unexpectedErrors(second)], []);
    await first.context().close();
  });

  test("a console link opened in a new tab (Ctrl-click, middle click) opens signed in, without the consent page", async () => {
    const first = await signedInPage(env.browser, env.sandbox.url);
    await teamsLoaded(first, env.sandbox.url);
    const exchanged = (await env.sandbox.stats()).authorization_codes_exchanged;
    const link = first.locator("main#main table tbody tr a").first();
    const name = (await link.textContent()).trim();
    for (const how of [{ modifiers: ["ControlOrMeta"] }, { button: "middle" }]) {
      const [tab] = await Promise.all([first.context().waitForEvent("page"), link.click(how)]);
      await tab
        .locator("main#main")
        .getByRole("heading", { level: 1, name: `Team: ${name}`, exact: true })
        .or(tab.getByRole("button", { name: "Sign in", exact: true }))
        .first()
        .waitFor(VISIBLE);
      assert.equal(await tab.getByRole("button", { name: "Sign in", exact: true }).count(), 0, `${JSON.stringify(how)}: signed in`);
      await tab.locator("main#main table tbody tr").first().waitFor(VISIBLE);
      assert.match(new URL(tab.url()).pathname, /^\/teams\/\d+$/);
      await tab.close();
    }
    assert.equal(new URL(first.url()).pathname, "/teams", "the first tab stayed where it was");
    assert.equal((await env.sandbox.stats()).authorization_codes_exchanged, exchanged, "no second sign-in");
    assert.deepEqual(unexpectedErrors(first), []);
    await first.context().close();
  });

  test("sign-out ends the session even while a page that is not the console holds the refresh lock", async () => {
    const context = await env.browser.newContext();
    const tab = await openTab(context);
    // The page's clock, so the test can move it past the lock's bounded wait.
    await tab.clock.install();
    await signIn(tab, env.sandbox.url);
    const token = await sessionToken(tab);
    const intruder = await openTab(context);
    await intruder.goto(`${env.sandbox.url}/boot.js`);
    await intruder.evaluate(
      () =>
        new Promise((held) => {
          navigator.locks.request("gifting-console.refresh", () => {
            held();
            return new Promise(() => {});
          });
        }),
    );
    const waiting = () =>
      intruder.evaluate(async () => (await navigator.locks.query()).pending.some((lock) => lock.name === "gifting-console.refresh"));
    await tab.getByRole("button", { name: "Sign out", exact: true }).click();
    await waitFor(waiting, { what: "the sign-out to wait for the refresh lock" });
    // Past the bounded wait on the page's clock, each time the tab waits for the lock (a refresh
    // started before the sign-out waits for it too, and the sign-out waits for that refresh).
    const signedOut = tab.getByText("You have signed out.");
    await waitFor(
      async () => {
        if (await signedOut.isVisible()) return true;
        if (await waiting()) await tab.clock.runFor(31_000);
        return false;
      },
      { timeout: 30_000, what: "the tab to say it signed out" },
    );
    assert.equal(await storedSession(tab), null, "the tab is cleared");
    assert.equal((await platformGet(env.sandbox.url, token, "/api/v3/me")).status, 401, "the grant ended at the platform");
    assert.deepEqual(unexpectedErrors(tab), []);
    await context.close();
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
    await beside.goto(`${env.sandbox.url}/teams`);
    await beside.getByText(ELSEWHERE).waitFor(VISIBLE);
    assert.deepEqual(await beside.evaluate(() => window.__posted), ['"ask"'], "the open tab was asked, and nothing else");
    assert.deepEqual([...unexpectedErrors(alone), ...unexpectedErrors(beside)], []);
    await context.close();
  });

  test("a duplicated tab and its original both outlive each expiry, refreshing in turn", async () => {
    const original = await signedInPage(env.browser, env.sandbox.url);
    // "Duplicate tab" copies sessionStorage into the new tab: the same single-use refresh token
    // (and the key of the sign-in's sealed messages).
    const copy = await original.evaluate(() => Object.entries(sessionStorage));
    const duplicate = await openTab(original.context());
    await duplicate.addInitScript((entries) => {
      if (!sessionStorage.getItem("e2e.duplicated")) {
        sessionStorage.setItem("e2e.duplicated", "1");
        for (const [key, value] of entries) sessionStorage.setItem(key, value);
      }
    }, copy);
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
    const second = await openCopy(first);
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
  test("a same-origin page that is not the console hears no token, asking or while a tab refreshes", async () => {
    const { consoleTab, session: before, intruder } = await consoleAndIntruder(env.browser, env.sandbox.url);
    await intruder.evaluate(() => window.__channel.postMessage('"ask"'));
    // The console tab refreshes while the intruder listens (and counts as an open tab, so the
    // console also asks it whether the refresh token was replaced already).
    await expireSession(env.sandbox, [consoleTab]);
    await teamsLoaded(consoleTab, env.sandbox.url);
    const after = await storedSession(consoleTab);
    assert.notEqual(after.refresh_token, before.refresh_token, "the console tab refreshed");
    // An answer to the ask, the successor question, and the new tokens' broadcast.
    const heard = await waitFor(
      async () => {
        const heard = await intruder.evaluate(() => window.__heard);
        return heard.length >= 3 && heard;
      },
      { what: "the console tab's three messages to reach the intruder" },
    );
    for (const token of [before.access_token, before.refresh_token, after.access_token, after.refresh_token]) {
      assert.ok(!heard.some((message) => message.includes(token)), "a token was heard on the channel");
    }
    assert.deepEqual(unexpectedErrors(consoleTab), []);
    await consoleTab.context().close();
  });

  test("a same-origin page that is not the console cannot plant a session, in a signed-in tab or a new one", async () => {
    const { consoleTab, session: mine, intruder } = await consoleAndIntruder(env.browser, env.sandbox.url);
    // Whatever it posts, then an ask: the console tab takes messages of one sender in order, so
    // its answer to the ask comes after it dealt with the plants. Even knowing the refresh token.
    await intruder.evaluate(
      ([plant, garbage]) => {
        window.__channel.postMessage(plant);
        window.__channel.postMessage([new Uint8Array(12), new Uint8Array(garbage)]);
        window.__channel.postMessage('"ask"');
      },
      [planted(mine.refresh_token), [...Buffer.from(planted(mine.refresh_token))]],
    );
    await waitFor(async () => (await intruder.evaluate(() => window.__heard)).length >= 1, {
      what: "the console tab to answer the intruder's ask",
    });
    assert.equal((await storedSession(consoleTab)).refresh_token, mine.refresh_token, "the planted session was ignored");
    await teamsLoaded(consoleTab, env.sandbox.url);
    assert.notEqual(await sessionToken(consoleTab), "planted-access");

    // A new tab asks; the intruder answers with its session first, then says "signed in".
    await intruder.evaluate((plant) => {
      window.__channel.onmessage = (event) => {
        if (event.data === '"ask"') {
          window.__channel.postMessage(plant);
          window.__channel.postMessage('"signed_in"');
        }
      };
    }, planted(null));
    const fresh = await openTab(consoleTab.context());
    await fresh.addInitScript(() => {
      window.__stored = [];
      const set = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key, value) {
        window.__stored.push(String(value));
        return set.call(this, key, value);
      };
    });
    await fresh.goto(`${env.sandbox.url}/teams`);
    const plantTaken = () => fresh.evaluate(() => window.__stored.some((value) => value.includes("planted-access")));
    // The hint follows the plant from the same sender: once it shows, the plant was dealt with.
    await waitFor(async () => (await plantTaken()) || (await fresh.getByText(ELSEWHERE).isVisible()), {
      what: "the new tab to hear the intruder",
    });
    assert.equal(await plantTaken(), false, "the new tab took the planted session");
    await fresh.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    assert.deepEqual([...unexpectedErrors(consoleTab), ...unexpectedErrors(fresh)], []);
    await consoleTab.context().close();
  });
});
