// What the admin chose stays chosen: the rows per page of each list are remembered on this
// browser (localStorage, the console's one store of preferences) across screens and reloads.
// The address still decides when it names a size, and nothing but the choice is kept.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { VISIBLE, consoleFixture, seriousAxeViolations, unexpectedErrors } from "./harness.mjs";

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

    // Back from another screen, the last filters come back by themselves; cleared, they stay
    // cleared, and the view brings them back by name.
    await menu("Users").click();
    await page().waitForURL((url) => url.pathname === "/users");
    await menu("Sends").click();
    await page().waitForURL((url) => url.pathname === "/sends" && url.searchParams.get("status") === "problem");
    await page().getByLabel("Status", { exact: true }).selectOption("");
    await page().waitForURL((url) => url.pathname === "/sends" && !url.searchParams.has("status"));
    await page().reload();
    await page().locator(SENDS_ROWS).first().waitFor(VISIBLE);
    assert.ok(!new URL(page().url()).searchParams.has("status"), "cleared filters stay cleared");
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

describe("remembered filters, columns and looks", () => {
  const env = consoleFixture();
  const page = () => env.page;
  const menu = (name) => page().getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });
  const headers = (table) =>
    page().locator(`main table.${table} thead th`).evaluateAll((ths) => ths.map((th) => th.textContent.replace(/[▲▼↕]/g, "").trim()));
  const stored = () => page().evaluate(() => ({ ...localStorage }));
  // The last filters are the tab's, for the session: never on the browser.
  const lastFilters = () => page().evaluate(() => ({ ...sessionStorage }));

  test("the users list opens again with its last filters; a link that names its own wins", async () => {
    await menu("Users").click();
    await page().locator("main table.users-table tbody tr").first().waitFor(VISIBLE);
    await page().getByLabel("Role", { exact: true }).selectOption("admin");
    await page().waitForURL((url) => url.searchParams.get("role") === "admin");
    await menu("Teams").click();
    await page().waitForURL(/\/teams$/);
    await menu("Users").click();
    await page().waitForURL((url) => url.pathname === "/users" && url.searchParams.get("role") === "admin");
    assert.equal(await page().getByLabel("Role", { exact: true }).inputValue(), "admin");
    assert.equal((await lastFilters())["gifting-console.pref.filters.users"], "role=admin");
    assert.equal((await stored())["gifting-console.pref.filters.users"], undefined, "not on the browser");

    await page().goto(`${env.sandbox.url}/users?status=inactive`);
    await page().waitForURL((url) => url.searchParams.get("status") === "inactive");
    await page().getByLabel("Status", { exact: true }).waitFor(VISIBLE);
    assert.ok(!new URL(page().url()).searchParams.has("role"), "the link's filters, not the last ones");
    await page().getByLabel("Status", { exact: true }).selectOption("");
    await page().waitForURL((url) => url.pathname === "/users" && url.search === "");
    await menu("Teams").click();
    await page().waitForURL(/\/teams$/);
    await menu("Users").click();
    await page().locator("main table.users-table tbody tr").first().waitFor(VISIBLE);
    assert.equal(new URL(page().url()).search, "", "cleared filters stay cleared");
  });

  test("a send opened from the palette is not joined by the list's last filters", async () => {
    await page().goto(`${env.sandbox.url}/sends`);
    await page().locator(SENDS_ROWS).first().waitFor(VISIBLE);
    const id = await page().locator(SENDS_ROWS).nth(2).getAttribute("data-send-id");
    await page().getByLabel("Status", { exact: true }).selectOption("problem");
    await page().waitForURL((url) => url.searchParams.get("status") === "problem");
    await menu("Teams").click();
    await page().waitForURL(/\/teams$/);
    await page().keyboard.press("Control+k");
    const box = page().getByRole("combobox", { name: /a screen, a user/i });
    await box.waitFor(VISIBLE);
    await box.fill(`#${id}`);
    const option = page().getByTestId("palette").getByRole("option").filter({ hasText: `Send #${id}` }).first();
    await option.waitFor(VISIBLE);
    const optionId = await option.getAttribute("id");
    for (let i = 0; i < 20 && (await box.getAttribute("aria-activedescendant")) !== optionId; i++) await page().keyboard.press("ArrowDown");
    await page().keyboard.press("Enter");
    await page().waitForURL((url) => url.pathname === "/sends" && url.searchParams.get("send") === id);
    await page().locator(`${SENDS_ROWS}[data-send-id="${id}"]`).waitFor(VISIBLE);
    assert.equal(new URL(page().url()).searchParams.get("status"), null, "only the send the link names");
    assert.equal((await lastFilters())["gifting-console.pref.filters.sends"], "status=problem", "the last filters are kept for later");
    // Back to the list from another screen: its last filters again.
    await menu("Teams").click();
    await page().waitForURL(/\/teams$/);
    await menu("Sends").click();
    await page().waitForURL((url) => url.pathname === "/sends" && url.searchParams.get("status") === "problem");
    await page().getByLabel("Status", { exact: true }).selectOption("");
    await page().waitForURL((url) => url.pathname === "/sends" && !url.searchParams.has("status"));
  });

  test("Sends' columns: hidden, moved, in the address, kept across screens and reloads, reset", async () => {
    await page().goto(`${env.sandbox.url}/sends`);
    await page().locator(SENDS_ROWS).first().waitFor(VISIBLE);
    const chooser = page().locator("main details.column-chooser");
    await chooser.locator("summary").click();
    await chooser.getByRole("checkbox", { name: "Type" }).click();
    await page().waitForURL((url) => url.searchParams.get("cols") === "created,recipient,sender,campaign,status,cost");
    // By keyboard: the focus stays on the button pressed, to press it again.
    await chooser.getByRole("button", { name: "Move Status up" }).focus();
    await page().keyboard.press("Enter");
    await page().waitForURL((url) => url.searchParams.get("cols") === "created,recipient,sender,status,campaign,cost");
    await page().waitForFunction(() => document.activeElement?.id === "sends-column-status-up");
    assert.deepEqual(await seriousAxeViolations(page()), [], "axe, with the chooser open");
    const chosen = ["Status history", "Created", "Recipient", "Sender", "Status", "Campaign", "Cost"];
    assert.deepEqual(await headers("sends-table"), chosen);
    // Every row has a cell per header; the row's status is in the fifth column.
    const cells = await page().locator(SENDS_ROWS).first().locator("td").count();
    assert.equal(cells, chosen.length);
    assert.ok(await page().locator(SENDS_ROWS).first().locator("td").nth(4).locator(".badge").count(), "the status cell moved with its header");

    await menu("Campaigns").click();
    await page().waitForURL(/\/campaigns$/);
    await menu("Sends").click();
    await page().waitForURL((url) => url.pathname === "/sends");
    await page().locator(SENDS_ROWS).first().waitFor(VISIBLE);
    assert.deepEqual(await headers("sends-table"), chosen, "remembered across screens");
    await page().reload();
    await page().locator(SENDS_ROWS).first().waitFor(VISIBLE);
    assert.deepEqual(await headers("sends-table"), chosen, "remembered across a reload");
    assert.equal((await stored())["gifting-console.pref.columns.sends"], "created,recipient,sender,status,campaign,cost");

    await chooser.locator("summary").click();
    await chooser.getByRole("button", { name: "Show every column" }).click();
    await page().waitForURL((url) => !url.searchParams.has("cols"));
    assert.deepEqual(await headers("sends-table"), ["Status history", "Created", "Recipient", "Sender", "Campaign", "Type", "Status", "Cost"]);
    assert.equal((await stored())["gifting-console.pref.columns.sends"], undefined);
  });

  test("Users' columns: the name stays first, the last shown column cannot be hidden", async () => {
    await page().goto(`${env.sandbox.url}/users`);
    await page().locator("main table.users-table tbody tr").first().waitFor(VISIBLE);
    const chooser = page().locator("main details.column-chooser");
    await chooser.locator("summary").click();
    for (const [name, left] of [["Email", "role,team,status"], ["Role", "team,status"], ["Team", "status"]]) {
      await chooser.getByRole("checkbox", { name }).click();
      await page().waitForURL((url) => url.searchParams.get("cols") === left);
    }
    await page().waitForURL((url) => url.searchParams.get("cols") === "status");
    assert.ok(await chooser.getByRole("checkbox", { name: "Status" }).isDisabled(), "one column is always shown");
    const shown = await headers("users-table");
    assert.deepEqual(shown.slice(1), ["Name", "Status"], `headers: ${shown}`);
    await chooser.getByRole("checkbox", { name: "Email" }).click();
    await page().waitForURL((url) => url.searchParams.get("cols") === "status,email");
    assert.deepEqual((await headers("users-table")).slice(1), ["Name", "Status", "Email"]);
  });

  test("Preferences: a dark theme and compact lists, kept across a reload; then forgotten", async () => {
    const preferences = () => page().getByTestId("preferences");
    const open = async () => {
      await page().getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Preferences" }).click();
      await preferences().getByRole("heading", { name: "Preferences" }).waitFor(VISIBLE);
    };
    await open();
    const root = () =>
      page().evaluate(() => ({
        theme: document.documentElement.dataset.theme,
        density: document.documentElement.dataset.density,
        background: getComputedStyle(document.documentElement).backgroundColor,
      }));
    await preferences().getByRole("radio", { name: "Dark" }).check();
    await preferences().getByRole("radio", { name: /^Compact/ }).check();
    assert.deepEqual(await root(), { theme: "dark", density: "compact", background: "rgb(13, 17, 23)" });
    assert.deepEqual(await seriousAxeViolations(page()), [], "axe, dark, with the dialog open");
    await preferences().getByRole("button", { name: "Close" }).click();
    await preferences().waitFor({ state: "hidden" });
    await page().reload();
    await page().locator("main h1").waitFor(VISIBLE);
    assert.deepEqual(await root(), { theme: "dark", density: "compact", background: "rgb(13, 17, 23)" });
    await open();
    assert.ok(await preferences().getByRole("radio", { name: "Dark" }).isChecked());
    await preferences().getByRole("button", { name: "Close" }).click();

    // Compact rows are shorter than comfortable ones.
    const rowHeight = async () => {
      await page().goto(`${env.sandbox.url}/users`);
      const row = page().locator("main table.users-table tbody tr").first();
      await row.waitFor(VISIBLE);
      return row.evaluate((tr) => tr.getBoundingClientRect().height);
    };
    const compact = await rowHeight();

    await open();
    await preferences().getByRole("button", { name: "Forget all of it" }).click();
    await preferences().getByTestId("forget-status").getByText(/^Forgotten/).waitFor(VISIBLE);
    const left = Object.keys({ ...(await stored()), ...(await lastFilters()) }).filter((k) => k.startsWith("gifting-console.pref."));
    assert.deepEqual(left, [], "nothing of the console's choices is left");
    assert.ok(await preferences().getByRole("radio", { name: "Match the system" }).isChecked());
    assert.equal((await root()).theme, "system");
    await page().keyboard.press("Escape");
    await preferences().waitFor({ state: "hidden" });
    const comfortable = await rowHeight();
    assert.ok(compact < comfortable, `compact rows ${compact} px, comfortable ${comfortable} px`);
  });

  test("no errors", () => {
    assert.deepEqual(unexpectedErrors(page()), []);
  });
});
