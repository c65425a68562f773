// The task of each screen starts within the first screen, on a laptop (1280×800) and
// on a phone (390×844), where the header and navigation stay compact.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, newPage, signIn, watchRequests } from "./harness.mjs";

/** Each screen and the first thing of its task: a table's first row, the catalog's first card. */
const SCREENS = [
  ["/users", "main table tbody tr"],
  // A hundred users: among them the one whose family name is a 200-letter word.
  ["/users?count=100", "main table tbody tr"],
  ["/teams", "main table tbody tr"],
  ["/sends", "main table.sends-table tbody tr"],
  ["/campaigns", "main table tbody tr"],
  ["/catalog", "main .product-card"],
];

describe("layout for the task", () => {
  const env = consoleFixture({ page: false });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width}×${viewport.height} every screen's task starts in the first screen`, async () => {
      const page = await newPage(env.browser, { viewport });
      await signIn(page, env.sandbox.url);
      for (const [path, first] of SCREENS) {
        await page.goto(`${env.sandbox.url}${path}`);
        const item = page.locator(first).first();
        await item.waitFor(VISIBLE);
        const top = await item.evaluate((el) => el.getBoundingClientRect().top);
        assert.ok(top < viewport.height - 40, `${path}: the first row starts at ${Math.round(top)} px, in a ${viewport.height} px window`);
        // A wide table scrolls in its own frame; the page itself never pans sideways.
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= viewport.width, `${path}: the page is ${width} px wide in a ${viewport.width} px window`);
      }
      // Home: its answer in the first screen, and nothing of the groups that need attention
      // (the status beside each name) beyond the window's right edge.
      await page.goto(env.sandbox.url);
      const summary = page.locator("[data-testid=summary] li[data-kind=attention-this-month]");
      await summary.waitFor(VISIBLE);
      const bottom = await page.getByTestId("summary").evaluate((el) => el.getBoundingClientRect().bottom);
      assert.ok(bottom <= viewport.height, `home: the summary ends at ${Math.round(bottom)} px, in a ${viewport.height} px window`);
      const status = page.locator("[data-testid=budget-table] tbody tr th .badge").first();
      await status.waitFor(VISIBLE);
      const right = await status.evaluate((el) => el.getBoundingClientRect().right);
      assert.ok(right <= viewport.width, `home: the first group's status ends at ${Math.round(right)} px, in a ${viewport.width} px window`);
      if (viewport.width >= 1280) {
        const [scroll, box] = await page.getByTestId("budget-table").evaluate((t) => [t.parentElement.scrollWidth, t.parentElement.clientWidth]);
        assert.ok(scroll <= box + 1, `home: the budget table is ${scroll} px wide in a ${box} px box`);
      }
      const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(pageWidth <= viewport.width, `home: the page is ${pageWidth} px wide, no sideways scroll`);
      // The header and the navigation together: at most a seventh of a phone's height.
      const frame = await page.evaluate(() => document.querySelector("nav.main-nav").getBoundingClientRect().bottom);
      assert.ok(frame <= viewport.height / 7, `header and navigation end at ${Math.round(frame)} px`);
      await page.context().close();
    });
  }
});

describe("the navigation on a phone", () => {
  const env = consoleFixture({ page: false });

  test("at 390×844 the screens are behind Menu, every one reachable; Search and Preferences beside it", async () => {
    const page = await newPage(env.browser, { viewport: { width: 390, height: 844 } });
    await signIn(page, env.sandbox.url);
    const nav = page.getByRole("navigation", { name: "Main" });
    const button = nav.getByRole("button", { name: "Menu" });
    await button.waitFor(VISIBLE);
    assert.equal(await button.getAttribute("aria-expanded"), "false");
    assert.ok(!(await nav.getByRole("link", { name: "Sends", exact: true }).isVisible()), "folded away until asked for");
    await button.click();
    const links = await nav.getByRole("link").evaluateAll((as) => as.filter((a) => a.offsetParent).map((a) => a.textContent));
    assert.deepEqual(links, ["Users", "Import users", "Teams", "Sends", "Campaigns", "Catalog"]);
    for (const name of links) {
      const box = await nav.getByRole("link", { name, exact: true }).boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= 390, `${name} is inside the window`);
    }
    await nav.getByRole("link", { name: "Campaigns", exact: true }).click();
    await page.waitForURL(/\/campaigns$/);
    await page.locator("main table tbody tr").first().waitFor(VISIBLE);
    assert.equal(await button.getAttribute("aria-expanded"), "false", "going to a screen closes the menu");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `the page is ${width} px wide`);

    const tools = await nav.getByRole("button").evaluateAll((bs) => bs.map((b) => [b.textContent, b.getBoundingClientRect().right]));
    assert.deepEqual(tools.map(([text]) => text), ["Menu", "Search", "Preferences"]);
    assert.ok(tools.every(([, right]) => right <= 390), `the tools fit the window: ${JSON.stringify(tools)}`);
    await nav.getByRole("button", { name: "Search" }).click();
    await page.getByRole("combobox", { name: /a screen, a user/i }).waitFor(VISIBLE);
    await page.waitForFunction(() => document.activeElement?.id === "palette-input");
    await page.keyboard.press("Escape");
    await nav.getByRole("button", { name: "Preferences" }).click();
    await page.getByTestId("preferences").getByRole("radio", { name: "Dark" }).waitFor(VISIBLE);
    await page.keyboard.press("Escape");

    // No word broken inside on a phone: an email stays on one line (the table scrolls in its frame).
    await nav.getByRole("button", { name: "Menu" }).click();
    await nav.getByRole("link", { name: "Users", exact: true }).click();
    const email = page.locator("main table.users-table tbody tr td").filter({ hasText: "@" }).first();
    await email.waitFor(VISIBLE);
    const lines = await email.evaluate((td) => {
      const range = document.createRange();
      range.selectNodeContents(td);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    assert.equal(lines, 1, `the email ${await email.textContent()} is on ${lines} lines`);
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(pageWidth <= 390, `/users is ${pageWidth} px wide`);
    await page.context().close();
  });
});

