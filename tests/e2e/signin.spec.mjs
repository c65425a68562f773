// Sign-in through the sandbox's consent page, the session in
// sessionStorage, refresh (proactive and after a 401), refusal of a tampered
// state, "Deny", and sign-out with revocation. Everything runs against the
// real release build and the real sandbox; outcomes are checked against the
// sandbox's own API and counters, not against hard-coded numbers.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, errorsOf, expireSession, laterRequest, newPage, signIn } from "./harness.mjs";

const SESSION_KEY = "gifting-console.session";
const PENDING_KEY = "gifting-console.pending-sign-in";

/** What the tab keeps: sessionStorage and localStorage as plain objects. */
async function storage(page) {
  return page.evaluate(() => ({
    session: Object.fromEntries(Object.entries(sessionStorage)),
    local: Object.fromEntries(Object.entries(localStorage)),
  }));
}

/** The stored session, parsed (or null). */
async function storedSession(page) {
  const { session } = await storage(page);
  return session[SESSION_KEY] ? JSON.parse(session[SESSION_KEY]) : null;
}

/** GET /api/v3/me from node with a bearer token: {status, body}. */
async function me(sandbox, token) {
  const response = await fetch(`${sandbox.url}/api/v3/me`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

/** Clicks "Sign in" on the console and waits for the sandbox's consent page. */
async function openConsent(page) {
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(/\/oauth\/authorize/);
}

/** Chrome logs every 4xx/5xx answer as a console error; some tests expect exactly those. */
function unexpectedErrors(page, allowedStatuses = []) {
  return errorsOf(page).filter(
    (error) =>
      !(
        error.kind === "console" &&
        allowedStatuses.some((status) => error.text.includes(`status of ${status}`))
      ),
  );
}

describe("sign-in", () => {
  const env = consoleFixture({ signedIn: false });

  test("full sign-in as admin@example.com lands on the route asked for, without the code in the address bar", async () => {
    // Start on a deep link: after signing in, the console must come back to it.
    await env.page.goto(`${env.sandbox.url}/no/such/screen?keep=1`);
    await openConsent(env.page);
    const consentUrl = new URL(env.page.url());
    const state = consentUrl.searchParams.get("state");
    assert.ok(state && state.length >= 22, "a state of at least 128 bits is sent");
    assert.equal(consentUrl.searchParams.get("code_challenge_method"), "S256");
    assert.match(consentUrl.searchParams.get("code_challenge") ?? "", /^[A-Za-z0-9_-]{43}$/);
    assert.equal(consentUrl.searchParams.get("response_type"), "code");
    assert.equal(consentUrl.searchParams.get("redirect_uri"), `${env.sandbox.url}/auth/callback`);

    await env.page.locator('input[type=radio][name=user][value="admin@example.com"]').check();
    const profileRequests = [];
    const countMe = (request) => {
      if (new URL(request.url()).pathname === "/api/v3/me") profileRequests.push(request.url());
    };
    env.page.on("request", countMe);
    // Every text the header shows from here on, however briefly.
    const headerTexts = [];
    await env.page.exposeBinding("__headerText", (_source, text) => headerTexts.push(text));
    await env.page.addInitScript(() => {
      let last;
      new MutationObserver(() => {
        const text = document.querySelector("[data-testid=current-user]")?.innerText;
        if (text !== undefined && text !== last) window.__headerText((last = text));
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await env.page.getByRole("button", { name: "Allow", exact: true }).click();
    const names = env.page.locator("[data-testid=current-user] .current-user__name");
    await names.waitFor(VISIBLE);
    await env.page.getByRole("heading", { name: "Page not found" }).waitFor(VISIBLE);
    // Every request the sign-in made is counted by the time a later one is seen.
    await laterRequest(env.page);
    env.page.off("request", countMe);
    assert.equal(profileRequests.length, 1, `one /api/v3/me per sign-in: ${profileRequests}`);
    // While the profile loads the header says so, never "unavailable" for the moment
    // before sign-in finished.
    assert.ok(headerTexts.length > 0, "the header was watched");
    assert.ok(!headerTexts.some((t) => /unavailable|Try again/i.test(t)), `header said: ${headerTexts.join(" | ")}`);

    const address = new URL(env.page.url());
    assert.equal(address.pathname, "/no/such/screen");
    assert.equal(address.searchParams.get("keep"), "1");
    assert.equal(address.searchParams.get("code"), null, "no code in the address bar");
    assert.equal(address.searchParams.get("state"), null, "no state in the address bar");

    // The header shows the user the token belongs to, as the platform reports it.
    const session = await storedSession(env.page);
    assert.ok(session?.access_token, "an access token in sessionStorage");
    const profile = await me(env.sandbox, session.access_token);
    assert.equal(profile.status, 200);
    assert.equal(profile.body.email, "admin@example.com");
    const header = env.page.locator("[data-testid=current-user]");
    await header.getByText(profile.body.first_name, { exact: false }).waitFor(VISIBLE);
    const headerText = await header.innerText();
    assert.match(headerText, new RegExp(profile.body.last_name));
    assert.match(headerText, /admin/);
    assert.match(headerText, /Balance/);
    assert.match(headerText, /Team balance/);
    await env.page.getByRole("button", { name: "Sign out", exact: true }).waitFor(VISIBLE);

    const stats = await env.sandbox.stats();
    assert.equal(stats.authorization_codes_exchanged, 1);
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("tokens live in sessionStorage only; the pending sign-in is used up", async () => {
    const { session, local } = await storage(env.page);
    const stored = JSON.parse(session[SESSION_KEY]);
    assert.ok(stored.access_token && stored.refresh_token);
    assert.ok(stored.expires_at_ms > Date.now(), "expiry in the future");
    assert.match(stored.scope, /marketplace/);
    assert.equal(session[PENDING_KEY], undefined, "the state and verifier are gone after use");
    assert.deepEqual(local, {}, "nothing in localStorage");
    const cookies = await env.page.context().cookies();
    assert.deepEqual(cookies, [], "no cookies");
  });

  test("a reload keeps the session; an unknown route says Page not found", async () => {
    const before = await storedSession(env.page);
    await env.page.goto(`${env.sandbox.url}/`);
    await env.page.locator("[data-testid=current-user]").waitFor(VISIBLE);
    await env.page.reload();
    await env.page.getByRole("button", { name: "Sign out", exact: true }).waitFor(VISIBLE);
    await env.page.getByRole("heading", { name: "Home", exact: true }).waitFor(VISIBLE);
    assert.equal((await storedSession(env.page)).access_token, before.access_token);
    await env.page.goto(`${env.sandbox.url}/definitely/not/here`);
    await env.page.getByRole("heading", { name: "Page not found" }).waitFor(VISIBLE);
    const stats = await env.sandbox.stats();
    assert.equal(stats.authorization_codes_exchanged, 1, "no second sign-in was needed");
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("sign-out revokes the token and clears the tab", async () => {
    const { access_token: token } = await storedSession(env.page);
    assert.equal((await me(env.sandbox, token)).status, 200, "the token works before sign-out");

    await env.page.getByRole("button", { name: "Sign out", exact: true }).click();
    await env.page.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    await env.page.getByText("You have signed out.").waitFor(VISIBLE);

    assert.equal((await me(env.sandbox, token)).status, 401, "the old token is revoked");
    const { session, local } = await storage(env.page);
    assert.equal(session[SESSION_KEY], undefined, "the session is gone from sessionStorage");
    assert.deepEqual(local, {});
    assert.equal(await env.page.locator("[data-testid=current-user]").count(), 0);
    assert.ok((await env.sandbox.stats()).revocations >= 1);
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("a sign-out whose code cannot be fetched (offline) still clears the tab and says so", async () => {
    const tab = await newPage(env.browser);
    await signIn(tab, env.sandbox.url);
    const { access_token: token } = await storedSession(tab);
    // The sign-out's part that tells the platform is a chunk of its own, fetched at sign-out.
    let refused = 0;
    await tab.route(/\/split_sign_out\.wasm$/, (route) => {
      refused += 1;
      return route.abort("internetdisconnected");
    });
    await tab.getByRole("button", { name: "Sign out", exact: true }).click();
    await tab.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    await tab.getByText("You have signed out.").waitFor(VISIBLE);
    await tab.getByText(/did not confirm that the session ended/).waitFor(VISIBLE);
    assert.ok(refused >= 1, "the sign-out asked for its chunk");
    assert.equal(await storedSession(tab), null, "the session is gone from sessionStorage");
    // The platform was not told: the grant stays valid until it expires, as the notice says.
    assert.equal((await me(env.sandbox, token)).status, 200);
    // The split loader logs the failed download; nothing else may go wrong.
    const loaderLog = (e) => e.kind === "console" && /Failed to (fetch|load resource)/.test(e.text);
    const errors = errorsOf(tab).filter((e) => !loaderLog(e));
    assert.deepEqual(errors, []);
    await tab.context().close();
  });

  test("a tampered state is refused and no code is exchanged", async () => {
    const tab = await newPage(env.browser);
    const exchangedBefore = (await env.sandbox.stats()).authorization_codes_exchanged;
    const tokenRequests = [];
    tab.on("request", (request) => {
      if (new URL(request.url()).pathname === "/oauth/token") tokenRequests.push(request.url());
    });
    await tab.goto(env.sandbox.url);
    await openConsent(tab);
    // Change the state the sandbox will send back, as a forged response would.
    await tab.locator('input[type=hidden][name=state]').evaluate((input) => {
      input.value = `${input.value}tampered`;
    });
    await tab.getByRole("button", { name: "Allow", exact: true }).click();

    const alert = tab.getByTestId("signin-error");
    await alert.waitFor(VISIBLE);
    assert.match(await alert.innerText(), /refused/);
    assert.equal(new URL(tab.url()).searchParams.get("code"), null, "no code in the address bar");
    await tab.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    assert.equal(await storedSession(tab), null, "no session");
    // A (wrong) exchange would have been asked for before a request the tab makes now.
    await laterRequest(tab);
    assert.deepEqual(tokenRequests, [], "no token request left the tab");
    assert.equal((await env.sandbox.stats()).authorization_codes_exchanged, exchangedBefore, "nothing was exchanged");
    assert.deepEqual(unexpectedErrors(tab), []);
    await tab.context().close();
  });

  test("Deny shows a clear message and leaves the tab signed out", async () => {
    const tab = await newPage(env.browser);
    await tab.goto(env.sandbox.url);
    await openConsent(tab);
    await tab.getByRole("button", { name: "Deny", exact: true }).click();

    const alert = tab.getByTestId("signin-error");
    await alert.waitFor(VISIBLE);
    assert.match(await alert.innerText(), /Access was denied/);
    assert.equal(new URL(tab.url()).searchParams.get("error"), null, "the error parameters are stripped too");
    await tab.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    assert.equal(await storedSession(tab), null);
    assert.deepEqual(unexpectedErrors(tab), []);
    await tab.context().close();
  });
});

describe("refresh with short-lived tokens (--token-ttl 5)", () => {
  const env = consoleFixture({ sandboxArgs: ["--token-ttl", "5"] });

  test("the session survives each expiry with exactly one refresh per expiry", async () => {
    const first = await storedSession(env.page);
    assert.equal((await env.sandbox.stats()).token_refreshes, 0);
    let previous = first;
    for (let round = 1; round <= 2; round += 1) {
      await expireSession(env.sandbox, [env.page]); // as if past the 5-second lifetime
      assert.equal((await me(env.sandbox, previous.access_token)).status, 401, "the old token has expired");
      await env.page.reload();
      await env.page.getByRole("button", { name: "Sign out", exact: true }).waitFor(VISIBLE);
      await env.page.locator("[data-testid=current-user]").getByText("Team balance").waitFor(VISIBLE);
      const current = await storedSession(env.page);
      assert.notEqual(current.access_token, previous.access_token, "a new access token");
      assert.notEqual(current.refresh_token, previous.refresh_token, "a new refresh token");
      assert.equal((await env.sandbox.stats()).token_refreshes, round, `one refresh for expiry ${round}`);
      previous = current;
    }
    // A read home began as the platform ended the tokens (before the reload) is answered 401:
    // Chrome logs it. The refreshes counted above show what the console made of it.
    assert.deepEqual(unexpectedErrors(env.page, [401]), []);
  });

  test("a 401 for a token the console thought valid refreshes once and retries", async () => {
    const refreshesBefore = (await env.sandbox.stats()).token_refreshes;
    // Make the console believe its token lives for another hour, then let it expire for real.
    await env.page.evaluate((key) => {
      const session = JSON.parse(sessionStorage.getItem(key));
      session.expires_at_ms = Date.now() + 3_600_000;
      session.refresh_at_ms = Date.now() + 3_500_000;
      sessionStorage.setItem(key, JSON.stringify(session));
    }, SESSION_KEY);
    await env.sandbox.expireTokens();
    await env.page.reload();
    await env.page.locator("[data-testid=current-user]").getByText("Team balance").waitFor(VISIBLE);
    await env.page.getByRole("button", { name: "Sign out", exact: true }).waitFor(VISIBLE);
    assert.equal((await env.sandbox.stats()).token_refreshes, refreshesBefore + 1);
    // The one expected console line is the browser's own log of that 401.
    assert.deepEqual(unexpectedErrors(env.page, [401]), []);
  });

  test("a refresh the platform refuses ends the session and keeps the route", async () => {
    // Revoke the tokens behind the console's back (as an administrator elsewhere might).
    const session = await storedSession(env.page);
    const revoke = await fetch(`${env.sandbox.url}/oauth/revoke?token=${encodeURIComponent(session.access_token)}`, {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from("gifting-console:").toString("base64")}` },
    });
    assert.equal(revoke.status, 200);
    await env.page.goto(`${env.sandbox.url}/some/deep/route`);
    await env.page.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    await env.page.getByText("Your session has ended").waitFor(VISIBLE);
    assert.equal(new URL(env.page.url()).pathname, "/some/deep/route", "the route is kept for after sign-in");
    assert.equal(await storedSession(env.page), null, "the dead session is cleared");
    assert.deepEqual(unexpectedErrors(env.page, [400, 401]), []);
  });
});
