// The release build downloads each screen's code on first visit. Every screen opens
// cold by its address in a fresh tab, the first load fetches no screen chunk before sign-in,
// and a chunk that fails to download shows the error panel with "Try again", never a blank
// screen or a crash.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, allowSignIn, consoleFixture, openCopy, openTab, signIn, unexpectedErrors } from "./harness.mjs";

const CHUNK = /\/split_[^/]*\.wasm$/;
// Home's modules, sent as one file after sign-in (scripts/pack-chunks.mjs).
const PACK = /\/home\.pack$/;

/**
 * Home's pack refused in `context`, as on a network that is down, until `up()`;
 * `askedSinceUp()`: how many times it was asked for since.
 */
async function refusePack(context) {
  let down = true;
  let since = 0;
  await context.route(PACK, (route) => {
    if (down) return route.abort("failed");
    since += 1;
    return route.continue();
  });
  return { up: () => (down = false), askedSinceUp: () => since };
}

describe("screens downloaded on first visit", () => {
  const env = consoleFixture({ signedIn: false });

  test("the signed-out page loads no screen chunk (home is one, after sign-in)", async () => {
    const chunks = [];
    env.page.on("request", (request) => {
      const { pathname } = new URL(request.url());
      if (CHUNK.test(pathname) || PACK.test(pathname)) chunks.push(request.url());
    });
    await env.page.goto(env.sandbox.url);
    await env.page.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    assert.deepEqual(chunks, [], "nothing but the core before sign-in");
    await signIn(env.page, env.sandbox.url);
  });

  // Each screen by its own address, in a tab that has never loaded it (opened by the signed-in
  // tab, so its sessionStorage holds the session); the heading proves the chunk ran.
  const screens = [
    ["/users", { level: 1, name: "Users" }],
    ["/users/new", { level: 1, name: "Add a user" }],
    ["/teams", { level: 1, name: "Teams" }],
    ["/teams/users", { level: 1, name: "All active users" }],
    ["/sends", { level: 1, name: "Sends" }],
    ["/campaigns", { level: 1, name: "Campaigns" }],
    ["/catalog", { level: 1, name: "Catalog" }],
  ];
  for (const [path, heading] of screens) {
    test(`${path} opens cold in a new tab`, async () => {
      const tab = await openCopy(env.page);
      await tab.goto(`${env.sandbox.url}${path}`);
      await tab.locator("main#main").getByRole("heading", heading).first().waitFor(VISIBLE);
      assert.deepEqual(unexpectedErrors(tab), []);
      await tab.close();
    });
  }

  test("detail screens open cold too: a user, a team, a campaign, a product", async () => {
    const tab = await openCopy(env.page);
    for (const [list, rowLink] of [
      ["/users", "main#main table tbody th a"],
      ["/teams", "main#main table tbody th a"],
      ["/campaigns", "main#main table tbody th a"],
    ]) {
      await tab.goto(`${env.sandbox.url}${list}`);
      const link = tab.locator(rowLink).first();
      await link.waitFor(VISIBLE);
      const href = await link.getAttribute("href");
      const cold = await openCopy(env.page);
      await cold.goto(`${env.sandbox.url}${href}`);
      await cold.locator("main#main h1").first().waitFor(VISIBLE);
      assert.deepEqual(unexpectedErrors(cold), [], href);
      await cold.close();
    }
    await tab.close();
  });

  test("a chunk that fails to download shows the error panel; Try again brings the screen", async () => {
    const context = await env.browser.newContext();
    const tab = await openTab(context);
    // Blocked from the start, so the idle prefetch after sign-in fails too.
    let blocked = true;
    await context.route(CHUNK, (route) => {
      if (blocked && /split_campaigns\.wasm/.test(route.request().url())) return route.abort("failed");
      return route.continue();
    });
    await signIn(tab, env.sandbox.url);
    // Clicked from the navigation: the chunk fails, the shell stays.
    await tab.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" }).click();
    const panel = tab.getByTestId("screen-download-failed");
    await panel.waitFor(VISIBLE);
    await tab.locator("[data-testid=current-user]").waitFor(VISIBLE);
    blocked = false;
    await panel.getByRole("button", { name: "Try again" }).click();
    await tab.getByRole("heading", { level: 1, name: "Campaigns" }).waitFor(VISIBLE);
    assert.equal(await panel.count(), 0);
    const crashes = tab.errors.filter((e) => e.kind === "pageerror");
    assert.deepEqual(crashes, [], "no panic, no uncaught error");
    await context.close();
  });

  test("the sign-in's return and home's modules come in one pack; a pack that fails to download is asked for again", async () => {
    const context = await env.browser.newContext();
    const tab = await openTab(context);
    // Refused until the sign-in's return has said its code did not arrive.
    const pack = await refusePack(context);
    await allowSignIn(tab, env.sandbox.url);
    const panel = tab.locator("main#main").getByTestId("screen-download-failed");
    await panel.waitFor(VISIBLE);
    pack.up();
    await panel.getByRole("button", { name: "Try again" }).click();
    // The sign-in completes, and home, its figures and the header's profile come from the
    // pack that just arrived: nothing else to try again.
    await tab.getByTestId("summary").waitFor(VISIBLE);
    await tab.locator("[data-testid=current-user]").waitFor(VISIBLE);
    assert.equal(pack.askedSinceUp(), 1, "asked for again, once for the sign-in, home, its figures and the profile");
    const crashes = tab.errors.filter((e) => e.kind === "pageerror");
    assert.deepEqual(crashes, [], "no panic, no uncaught error");
    await context.close();
  });

  test("a signed-in tab whose pack fails to download offers to try again, and asks for it once more", async () => {
    const context = await env.browser.newContext();
    const tab = await openTab(context);
    await signIn(tab, env.sandbox.url);
    const pack = await refusePack(context);
    // A new tab of the signed-in one: it holds the session, and fetches the pack itself.
    const copy = await openCopy(tab);
    await copy.goto(env.sandbox.url);
    // Home says its code did not arrive, and so does the header's profile (it comes with the
    // app's reads, in the same pack).
    const panel = copy.locator("main#main").getByTestId("screen-download-failed");
    await panel.waitFor(VISIBLE);
    const profilePanel = copy.getByRole("banner").getByTestId("screen-download-failed");
    await profilePanel.waitFor(VISIBLE);
    pack.up();
    await panel.getByRole("button", { name: "Try again" }).click();
    // Home is back; its read of /me, which went with the app's reads, failed as a lost answer
    // does and offers to try again.
    await copy.locator("main#main").getByText("The platform could not be reached.").waitFor(VISIBLE);
    await copy.locator("main#main").getByRole("button", { name: "Try again" }).click();
    await copy.getByTestId("summary").waitFor(VISIBLE);
    await profilePanel.getByRole("button", { name: "Try again" }).click();
    await copy.locator("[data-testid=current-user]").waitFor(VISIBLE);
    assert.equal(pack.askedSinceUp(), 1, "asked for again, once for home, its figures and the profile");
    const crashes = copy.errors.filter((e) => e.kind === "pageerror");
    assert.deepEqual(crashes, [], "no panic, no uncaught error");
    await context.close();
  });
});