describe("dense lists on a laptop", () => {
  const env = consoleFixture({ page: false });

  test("at 1280×800 Sends and Users show at least 12 whole rows, one line each, the first above y = 300", async () => {
    const page = await newPage(env.browser, { viewport: { width: 1280, height: 800 } });
    await signIn(page, env.sandbox.url);
    const requests = watchRequests(page);
    for (const [path, rows] of [
      ["/sends", "main table.sends-table tbody tr[data-send-id]"],
      ["/users", "main table.users-table tbody tr"],
    ]) {
      await page.goto(`${env.sandbox.url}${path}`);
      await page.locator(rows).nth(11).waitFor(VISIBLE);
      // Late pieces (the header's profile, the filters' choices) have come and are painted.
      await requests.quiet();
      const seen = await page.evaluate((selector) => {
        const boxes = [...document.querySelectorAll(selector)].map((row) => row.getBoundingClientRect());
        const whole = boxes.filter((b) => b.top >= 0 && b.bottom <= innerHeight);
        return { first: boxes[0].top, whole: whole.length, tallest: Math.max(...whole.map((b) => b.height)) };
      }, rows);
      assert.ok(seen.first < 300, `${path}: the first row starts at ${Math.round(seen.first)} px`);
      assert.ok(seen.whole >= 12, `${path}: ${seen.whole} whole rows in the window`);
      // One line of text and its padding: a row that wraps is half as tall again.
      assert.ok(seen.tallest <= 44, `${path}: a row is ${Math.round(seen.tallest)} px tall`);
      // Scrolled down the list, its header stays at the window's top, above the rows.
      await page.locator(rows).nth(20).scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, 200));
      await page.waitForFunction(() => window.scrollY > 300);
      const header = await page.evaluate((selector) => {
        const th = document.querySelector(selector.replace(/ tbody tr.*$/, " thead th:last-child"));
        const { top, bottom } = th.getBoundingClientRect();
        const under = document.elementFromPoint(th.getBoundingClientRect().left + 5, (top + bottom) / 2);
        return { top, onTop: th.contains(under) };
      }, rows);
      assert.ok(Math.abs(header.top) <= 1 && header.onTop, `${path}: the header sticks at ${JSON.stringify(header)}`);
    }
    await page.context().close();
  });
});

describe("no layout shift while screens load (--latency-ms 300)", () => {
  const env = consoleFixture({ page: false, sandboxArgs: ["--latency-ms", "300"] });

  test("the layout shifts of /sends, /catalog and /users each add up to under 0.05", async () => {
    const page = await newPage(env.browser, { viewport: { width: 1280, height: 800 } });
    // Every shift not caused by input, from the very start of each page load.
    await page.addInitScript(() => {
      window.__shifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts.push(entry.value);
      }).observe({ type: "layout-shift", buffered: true });
    });
    await signIn(page, env.sandbox.url);
    const requests = watchRequests(page);
    for (const [path, done] of [
      ["/sends", "main table.sends-table tbody tr"],
      ["/catalog", "main .product-card"],
      ["/users", "main table tbody tr"],
    ]) {
      await page.goto(`${env.sandbox.url}${path}`);
      await page.locator(done).first().waitFor(VISIBLE);
      // The header's profile and late pieces arrive after the first rows: every answer the
      // screen asked for has come and is painted.
      await requests.quiet();
      const shifts = await page.evaluate(() => window.__shifts);
      const sum = shifts.reduce((a, b) => a + b, 0);
      assert.ok(sum < 0.05, `${path}: layout shift ${sum.toFixed(3)} (${shifts.length} shifts)`);
    }
    await page.context().close();
  });
});
