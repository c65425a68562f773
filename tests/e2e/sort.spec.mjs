// Every table sorts by its columns (a click or Enter on the header), both ways, with
// aria-sort, and the sort in the address (shareable, kept on reload). Expected orders are worked
// out here from the sandbox's own answers, by value: dates by instant, money by amount within a
// currency (never as text), statuses and names by their words.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, byText, consoleFixture, platformGet, unexpectedErrors } from "./harness.mjs";

const order = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
/** The Sends screen's own text order (a fast fold for 100,000 rows): letters before case, by code point. */
const byFoldedText = (a, b) => order(a.toLowerCase(), b.toLowerCase()) || order(a, b);
/** Decimal text to a comparable BigInt of 1e-6 units (the sandbox's amounts have 2 decimals). */
const units = (text) => {
  const [whole, frac = ""] = String(text).replace("-", "").split(".");
  const value = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, "0"));
  return String(text).startsWith("-") ? -value : value;
};
/** Money: currency first, then value within it. */
const byMoney = (a, b) => order(a.currency, b.currency) || order(units(a.current_total_cost), units(b.current_total_cost));

/** Sorted copy, stable, descending when asked. */
function sorted(items, compare, descending) {
  return items.map((item, i) => [item, i]).sort(([a, i], [b, j]) => (descending ? compare(b, a) : compare(a, b)) || i - j).map(([item]) => item);
}

describe("sortable tables", () => {
  const env = consoleFixture();

  /** Sorts by the header `label` (click, then Enter for the other way) and checks each order. */
  async function sortBoth({ table, label, key, rowKeys, expected }) {
    const { page } = env;
    const header = page.locator(`${table} thead th`).filter({ has: page.getByRole("link", { name: label, exact: true }) });
    await header.getByRole("link").click();
    await page.waitForURL(new RegExp(`[?&]sort=${key}(&|$)`));
    await page.waitForFunction(([sel, label]) => document.querySelector(sel)?.querySelector("th[aria-sort=ascending]")?.textContent.includes(label), [table, label]);
    assert.deepEqual(await rowKeys(), expected(false), `${label} ascending`);

    await header.getByRole("link").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/[?&]dir=desc(&|$)/);
    await page.waitForFunction(([sel, label]) => document.querySelector(sel)?.querySelector(`th[aria-sort=descending]`)?.textContent.includes(label), [table, label]);
    assert.deepEqual(await rowKeys(), expected(true), `${label} descending`);
    assert.equal(await page.evaluate(() => document.activeElement?.textContent ?? ""), await header.getByRole("link").textContent(), "focus stays on the header");

    await page.reload();
    await page.locator(`${table} tbody tr`).first().waitFor(VISIBLE);
    assert.equal(await header.getAttribute("aria-sort"), "descending", "kept after a reload");
    assert.deepEqual(await rowKeys(), expected(true), `${label} after reload`);
  }

  // The expected order is the platform's answer, sorted here.
  const PAGES = [
    {
      name: "users by email (text)",
      path: "/users",
      api: "/api/scim/v2/Users?startIndex=1&count=25",
      table: "main table.users-table",
      label: "Email",
      key: "email",
      cells: "td:nth-of-type(2)",
      expected: (body, desc) => sorted(body.Resources.map((u) => u.userName), byText, desc),
    },
    {
      // Teams sorts every group (they all fit in one read): a page of 100 holds the demo's all.
      name: "team groups by name (text), across every group",
      path: "/teams?per_page=100",
      api: "/api/v3/groups?page=1&per_page=100",
      table: "main table",
      label: "Name",
      key: "name",
      cells: "th",
      expected: (body, desc) => sorted(body.groups.map((g) => g.name), byText, desc),
    },
  ];
  for (const c of PAGES) {
    test(`${c.name}, both ways`, async () => {
      const { page, sandbox, token } = env;
      await page.goto(`${sandbox.url}${c.path}`);
      await page.locator("main table tbody tr").first().waitFor(VISIBLE);
      const { body } = await platformGet(sandbox.url, token, c.api);
      await sortBoth({
        ...c,
        rowKeys: () => page.locator(`${c.table} tbody tr ${c.cells}`).allTextContents(),
        expected: (desc) => c.expected(body, desc),
      });
    });
  }

  test("sends by cost (money by value) and by status, with the scope said", async () => {
    const { page, sandbox, token } = env;
    await page.goto(`${sandbox.url}/sends`);
    await page.locator("main table.sends-table tbody tr[data-send-id]").first().waitFor(VISIBLE);
    const sends = (await platformGet(sandbox.url, token, "/api/v3/send?page=1&per_page=25")).body.sends;
    const ids = () => page.locator("main table.sends-table tbody tr[data-send-id]").evaluateAll((rows) => rows.map((r) => r.dataset.sendId));
    // The rows compared as text would put "100.00" before "9.50": check the page has such a pair.
    const costs = sends.map((s) => s.current_total_cost);
    assert.ok(costs.some((a) => costs.some((b) => units(a) < units(b) && a > b)), "text order and value order differ here");
    await sortBoth({ table: "main table.sends-table", label: "Cost", key: "cost", rowKeys: ids, expected: (desc) => sorted(sends, byMoney, desc).map((s) => String(s.id)) });
    await page.getByTestId("sort-note").waitFor(VISIBLE);
    await sortBoth({ table: "main table.sends-table", label: "Status", key: "status", rowKeys: ids, expected: (desc) => sorted(sends, (a, b) => byFoldedText(a.status, b.status), desc).map((s) => String(s.id)) });
  });

  test("signing out from a sorted table shows the sign-in screen, no crash", async () => {
    const { page, sandbox } = env;
    await page.goto(`${sandbox.url}/teams?sort=name&dir=desc`);
    await page.locator("main table tbody tr").first().waitFor(VISIBLE);
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    assert.deepEqual(unexpectedErrors(page), []);
  });
});
