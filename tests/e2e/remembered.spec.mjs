// What the admin chose stays chosen: the rows per page of each list are remembered on this
// browser (localStorage, the console's one store of preferences) across screens and reloads.
// The address still decides when it names a size, and nothing but the choice is kept.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { VISIBLE, consoleFixture, unexpectedErrors } from "./harness.mjs";

const SENDS_ROWS = "main table.sends-table tbody tr[data-send-id]";

describe("remembered page sizes", () => {
  const env = consoleFixture();
  const page = () => env.page;
  const menu = (name) => page().getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
  const size = () => page().locator("main nav.pager").getByLabel("Rows per page");

  /** The `per_page` (or SCIM `count`) of every list request `path` sent while `act` ran. */
  async function sizesAsked(path, key, act) {
    const asked = [];
    const note = (request) => {
      const url = new URL(request.url());
      if (url.pathname === path) asked.push(url.searchParams.get(key));
    };
    page().on("request", note);
    try {
      await act();
    } finally {
      page().off("request", note);
    }
    return asked;
  }

  /** Until `count` sends rows are on screen. */
  async function sendsRows(count) {
    await page().locator(SENDS_ROWS).nth(count - 1).waitFor(VISIBLE);
    assert.equal(await page().locator(SENDS_ROWS).count(), count);
  }

  test("a size chosen on Sends comes back from the menu and after a reload, asked as chosen", async () => {
    await menu("Sends").click();
    await sendsRows(25);
    await size().selectOption("100");
    await page().waitForURL(/per_page=100/);
    await sendsRows(100);

    // Another list keeps its own size.
    await menu("Users").click();
    await page().waitForURL(/\/users$/);
    await page().locator("main table.users-table tbody tr").first().waitFor(VISIBLE);
    assert.equal(await size().inputValue(), "25");

    // Back through the menu, whose link names no size: the first page is asked at 100, never 25.
    const asked = await sizesAsked("/api/v3/send", "per_page", async () => {
      await menu("Sends").click();
      await page().waitForURL((url) => url.pathname === "/sends" && !url.search.includes("per_page"));
      await sendsRows(100);
    });
    assert.ok(asked.length > 0, "the sends were read");
    assert.deepEqual([...new Set(asked)], ["100"], `sizes asked: ${asked}`);
    assert.equal(await size().inputValue(), "100");

    await page().reload();
    await sendsRows(100);

    // The choice, and nothing else, in localStorage.
    const local = await page().evaluate(() => ({ ...localStorage }));
    assert.deepEqual(local, { "gifting-console.pref.page-size.sends": "100" });
  });

  test("the address wins over the remembered size", async () => {
    await page().goto(`${env.sandbox.url}/sends?per_page=10`);
    await sendsRows(10);
    assert.equal(await size().inputValue(), "10");
  });

  test("the users list remembers its SCIM count apart", async () => {
    await menu("Users").click();
    await page().waitForURL(/\/users$/);
    await page().locator("main table.users-table tbody tr").first().waitFor(VISIBLE);
    await size().selectOption("50");
    await page().waitForURL(/count=50/);
    await menu("Teams").click();
    await page().waitForURL(/\/teams$/);
    const asked = await sizesAsked("/api/scim/v2/Users", "count", async () => {
      await menu("Users").click();
      await page().waitForURL((url) => url.pathname === "/users" && !url.search.includes("count"));
      await page().locator("main table.users-table tbody tr").first().waitFor(VISIBLE);
    });
    assert.deepEqual([...new Set(asked)], ["50"], `counts asked: ${asked}`);
    assert.equal(await size().inputValue(), "50");
  });

  test("a stored value the console does not offer is ignored", async () => {
    await page().evaluate(() => localStorage.setItem("gifting-console.pref.page-size.sends", "7"));
    await page().goto(`${env.sandbox.url}/sends`);
    await sendsRows(25);
    assert.equal(await size().inputValue(), "25");
  });

  test("a view saved on Sends comes back by name from the menu and after a reload; renamed, then deleted", async () => {
    const views = () => page().getByRole("group", { name: "Saved views" });
    const picker = () => views().getByLabel("Saved views");
    await page().goto(`${env.sandbox.url}/sends`);
    await page().locator(SENDS_ROWS).first().waitFor(VISIBLE);
    await page().getByLabel("Status", { exact: true }).selectOption("problem");
    await page().waitForURL((url) => url.searchParams.get("status") === "problem");
    await views().getByRole("button", { name: "Save view" }).click();
    await views().getByLabel("View name").fill("   ");
    await views().getByRole("button", { name: "Save", exact: true }).click();
    await views().getByText("Give the view a name.").waitFor(VISIBLE);
    await views().getByLabel("View name").fill("Problems");
    await views().getByRole("button", { name: "Save", exact: true }).click();
    await views().getByRole("button", { name: "Rename" }).waitFor(VISIBLE);
    assert.equal(await picker().locator("option:checked").textContent(), "Problems", "the view on screen is the one saved");

    await menu("Users").click();
    await page().waitForURL((url) => url.pathname === "/users");
    await menu("Sends").click();
    await page().waitForURL((url) => url.pathname === "/sends" && !url.searchParams.has("status"));
    await page().reload();
    await picker().selectOption({ label: "Problems" });
    await page().waitForURL((url) => url.pathname === "/sends" && url.searchParams.get("status") === "problem");
    assert.equal(await page().getByLabel("Status", { exact: true }).inputValue(), "problem");

    await views().getByRole("button", { name: "Rename" }).click();
    await views().getByLabel("View name").fill("Problem sends");
    await views().getByRole("button", { name: "Save", exact: true }).click();
    await views().getByRole("button", { name: "Delete" }).waitFor(VISIBLE);
    assert.equal(await picker().locator("option:checked").textContent(), "Problem sends");
    const stored = await page().evaluate(() => localStorage.getItem("gifting-console.pref.views.sends"));
    assert.equal(stored, "Problem sends\tstatus=problem", "only the name and the filters are kept");

    await views().getByRole("button", { name: "Delete" }).click();
    await views().getByRole("button", { name: "Delete" }).waitFor({ state: "detached" });
    assert.equal(await page().evaluate(() => localStorage.getItem("gifting-console.pref.views.sends")), null);
    assert.equal(await picker().locator("option").count(), 1, "only the placeholder is left");
  });

  test("no errors", () => {
    assert.deepEqual(unexpectedErrors(page()), []);
  });
});
