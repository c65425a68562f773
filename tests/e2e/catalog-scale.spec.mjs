// The gift catalog at scale, in a real Chromium against the real sandbox: a file of
// its own, so that node's per-file timeout bounds it apart from catalog.spec.mjs (scrolling
// 1,500 products takes most of a minute on a loaded machine).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, seriousAxeViolations, unexpectedErrors as unexpectedErrorsOf } from "./harness.mjs";

const PRODUCTS = "/api/v3/marketplace/products";

// A catalog of 1,500 products (63 pages, many windows' worth at 1280x800) scrolled,
// tabbed through and returned to; the expected order comes from the sandbox's own API.
describe("catalog at scale: windowed", () => {
  const TOTAL = 1_500;
  // At 1280x800 the grid is 5 cards a row and 3 rows a screen; the window is the viewport and
  // a screen each side (about 50 cards). 80 leaves room for a row more either side, and is
  // still a sixth of a thousand-card page.
  const BOUND = 80;
  const env = consoleFixture({
    sandboxArgs: ["--products", String(TOTAL)],
    contextOptions: { viewport: { width: 1280, height: 800 } },
  });
  const grid = () => env.page.locator("[data-testid=product-grid]");

  /** Every product's id in the platform's order, walked from node. */
  async function platformOrder() {
    const ids = [];
    let after = null;
    for (let pages = 0; pages < 200; pages++) {
      const query = after ? `?after=${encodeURIComponent(after)}` : "";
      const response = await fetch(`${env.sandbox.url}${PRODUCTS}${query}`, { headers: { Authorization: `Bearer ${env.token}` } });
      assert.equal(response.status, 200);
      const body = await response.json();
      ids.push(...body.products.map((p) => p.id));
      after = body.pagination.after;
      if (!after) return ids;
    }
    throw new Error("the sandbox's cursor never ended");
  }

  /** Opens the catalog at the top and counts, from then on, the most cards ever mounted. */
  async function openCatalog(query = "") {
    await env.page.goto(`${env.sandbox.url}/catalog${query}`);
    await grid().locator("li").first().waitFor(VISIBLE);
    await env.page.evaluate(() => {
      const g = document.querySelector("[data-testid=product-grid]");
      window.__mostCards = g.children.length;
      new MutationObserver(() => (window.__mostCards = Math.max(window.__mostCards, g.children.length))).observe(g, {
        childList: true,
      });
    });
  }
  const mostCards = () => env.page.evaluate(() => window.__mostCards);

  /**
   * Scrolls down half a screen every other frame until, in the page: `end`, the end of the
   * catalog is stated and in view; `past`, a card after place `n` is mounted; `shown`, at
   * least `n` products are loaded. (A predicate, not a function: the page's CSP allows no eval.)
   */
  async function scrollUntil(until, n = 0, timeout = 120_000) {
    await env.page.evaluate(
      async ([until, n, timeout]) => {
        const g = document.querySelector("[data-testid=product-grid]");
        const summary = document.querySelector("[data-testid=catalog-summary]");
        const done = () => {
          if (until === "end") return /reached the end/.test(summary.textContent) && g.getBoundingClientRect().bottom <= innerHeight;
          if (until === "past") return [...g.children].some((li) => Number(li.getAttribute("aria-posinset")) > n);
          return Number((/([\d,]+) products shown/.exec(summary.textContent)?.[1] ?? "0").replace(/,/g, "")) >= n;
        };
        const deadline = performance.now() + timeout;
        while (!done()) {
          if (performance.now() > deadline) throw new Error(`still not there: ${summary.textContent}`);
          window.scrollBy(0, innerHeight / 2);
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        }
      },
      [until, n, timeout],
    );
  }

  /** The mounted card wholly inside the viewport nearest its middle: its id and place. */
  function cardInView() {
    return env.page.evaluate(() => {
      const inside = [...document.querySelectorAll("[data-testid=product-grid] > li")].filter((li) => {
        const r = li.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight;
      });
      const li = inside[Math.floor(inside.length / 2)];
      return li && { id: li.dataset.productId, position: Number(li.getAttribute("aria-posinset")), top: li.getBoundingClientRect().top };
    });
  }

  /** Where the page is: its scroll offset, and the focused card's id (if a card's link has focus). */
  function place() {
    return env.page.evaluate(() => ({
      y: window.scrollY,
      focused: document.activeElement?.closest("li.product-card")?.dataset.productId ?? null,
    }));
  }

  test("scrolling through every product keeps a few screens of cards mounted, each product once, in order", async () => {
    const expected = await platformOrder();
    assert.equal(expected.length, TOTAL);
    await openCatalog();
    await env.page.evaluate(() => {
      window.__seen = [];
      const g = document.querySelector("[data-testid=product-grid]");
      const note = () => {
        for (const li of g.children) window.__seen[Number(li.getAttribute("aria-posinset")) - 1] = li.dataset.productId;
      };
      note();
      new MutationObserver(note).observe(g, { childList: true });
    });
    await scrollUntil("end");
    assert.match(await env.page.locator("[data-testid=catalog-summary]").textContent(), /reached the end: 1,?500 products/);
    const seen = await env.page.evaluate(() => Array.from(window.__seen, (id) => id ?? "(never mounted)"));
    assert.deepEqual(seen, expected, "every product mounted at its place, once");
    const most = await mostCards();
    assert.ok(most <= BOUND, `at most ${BOUND} cards mounted at once, saw ${most}`);
    assert.equal(await grid().locator("li").last().getAttribute("aria-setsize"), String(TOTAL));
    // The last row is the last of the platform's products, drawn where the grid ends.
    assert.equal(await grid().locator("li").last().getAttribute("data-product-id"), expected.at(-1));
    assert.deepEqual(unexpectedErrorsOf(env.page), []);
  });

  test("coming back from a product far down restores the place: Close, Escape and Back", async () => {
    await openCatalog();
    await scrollUntil("past", 600);
    const card = await cardInView();
    assert.ok(card.position > 550, `a card far down (${card.position})`);
    const link = env.page.locator(`li.product-card[data-product-id="${card.id}"] a`);
    const before = await place();

    const ways = [
      ["Close", () => env.page.getByRole("dialog").getByRole("button", { name: "Close" }).click()],
      ["Escape", () => env.page.keyboard.press("Escape")],
      ["Back", () => env.page.goBack()],
    ];
    for (const [way, close] of ways) {
      if (way === "Escape") {
        await link.focus();
        await env.page.keyboard.press("Enter");
      } else {
        await link.click();
      }
      await env.page.waitForURL(`${env.sandbox.url}/catalog/${card.id}`);
      await env.page.getByRole("dialog").getByRole("heading", { level: 2 }).waitFor(VISIBLE);
      await close();
      await env.page.waitForURL(`${env.sandbox.url}/catalog`);
      await env.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const after = await place();
      assert.ok(Math.abs(after.y - before.y) <= 1, `${way}: the page stays at ${before.y}, is at ${after.y}`);
      const again = await cardInView();
      assert.equal(again.id, card.id, `${way}: the same card in the middle of the view`);
      assert.ok(Math.abs(again.top - card.top) <= 1, `${way}: at the same height`);
      if (way !== "Back") assert.equal(after.focused, card.id, `${way}: focus back on the card's link`);
    }
    assert.ok((await mostCards()) <= BOUND);
    assert.deepEqual(unexpectedErrorsOf(env.page), []);
  });

  test("a product opened from its address far down: closing shows its card, focused", async () => {
    const expected = await platformOrder();
    const deep = expected[700];
    await env.page.goto(`${env.sandbox.url}/catalog/${deep}`);
    const dialog = env.page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Close" }).waitFor(VISIBLE);
    await dialog.locator("h2").filter({ hasNotText: "Looking for" }).waitFor({ ...VISIBLE, timeout: 60_000 });
    await dialog.getByRole("button", { name: "Close" }).click();
    await env.page.waitForURL(`${env.sandbox.url}/catalog`);
    const card = env.page.locator(`li.product-card[data-product-id="${deep}"]`);
    await card.waitFor(VISIBLE);
    await env.page.waitForFunction((id) => document.activeElement?.closest("li.product-card")?.dataset.productId === id, deep);
    const box = await card.evaluate((li) => li.getBoundingClientRect().toJSON());
    assert.ok(box.top >= 0 && box.bottom <= 800, `the card is in view (${box.top}..${box.bottom})`);
    assert.equal(await card.getAttribute("aria-posinset"), "701");
    assert.ok((await grid().locator("li").count()) <= BOUND);
    assert.deepEqual(unexpectedErrorsOf(env.page), []);
  });

  test("back from another screen: the same products at the same place, without loading them again", async () => {
    // Teams, then the catalog from the navigation, scrolled far down.
    await env.page.goto(`${env.sandbox.url}/teams`);
    const nav = env.page.locator("nav");
    await nav.getByRole("link", { name: "Catalog", exact: true }).click();
    await grid().locator("li").first().waitFor(VISIBLE);
    await scrollUntil("past", 700);
    const card = await cardInView();
    const requests = [];
    const onRequest = (r) => {
      if (r.url().includes(PRODUCTS)) requests.push(new URL(r.url()).searchParams.get("after"));
    };
    env.page.on("request", onRequest);
    try {
      // Leaving with the browser's Back (nothing scrolls first), and returning with Forward,
      // then with the navigation's link.
      for (const way of ["Forward", "the Catalog link"]) {
        await env.page.goBack();
        await env.page.waitForURL(`${env.sandbox.url}/teams`);
        await env.page.getByRole("heading", { name: "Teams", level: 1 }).waitFor(VISIBLE);
        if (way === "Forward") await env.page.goForward();
        else await nav.getByRole("link", { name: "Catalog", exact: true }).click();
        await env.page.waitForURL(`${env.sandbox.url}/catalog`);
        await env.page.waitForFunction(
          ([id, top]) => {
            const li = [...document.querySelectorAll("li.product-card")].find((el) => el.dataset.productId === id);
            return li && Math.abs(li.getBoundingClientRect().top - top) <= 2;
          },
          [card.id, card.top],
          { timeout: 10_000 },
        );
        assert.ok(!requests.includes(null), `${way}: the first page was not asked for again (${requests.length} product requests)`);
      }
    } finally {
      env.page.off("request", onRequest);
    }
    // A reload starts from the top (the loaded set went with the page).
    await env.page.reload();
    await grid().locator("li").first().waitFor(VISIBLE);
    assert.equal(await grid().locator("li").first().getAttribute("aria-posinset"), "1");
    assert.deepEqual(unexpectedErrorsOf(env.page), []);
  });

  test("a resize that changes the columns keeps the same products in view", async () => {
    await openCatalog();
    await scrollUntil("past", 500);
    const columns = () =>
      env.page.evaluate(() => getComputedStyle(document.querySelector("[data-testid=product-grid]")).gridTemplateColumns.split(" ").length);
    const wide = await columns();
    const card = await cardInView();
    for (const viewport of [{ width: 800, height: 800 }, { width: 1280, height: 800 }]) {
      await env.page.setViewportSize(viewport);
      await env.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
      const box = await env.page.evaluate(
        (id) => [...document.querySelectorAll("li.product-card")].find((li) => li.dataset.productId === id)?.getBoundingClientRect().toJSON() ?? null,
        card.id,
      );
      assert.ok(box && box.bottom > 0 && box.top < viewport.height, `at ${viewport.width} px, card ${card.position} still in view: ${JSON.stringify(box)}`);
    }
    assert.notEqual(wide, 0);
    await env.page.setViewportSize({ width: 800, height: 800 });
    assert.ok((await columns()) < wide, "the narrow viewport has fewer columns");
    await env.page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(unexpectedErrorsOf(env.page), []);
  });

  test("the keyboard walks card by card past the first window", async () => {
    await openCatalog();
    // Load five pages first, so every Tab below has a card to go to.
    await scrollUntil("shown", 120);
    await env.page.evaluate(() => window.scrollTo(0, 0));
    await grid().locator("li a").first().focus();
    for (let n = 2; n <= 100; n++) {
      await env.page.keyboard.press("Tab");
      const at = await env.page.evaluate(() => Number(document.activeElement?.closest("li.product-card")?.getAttribute("aria-posinset")));
      assert.equal(at, n, `Tab ${n - 1} moves to card ${n}`);
    }
    const focusedBox = await env.page.evaluate(() => document.activeElement.getBoundingClientRect().toJSON());
    assert.ok(focusedBox.top >= 0 && focusedBox.bottom <= 800, "the focused card is in view");
    assert.ok((await mostCards()) <= BOUND, `at most ${BOUND} cards mounted`);
    // The window's spacers and the cards' places (aria-posinset/-setsize) are sound markup.
    assert.deepEqual(await seriousAxeViolations(env.page), []);
    assert.deepEqual(unexpectedErrorsOf(env.page), []);
  });
});
