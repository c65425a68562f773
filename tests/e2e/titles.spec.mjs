// Every screen names the browser tab, and after a navigation inside the console the
// keyboard focus moves to the new screen's main heading (so a screen reader says where the
// admin arrived); the first screen of a page load leaves the focus where the browser put it.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { consoleFixture, newPage, unexpectedErrors } from "./harness.mjs";

const WAIT = { timeout: 15_000 };

/** Waits for the tab's title, then returns the text of the focused element if it is an h1. */
async function titleAndFocus(page, title) {
  await page.waitForFunction((t) => document.title === t, title, WAIT);
  return page.evaluate(() => (document.activeElement?.tagName === "H1" ? document.activeElement.textContent : null));
}

describe("titles and focus", () => {
  const env = consoleFixture();

  test("the signed-out page and the home screen name the tab", async () => {
    const fresh = await newPage(env.browser);
    await fresh.goto(env.sandbox.url);
    await fresh.getByRole("button", { name: "Sign in", exact: true }).waitFor(WAIT);
    assert.equal(await fresh.title(), "Sign in to the Gifting Console");
    await fresh.close();
    // The fixture signed in: the callback screen, then home, a navigation inside the console.
    assert.equal(await titleAndFocus(env.page, "Home · Gifting Console"), "Home");
  });

  for (const [link, heading] of [
    ["Users", "Users"],
    ["Teams", "Teams"],
    ["Sends", "Sends"],
    ["Campaigns", "Campaigns"],
    ["Catalog", "Catalog"],
  ]) {
    test(`the ${link} link names the tab and focuses the heading`, async () => {
      const { page } = env;
      await page.locator("nav.main-nav").getByRole("link", { name: link, exact: true }).click();
      assert.equal(await titleAndFocus(page, `${heading} · Gifting Console`), heading);
    });
  }

  test("a detail screen's title names the record and its area", async () => {
    const { page, sandbox } = env;
    await page.goto(`${sandbox.url}/users`);
    await page.locator("main table").getByRole("link", { name: "Ada Admin", exact: true }).click();
    assert.equal(await titleAndFocus(page, "Ada Admin · Users · Gifting Console"), "Ada Admin");
    await page.locator("main").getByRole("link", { name: "Users", exact: true }).click();
    assert.equal(await titleAndFocus(page, "Users · Gifting Console"), "Users");
  });

  test("a screen opened by its address names the tab and leaves the focus alone", async () => {
    const { page, sandbox } = env;
    await page.goto(`${sandbox.url}/teams/users`);
    assert.equal(await titleAndFocus(page, "All active users · Teams · Gifting Console"), null);
    await page.goto(`${sandbox.url}/no/such/screen`);
    assert.equal(await titleAndFocus(page, "Page not found · Gifting Console"), null);
    assert.deepEqual(unexpectedErrors(page), []);
  });
});
