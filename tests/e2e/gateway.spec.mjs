// The console through the gateway, in the topology of `make run-gateway`: the
// sandbox plays a platform that demands the client secret (--require-client-secret) and sends
// no CORS headers; the gateway serves the console and relays its token and API calls. The
// console must work exactly as it does against the sandbox alone, and no request the browser
// makes may carry the secret.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  CLIENT_SECRET,
  SESSION_KEY,
  VISIBLE,
  assertSilentRefresh,
  consoleFixture,
  expireSession,
  platformGet,
  sessionToken,
  signIn,
  unexpectedErrors,
} from "./harness.mjs";

/** The session the signed-in tab keeps (both tokens). */
const sessionOf = (page) => page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? "null"), SESSION_KEY);

/** The platform's answer to a refresh with `refreshToken`, asked from node with the secret. */
async function platformRefresh(sandboxUrl, refreshToken) {
  const body = new URLSearchParams({
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: "gifting-console",
    client_secret: CLIENT_SECRET,
  });
  const response = await fetch(`${sandboxUrl}/oauth/token`, { method: "POST", body });
  return { status: response.status, body: await response.json() };
}

describe("the console through the gateway", () => {
  // Signed in by a test, through the gateway.
  const env = consoleFixture({ gateway: true, sandboxArgs: ["--token-ttl", "5"], signedIn: false });
  /** Every request the tab made: url, method, headers, body, resource type. */
  const requests = [];
  before(() => {
    env.page.on("request", (request) => {
      requests.push({
        url: request.url(),
        method: request.method(),
        headers: request.headers(),
        body: request.postData() ?? "",
        type: request.resourceType(),
      });
    });
  });

  const main = () => env.page.locator("main#main");

  test("config.json names the gateway and holds no secret", async () => {
    const response = await fetch(`${env.gateway.url}/config.json`);
    const text = await response.text();
    assert.ok(!text.includes(CLIENT_SECRET), "config.json holds the secret");
    assert.doesNotMatch(text, /client_secret/);
    const config = JSON.parse(text);
    assert.equal(config.base_url, env.gateway.url);
    assert.equal(config.auth_url, env.gateway.url);
    // The platform really refuses a public client: PKCE alone is not enough there.
    const direct = await fetch(`${env.sandbox.url}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&refresh_token=x&client_id=gifting-console",
    });
    assert.equal(direct.status, 401);
    // And it sends no CORS headers, so a browser on the gateway's origin could not call it.
    const api = await fetch(`${env.sandbox.url}/api/v3/me`, { headers: { Origin: env.gateway.url } });
    assert.equal(api.headers.get("access-control-allow-origin"), null);
  });

  test("sign in through the platform's consent page and the token relay", async () => {
    await signIn(env.page, env.gateway.url);
    assert.ok(env.page.url().startsWith(env.gateway.url), `back on the gateway: ${env.page.url()}`);
    const token = await sessionToken(env.page);
    assert.equal((await platformGet(env.sandbox.url, token, "/api/v3/me")).status, 200);
    assert.equal((await env.sandbox.stats()).authorization_codes_exchanged, 1);
  });

  test("every screen loads its data through the API relay", async () => {
    const screens = [
      { path: "/users", heading: "Users", ready: () => main().locator("table tbody tr").first() },
      { path: "/teams", heading: "Teams", ready: () => main().locator("table tbody tr").first() },
      { path: "/teams/users", heading: "All active users", ready: () => main().locator("table tbody tr").first() },
      { path: "/sends", heading: "Sends", ready: () => env.page.locator("tbody tr[data-send-id]").first() },
      { path: "/campaigns", heading: "Campaigns", ready: () => main().locator("table tbody tr").first() },
      { path: "/catalog", heading: "Catalog", ready: () => env.page.locator("[data-testid=product-grid] img").first() },
    ];
    for (const screen of screens) {
      await env.page.goto(`${env.gateway.url}${screen.path}`);
      await main().getByRole("heading", { level: 1, name: screen.heading, exact: true }).waitFor(VISIBLE);
      await screen.ready().waitFor(VISIBLE);
    }
    // The catalog's thumbnails come from the platform's CDN, allowed by the gateway's CSP.
    await env.page.waitForFunction(() => {
      const imgs = [...document.querySelectorAll("[data-testid=product-grid] img")];
      return imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0);
    });
    // A detail page opened by its address, cold.
    const { body: groups } = await platformGet(env.sandbox.url, await sessionToken(env.page), "/api/v3/groups");
    const group = groups.groups[0];
    await env.page.goto(`${env.gateway.url}/teams/${group.id}`);
    await main().getByRole("heading", { level: 1, name: `Team: ${group.name}` }).waitFor(VISIBLE);
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("create a user, then change their role", async () => {
    await env.page.goto(`${env.gateway.url}/users/new`);
    await env.page.waitForFunction(() => document.querySelectorAll("#user-team option").length > 2);
    const email = `gateway.created.${Date.now()}@example.com`;
    await main().getByLabel("Email").fill(email);
    await main().getByLabel("First name").fill("Gate");
    await main().getByLabel("Last name").fill("Way");
    await main().getByLabel("Role").selectOption("sender");
    await main().getByLabel("Team").selectOption({ index: 1 });
    await main().getByRole("button", { name: "Create user" }).click();
    await env.page.waitForURL(/\/users\/\d+$/);
    await main().getByRole("heading", { level: 1, name: "Gate Way" }).waitFor(VISIBLE);
    const id = /\/users\/(\d+)/.exec(env.page.url())[1];

    await main().getByLabel("Role").selectOption("manager");
    await main().getByLabel("Last name").press("Enter");
    await env.page.getByTestId("user-outcome").waitFor(VISIBLE);
    assert.match(await env.page.getByTestId("user-outcome").textContent(), /^Saved\./);
    const { body: user } = await platformGet(env.sandbox.url, await sessionToken(env.page), `/api/scim/v2/Users/${id}`);
    assert.equal(user.userName, email);
    assert.equal(user.userType, "manager");
  });

  test("an expired token is refreshed through the relay without a new sign-in", async () => {
    await assertSilentRefresh(env.sandbox, env.page, env.gateway.url, VISIBLE);
  });

  test("sign-out revokes the refresh token, in a form body: the whole grant ends at the platform", async () => {
    const session = await sessionOf(env.page);
    const revocations = [];
    const record = (request) => {
      if (request.url().startsWith(`${env.gateway.url}/oauth/revoke`)) {
        revocations.push({ url: request.url(), body: request.postData() ?? "" });
      }
    };
    env.page.on("request", record);
    await env.page.getByRole("button", { name: "Sign out", exact: true }).click();
    await env.page.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    await env.page.getByText("You have signed out.").waitFor(VISIBLE);
    env.page.off("request", record);
    assert.equal(revocations.length, 1, JSON.stringify(revocations));
    assert.equal(new URL(revocations[0].url).search, "", "no token in the URL");
    const form = new URLSearchParams(revocations[0].body);
    assert.equal(form.get("token"), session.refresh_token);
    assert.equal(form.get("token_type_hint"), "refresh_token");
    assert.equal((await platformGet(env.sandbox.url, session.access_token, "/api/v3/me")).status, 401, "the access token ended");
    const refresh = await platformRefresh(env.sandbox.url, session.refresh_token);
    assert.equal(refresh.status, 400, "the refresh token ended");
    assert.equal(refresh.body.error, "invalid_grant");
    assert.equal(await env.page.getByText(/did not confirm/).count(), 0, "nothing to tell");
    // Errors the browser logged for the expiry's 401 are expected; nothing else is.
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("sign-out ends the grant even when the access token expired and could not be renewed", async () => {
    await signIn(env.page, env.gateway.url);
    const session = await sessionOf(env.page);
    // The renewal fails (the sign-in service unreachable for the browser)...
    await env.page.route("**/oauth/token", (route) => route.abort());
    await expireSession(env.sandbox, [env.page]); // ...and the 5-second access token expires.
    // The platform forgets expired access tokens (here when it handles any token request).
    assert.equal((await platformRefresh(env.sandbox.url, "unknown")).status, 400);
    await env.page.getByRole("button", { name: "Sign out", exact: true }).click();
    await env.page.getByText("You have signed out.").waitFor(VISIBLE);
    await env.page.unroute("**/oauth/token");
    const refresh = await platformRefresh(env.sandbox.url, session.refresh_token);
    assert.equal(refresh.status, 400, `the grant survived the sign-out: ${JSON.stringify(refresh.body)}`);
    assert.equal(await env.page.getByText(/did not confirm/).count(), 0, "the platform confirmed");
  });

  test("a revocation the platform does not confirm is told to the admin, who is signed out anyway", async () => {
    await signIn(env.page, env.gateway.url);
    const token = await sessionToken(env.page);
    await env.page.route("**/oauth/revoke", (route) =>
      route.fulfill({ status: 503, contentType: "application/json", body: '{"error":"temporarily_unavailable"}' }),
    );
    await env.page.getByRole("button", { name: "Sign out", exact: true }).click();
    await env.page.getByText("You have signed out.").waitFor(VISIBLE);
    const notice = env.page.getByTestId("notification").filter({ hasText: "did not confirm" });
    await notice.waitFor(VISIBLE);
    assert.match(await notice.textContent(), /did not confirm that the session ended/);
    await env.page.unroute("**/oauth/revoke");
    // What the admin was told is true: the grant lives on at the platform.
    assert.equal((await platformGet(env.sandbox.url, token, "/api/v3/me")).status, 200);
    assert.equal(await env.page.evaluate((key) => sessionStorage.getItem(key), SESSION_KEY), null, "the tab keeps no token");
    await notice.getByRole("button", { name: /Dismiss/ }).click();
    await notice.waitFor({ state: "detached" });
  });

  test("no request the browser made carried the secret, and it spoke only to the gateway", async () => {
    assert.ok(requests.length > 20, `requests were recorded (${requests.length})`);
    for (const request of requests) {
      assert.ok(!JSON.stringify(request).includes(CLIENT_SECRET), `the secret in ${request.method} ${request.url}`);
    }
    const sandboxOrigin = new URL(env.sandbox.url).origin;
    const direct = requests.filter((r) => new URL(r.url).origin === sandboxOrigin);
    for (const request of direct) {
      const { pathname } = new URL(request.url);
      const allowed =
        (request.type === "document" && pathname === "/oauth/authorize") ||
        pathname === "/oauth/consent.css" ||
        pathname === "/oauth/icon.svg" ||
        pathname.startsWith("/cdn/");
      assert.ok(allowed, `the browser called the platform itself: ${request.method} ${pathname}`);
    }
    const tokenCalls = requests.filter((r) => r.url.startsWith(`${env.gateway.url}/oauth/token`));
    assert.ok(tokenCalls.length >= 2, "the code exchange and a refresh went to the gateway");
    assert.ok(requests.some((r) => r.url.startsWith(`${env.gateway.url}/oauth/revoke`)), "revocation went to the gateway");
  });

  test("the gateway's log holds no secret, token or query string", async () => {
    const lines = env.gateway.stderr().filter((line) => line.trim().startsWith("{"));
    assert.ok(lines.length > 20, `log lines were written (${lines.length})`);
    for (const line of lines) {
      assert.ok(!line.includes(CLIENT_SECRET), `the secret in ${line}`);
      assert.ok(!line.includes("?"), `a query string in ${line}`);
      assert.doesNotMatch(line, /[A-Za-z0-9_-]{43}/, `something token-shaped in ${line}`);
      const entry = JSON.parse(line);
      assert.ok(entry.timestamp && entry.level, `timestamp and level in ${line}`);
      if (entry.message === "request") {
        for (const key of ["request_id", "method", "route", "status", "latency_ms"]) {
          assert.ok(key in entry, `${key} in ${line}`);
        }
      }
    }
  });
});
