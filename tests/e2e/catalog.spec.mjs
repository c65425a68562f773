// The gift catalog, driven in a real Chromium against the real
// sandbox. Expected products come from the sandbox's own API (walked from node
// with the page's access token), never from hard-coded lists or counts.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  VISIBLE,
  consoleFixture,
  localMoney,
  newPage,
  painted,
  requestDone,
  sessionToken,
  signIn,
  unexpectedErrors as unexpectedErrorsOf,
} from "./harness.mjs";

const PRODUCTS = "/api/v3/marketplace/products";
const END = /You've reached the end: (\d+) products?/;

/**
 * Every loaded product's id, in the grid's order. The grid mounts only the cards near the
 * viewport, so this scrolls from the top to the end a screen at a time and reads each card's
 * place (`aria-posinset`); a place no card ever showed stays a hole, which fails the
 * comparison it feeds. Leaves the page scrolled to the end.
 */
async function idsByScrolling(page) {
  return page.evaluate(async () => {
    const grid = document.querySelector("[data-testid=product-grid]");
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const ids = [];
    window.scrollTo(0, 0);
    await frames();
    for (let step = 0; step < 10_000; step++) {
      for (const li of grid.children) ids[Number(li.getAttribute("aria-posinset")) - 1] = li.dataset.productId;
      if (grid.getBoundingClientRect().bottom <= innerHeight) break;
      window.scrollBy(0, innerHeight);
      await frames();
    }
    return Array.from(ids, (id) => id ?? "(never shown)");
  });
}

describe("gift catalog", () => {
  // A hostile product name that ran as markup would open an alert: the fixture records any.
  const env = consoleFixture({ contextOptions: { viewport: { width: 1280, height: 800 } } });
  const cdnRequests = [];
  before(() => {
    env.page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/cdn/")) cdnRequests.push(url.pathname);
    });
  });

  /** The access token the console holds (sessionStorage). */
  function token(on = env.page) {
    return sessionToken(on);
  }

  /** One page of products from node, as the signed-in user. */
  async function productsPage(params) {
    const query = params.toString();
    const response = await fetch(`${env.sandbox.url}${PRODUCTS}${query ? `?${query}` : ""}`, {
      headers: { Authorization: `Bearer ${await token()}` },
    });
    assert.equal(response.status, 200, `GET ${PRODUCTS}?${query}`);
    return response.json();
  }

  /** Every product for these filters, following `pagination.after` to the end. */
  async function walk(filters = {}) {
    const products = [];
    let after = null;
    for (let pages = 0; pages < 100; pages++) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(filters)) {
        for (const v of [].concat(value)) params.append(key, String(v));
      }
      if (after) params.set("after", after);
      const body = await productsPage(params);
      products.push(...body.products);
      after = body.pagination.after;
      if (!after) return { products, categories: body.categories };
    }
    throw new Error("the sandbox's cursor never ended");
  }

  const cards = () => env.page.locator("[data-testid=product-grid] > li.product-card");
  const cardIds = () => cards().evaluateAll((els) => els.map((el) => el.dataset.productId));
  const summary = () => env.page.locator("[data-testid=catalog-summary]");
  /** Every loaded product's id in order: the grid mounts a window of cards, so this scrolls it. */
  const loadedIds = () => idsByScrolling(env.page);

  /** Browser errors other than the HTTP failures a test causes on purpose. */
  function unexpectedErrors(on = env.page) {
    return unexpectedErrorsOf(on);
  }

  async function openCatalog(query = "") {
    await env.page.goto(`${env.sandbox.url}/catalog${query}`);
    await env.page.getByRole("heading", { name: "Catalog", level: 1 }).waitFor(VISIBLE);
  }

  /** Clicks "Load more" until the end is stated; returns the stated total. */
  async function loadToEnd() {
    for (let i = 0; i < 40; i++) {
      const text = (await summary().textContent()) ?? "";
      const match = END.exec(text);
      if (match) return Number(match[1]);
      if (/No products match/.test(text)) return 0;
      // The same button says "Loading…" while its page loads (bringing it into view may
      // already start the next page: the sentinel sits just above it); either way a page comes
      // and the summary's count changes (the grid's mounted cards need not: it is windowed).
      const more = env.page.locator("button.catalog-more");
      if (await more.isVisible()) await more.click({ timeout: 5_000 }).catch(() => {});
      await env.page.waitForFunction(
        (before) => document.querySelector("[data-testid=catalog-summary]")?.textContent !== before,
        text,
        { timeout: 15_000 },
      );
    }
    throw new Error("the catalog never said it reached the end");
  }

  /** Waits for the first page of the current filters; its ids. */
  async function firstPageFor(expected) {
    await env.page.waitForFunction(
      (n) => document.querySelectorAll("[data-testid=product-grid] > li").length === n,
      Math.min(24, expected.length),
      { timeout: 15_000 },
    );
    assert.deepEqual(await cardIds(), expected.slice(0, 24));
  }

  /** Waits for the first answer of the current filters and loads the rest. */
  async function resultsFor(expectedCount) {
    await env.page.waitForFunction(
      (re) => new RegExp(re).test(document.querySelector("[data-testid=catalog-summary]")?.textContent ?? ""),
      END.source + "|No products match|more to come",
      { timeout: 15_000 },
    );
    const stated = await loadToEnd();
    assert.equal(stated, expectedCount);
    return loadedIds();
  }

  test("the first page shows 24 thumbnails that really loaded, from the thumbnail URLs", async () => {
    const first = await productsPage(new URLSearchParams());
    assert.equal(first.products.length, 24);
    cdnRequests.length = 0;
    await openCatalog();
    await env.page.waitForFunction(() => document.querySelectorAll("[data-testid=product-grid] > li").length === 24);
    await env.page.waitForFunction(
      () => {
        const imgs = [...document.querySelectorAll("[data-testid=product-grid] img")];
        return imgs.length === 24 && imgs.every((img) => img.complete && img.naturalWidth > 0);
      },
      null,
      { timeout: 15_000 },
    );
    assert.deepEqual(await cardIds(), first.products.map((p) => p.id), "the platform's order");

    const images = await cards().evaluateAll((els) =>
      els.map((el) => {
        const img = el.querySelector("img");
        return {
          src: img.getAttribute("src"),
          alt: img.getAttribute("alt"),
          width: img.getAttribute("width"),
          height: img.getAttribute("height"),
          loading: img.getAttribute("loading"),
          decoding: img.getAttribute("decoding"),
          natural: img.naturalWidth,
        };
      }),
    );
    first.products.forEach((product, i) => {
      const image = images[i];
      assert.equal(image.src, product.variants[0].images[0].cdn_thumbnail.url, `${product.id} shows its thumbnail`);
      assert.equal(image.alt, product.name);
      assert.ok(Number(image.width) > 0 && Number(image.height) > 0, "width and height reserve the space");
      assert.equal(image.loading, "lazy");
      assert.equal(image.decoding, "async");
      assert.ok(image.natural > 0);
    });
    // Names and price ranges, with currency.
    const firstCard = cards().first();
    await firstCard.getByRole("link", { name: first.products[0].name, exact: true }).waitFor(VISIBLE);
    // The card's first range is in the first variant's currency and starts at its lowest price.
    const prices = first.products[0].variants.map((v) => v.estimated_total_price);
    const { currency, price_per_unit: lowest } = prices
      .filter((p) => p.currency === prices[0].currency)
      .sort((a, b) => Number(a.price_per_unit) - Number(b.price_per_unit))[0];
    assert.ok((await firstCard.locator(".product-card__price").textContent()).startsWith(await localMoney(env.page, currency, lowest)));

    const fetched = [...new Set(cdnRequests)];
    assert.equal(fetched.filter((p) => /\/(main|original)\.svg$/.test(p)).length, 0, "no main or original images");
    assert.equal(fetched.filter((p) => p.endsWith("/thumb.svg")).length, 24, "exactly the first page's thumbnails");
    assert.match((await summary().textContent()) ?? "", /24 products shown/);
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("scrolling near the end loads the next page by itself", async () => {
    const { products } = await walk();
    await openCatalog();
    await env.page.waitForFunction(() => document.querySelectorAll("[data-testid=product-grid] > li").length === 24);
    await env.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await summary().getByText(/^(4[89]|[5-9]\d|\d{3,}) products shown/).waitFor(VISIBLE);
    const ids = await loadedIds();
    assert.deepEqual(ids.slice(0, 48), products.slice(0, 48).map((p) => p.id));
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("scrolling to the end states the total, every product once", async () => {
    const { products } = await walk();
    const total = products.length;
    assert.ok(total > 48, `the sandbox seeds several pages (${total})`);
    await openCatalog();
    for (let i = 0; i < 60 && !END.test((await summary().textContent()) ?? ""); i++) {
      const before = await summary().textContent();
      await env.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await env.page
        .waitForFunction((text) => document.querySelector("[data-testid=catalog-summary]")?.textContent !== text, before, {
          timeout: 5_000,
        })
        .catch(() => {});
    }
    const stated = END.exec((await summary().textContent()) ?? "");
    assert.ok(stated, "the end of the catalog is stated");
    assert.equal(Number(stated[1]), total);
    const ids = await loadedIds();
    assert.equal(ids.length, total);
    assert.equal(new Set(ids).size, ids.length, "no duplicates");
    assert.deepEqual(ids, products.map((p) => p.id));
    assert.equal(await env.page.getByRole("button", { name: "Load more", exact: true }).count(), 0);
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("a picture that fails falls back: main image, then original, then a placeholder", async () => {
    const first = await productsPage(new URLSearchParams());
    const [a, b, c] = first.products.slice(0, 3);
    const image = (p) => p.variants[0].images[0];
    const failing = new Set([
      image(a).cdn_thumbnail.url,
      image(b).cdn_thumbnail.url,
      image(b).cdn_main.url,
      image(c).cdn_thumbnail.url,
      image(c).cdn_main.url,
      image(c).url,
    ]);
    await env.page.route("**/cdn/**", (route) =>
      failing.has(route.request().url()) ? route.fulfill({ status: 404, body: "No such image." }) : route.continue(),
    );
    try {
      await openCatalog();
      const loaded = (product, src) =>
        env.page.waitForFunction(
          ([id, want]) => {
            const img = document.querySelector(`li.product-card[data-product-id="${id}"] img`);
            return img && img.getAttribute("src") === want && img.complete && img.naturalWidth > 0;
          },
          [product.id, src],
          { timeout: 15_000 },
        );
      await loaded(a, image(a).cdn_main.url);
      await loaded(b, image(b).url);
      const placeholder = env.page.locator(`li.product-card[data-product-id="${c.id}"] .image-placeholder`);
      await placeholder.waitFor(VISIBLE);
      assert.equal(await placeholder.getAttribute("role"), "img");
      assert.equal(await placeholder.getAttribute("aria-label"), c.name);
      assert.equal(await env.page.locator(`li.product-card[data-product-id="${c.id}"] img`).count(), 0);
    } finally {
      await env.page.unroute("**/cdn/**");
    }
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("a page that fails says so, and Try again loads it from the same cursor", async () => {
    const { products } = await walk();
    let failures = 0;
    await env.page.route(`**${PRODUCTS}?*`, (route) => {
      if (new URL(route.request().url()).searchParams.get("after") && failures === 0) {
        failures++;
        return route.fulfill({
          status: 400,
          contentType: "application/json",
          body: JSON.stringify({ message: "The after cursor is not one this catalog issued." }),
        });
      }
      return route.continue();
    });
    try {
      await openCatalog();
      await env.page.waitForFunction(() => document.querySelectorAll("[data-testid=product-grid] > li").length === 24);
      await env.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const alert = env.page.locator(".catalog-footer [role=alert]");
      await alert.getByText("The after cursor is not one this catalog issued.").waitFor(VISIBLE);
      assert.equal(await cards().count(), 24, "what was loaded stays");
      await alert.getByRole("button", { name: "Try again" }).click();
      await summary().getByText("48 products shown").waitFor(VISIBLE);
      assert.deepEqual((await loadedIds()).slice(0, 48), products.slice(0, 48).map((p) => p.id));
      assert.equal(failures, 1);
    } finally {
      await env.page.unroute(`**${PRODUCTS}?*`);
    }
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("text search narrows the catalog and survives a reload", async () => {
    const all = await walk();
    // A word from a product name that not every product has.
    const word = all.products[2].name.split(" ")[0];
    const expected = (await walk({ text_search: word })).products.map((p) => p.id);
    assert.ok(expected.length > 0 && expected.length < all.products.length, `"${word}" narrows`);

    await openCatalog();
    await env.page.getByLabel("Search").fill(word);
    await env.page.getByRole("button", { name: "Apply filters" }).click();
    await env.page.waitForURL((url) => url.searchParams.get("text_search") === word);
    assert.deepEqual(await resultsFor(expected.length), expected);

    await env.page.reload();
    await firstPageFor(expected);
    assert.equal(await env.page.getByLabel("Search").inputValue(), word);
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("price bounds are validated, narrow the catalog and survive a reload", async () => {
    const all = await walk();
    await openCatalog();
    const min = env.page.getByLabel("Minimum");
    const max = env.page.getByLabel("Maximum");
    const apply = env.page.getByRole("button", { name: "Apply filters" });

    await min.fill("12.50");
    await apply.click();
    await env.page.locator("#catalog-min-price-error").getByText(/whole number/).waitFor(VISIBLE);
    assert.equal(await min.getAttribute("aria-invalid"), "true");
    await min.fill("150");
    await max.fill("40");
    await apply.click();
    await env.page.locator("#catalog-max-price-error").getByText(/at least the minimum/).waitFor(VISIBLE);
    assert.equal(new URL(env.page.url()).search, "", "nothing applied while the prices are wrong");

    const expected = (await walk({ price_gte_usd: 40, price_lte_usd: 60 })).products.map((p) => p.id);
    assert.ok(expected.length > 0 && expected.length < all.products.length, "40–60 USD narrows");
    await min.fill("40");
    await max.fill("60");
    await apply.click();
    await env.page.waitForURL((url) => url.searchParams.get("price_gte_usd") === "40" && url.searchParams.get("price_lte_usd") === "60");
    assert.equal(await env.page.locator("#catalog-max-price-error").textContent(), "");
    assert.deepEqual(await resultsFor(expected.length), expected);

    await env.page.reload();
    await firstPageFor(expected);
    assert.equal(await env.page.getByLabel("Minimum").inputValue(), "40");
    assert.equal(await env.page.getByLabel("Maximum").inputValue(), "60");
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("a ship-to country narrows the catalog and survives a reload", async () => {
    const all = await walk();
    const expected = (await walk({ "ship_to_country_codes[]": "IE" })).products.map((p) => p.id);
    assert.ok(expected.length > 0 && expected.length < all.products.length, "Ireland narrows");

    await openCatalog();
    await env.page.getByLabel("Country", { exact: true }).selectOption("IE");
    assert.match(await env.page.locator("#catalog-country option:checked").textContent(), /^Ireland \(IE\)$/);
    await env.page.getByRole("button", { name: "Add country" }).click();
    await env.page.waitForURL((url) => url.searchParams.getAll("ship_to_country_codes[]").join() === "IE");
    await env.page.getByRole("button", { name: "Remove Ireland (IE)" }).waitFor(VISIBLE);
    assert.deepEqual(await resultsFor(expected.length), expected);

    await env.page.reload();
    await firstPageFor(expected);
    await env.page.getByRole("button", { name: "Remove Ireland (IE)" }).click();
    await env.page.waitForURL((url) => url.search === "");
    await env.page.waitForFunction(() => document.querySelectorAll("[data-testid=product-grid] > li").length === 24);
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("an address with more filters than a query takes keeps what fits and says so", async () => {
    // 301 country codes, one more than the platform reads: the first 300 apply, the search too.
    const codes = Array.from({ length: 301 }, (_, i) => `ship_to_country_codes[]=${i === 0 ? "IE" : `Z${i}`}`).join("&");
    await env.page.goto(`${env.sandbox.url}/catalog?text_search=a&${codes}`);
    await env.page.getByTestId("catalog-address-beyond").getByText("at most 300", { exact: false }).waitFor(VISIBLE);
    assert.equal(await env.page.getByLabel("Search", { exact: true }).inputValue(), "a", "the search is kept");
    await env.page.getByRole("button", { name: "Remove Ireland (IE)" }).waitFor(VISIBLE);
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("a category checkbox narrows the catalog and survives a reload", async () => {
    const all = await walk();
    const group = all.categories[1];
    const category = group.children[0];
    const expected = (await walk({ "category_ids[]": category.id })).products.map((p) => p.id);
    assert.ok(expected.length > 0 && expected.length < all.products.length, `${category.name} narrows`);

    await openCatalog();
    // Grouped in fieldsets whose legend is the group's name.
    const fieldset = env.page.getByRole("group", { name: group.group_name, exact: true });
    await fieldset.waitFor(VISIBLE);
    assert.equal(await fieldset.getByRole("checkbox").count(), group.children.length);
    await fieldset.getByRole("checkbox", { name: category.name, exact: true }).check();
    await env.page.waitForURL((url) => url.searchParams.getAll("category_ids[]").join() === category.id);
    assert.deepEqual(await resultsFor(expected.length), expected);

    await env.page.reload();
    await firstPageFor(expected);
    assert.ok(await env.page.getByRole("checkbox", { name: category.name, exact: true }).isChecked());
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("a newer filter's answer is never overwritten by an older one", async () => {
    const all = await walk();
    const group = all.categories[0];
    const [a, b] = group.children;
    const expected = (await walk({ "category_ids[]": [a.id, b.id] })).products.map((p) => p.id);
    // Hold back the answer for the first filter until the second has landed.
    let releaseFirst;
    let first;
    const held = new Promise((resolve) => (releaseFirst = resolve));
    await env.page.route(`**${PRODUCTS}?*`, async (route) => {
      const url = new URL(route.request().url());
      const ids = url.searchParams.getAll("category_ids[]");
      if (ids.length === 1 && ids[0] === a.id && !url.searchParams.get("after")) {
        first = route.request();
        await held;
        return route.continue().catch(() => {});
      }
      return route.continue();
    });
    try {
      await openCatalog();
      const fieldset = env.page.getByRole("group", { name: group.group_name, exact: true });
      await fieldset.getByRole("checkbox", { name: a.name, exact: true }).check();
      await env.page.waitForURL((url) => url.searchParams.getAll("category_ids[]").length === 1);
      await fieldset.getByRole("checkbox", { name: b.name, exact: true }).check();
      await env.page.waitForURL((url) => url.searchParams.getAll("category_ids[]").length === 2);
      await env.page.waitForFunction(
        (n) => document.querySelectorAll("[data-testid=product-grid] > li").length === n,
        Math.min(24, expected.length),
      );
      releaseFirst();
      // The older answer reached the page (or the page had given up on it) and would be painted.
      assert.ok(first, "the first filter's request was held");
      await requestDone(first);
      await painted(env.page);
      assert.deepEqual(await resultsFor(expected.length), expected);
    } finally {
      releaseFirst();
      await env.page.unroute(`**${PRODUCTS}?*`);
    }
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("hostile product names render as text and run nothing", async () => {
    const hostile = (await walk({ text_search: "onerror" })).products;
    const script = (await walk({ text_search: "<script>" })).products;
    assert.ok(hostile.some((p) => p.name === "<img src=x onerror=alert(1)>"), "the sandbox seeds a hostile name");
    assert.ok(script.some((p) => p.name.includes("<script>")), "the sandbox seeds a <script> name");

    for (const [needle, products] of [["onerror", hostile], ["<script>", script]]) {
      await openCatalog(`?text_search=${encodeURIComponent(needle)}`);
      await resultsFor(products.length);
      for (const product of products) {
        const card = env.page.locator(`li.product-card[data-product-id="${product.id}"]`);
        assert.equal(await card.locator(".product-card__name").textContent(), product.name);
      }
    }
    // Open the <img> one: its name is text in the dialog too.
    const product = hostile.find((p) => p.name.startsWith("<img"));
    await openCatalog("?text_search=onerror");
    await env.page.locator(`li.product-card[data-product-id="${product.id}"] a`).click();
    const dialog = env.page.getByRole("dialog");
    await dialog.getByRole("heading", { name: product.name, exact: true }).waitFor(VISIBLE);
    assert.equal(await env.page.locator('img[src="x"]').count(), 0, "no element was made from the name");
    assert.equal(await env.page.locator("main script").count(), 0);
    assert.deepEqual(env.page.dialogs, [], "no alert ran");
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("a product opens in a dialog with its own address, and closes back to the grid", async () => {
    const { products } = await walk();
    const product = products[5];
    await openCatalog();
    await env.page.waitForFunction(() => document.querySelectorAll("[data-testid=product-grid] > li").length === 24);
    await env.page.getByRole("link", { name: product.name, exact: true }).click();
    await env.page.waitForURL(`${env.sandbox.url}/catalog/${product.id}`);
    const dialog = env.page.getByRole("dialog");
    await dialog.getByRole("heading", { name: product.name, exact: true }).waitFor(VISIBLE);
    assert.equal(await dialog.locator(".product-detail__description").textContent(), product.description || "No description.");
    const variants = dialog.locator("li.variant");
    assert.equal(await variants.count(), product.variants.length);
    await env.page.waitForFunction(
      () => [...document.querySelectorAll("dialog li.variant img")].every((img) => img.complete && img.naturalWidth > 0),
      null,
      { timeout: 15_000 },
    );
    for (const [i, variant] of product.variants.entries()) {
      const item = variants.nth(i);
      assert.equal(await item.locator("img").getAttribute("src"), variant.images[0].cdn_main.url);
      const price = variant.estimated_total_price;
      assert.equal(await item.locator(".variant__price").textContent(), await localMoney(env.page, price.currency, price.price_per_unit));
    }
    await dialog.getByRole("button", { name: "Close" }).click();
    await env.page.waitForURL(`${env.sandbox.url}/catalog`);
    assert.equal(await env.page.getByRole("dialog").count(), 0);
    assert.equal(await cards().count(), 24, "the grid stayed loaded");

    // The keyboard path: Enter opens it, Escape closes it, focus returns to the card's link.
    const link = env.page.getByRole("link", { name: product.name, exact: true });
    await link.focus();
    await env.page.keyboard.press("Enter");
    await env.page.getByRole("dialog").waitFor(VISIBLE);
    assert.ok(await env.page.getByRole("dialog").evaluate((d) => d.contains(document.activeElement)), "focus moves into the dialog");
    await env.page.keyboard.press("Escape");
    await env.page.waitForURL(`${env.sandbox.url}/catalog`);
    assert.equal(await env.page.getByRole("dialog").count(), 0);
    assert.equal(await env.page.evaluate(() => document.activeElement?.textContent), product.name);
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("a product address opened cold is found by walking pages, or said not found", async () => {
    const { products } = await walk();
    const deep = products[60]; // on the third page
    await env.page.goto(`${env.sandbox.url}/catalog/${deep.id}`);
    await env.page.getByRole("dialog").getByRole("heading", { name: deep.name, exact: true }).waitFor(VISIBLE);

    // Not found: said once the pages of the address's filters are walked to the end.
    const category = (await walk()).categories[0].children[0];
    await env.page.goto(`${env.sandbox.url}/catalog/prd_does_not_exist?category_ids%5B%5D=${category.id}`);
    const dialog = env.page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Product not found" }).waitFor(VISIBLE);
    assert.match(await dialog.textContent(), /with the current filters/);
    await dialog.getByRole("link", { name: "Look for it in the whole catalog" }).waitFor(VISIBLE);
    assert.deepEqual(unexpectedErrors(), []);
  });

  test("a session without the marketplace scope gets an explanation, not an error", async () => {
    const config = await (await fetch(`${env.sandbox.url}/config.json`)).json();
    const other = await newPage(env.browser);
    const productRequests = [];
    other.on("request", (r) => {
      if (r.url().includes(PRODUCTS)) productRequests.push(r.url());
    });
    await other.route("**/config.json", (route) =>
      route.fulfill({ contentType: "application/json", body: JSON.stringify({ ...config, scope: "scim" }) }),
    );
    try {
      await signIn(other, env.sandbox.url);
      await other.goto(`${env.sandbox.url}/catalog`);
      const explanation = other.locator("[data-testid=missing-scope]");
      await explanation.waitFor(VISIBLE);
      const text = await explanation.textContent();
      assert.match(text, /needs the \u201cmarketplace\u201d scope/);
      assert.match(text, /granted \u201cscim\u201d/);
      assert.match(text, /administrator must sign in/);
      assert.equal(productRequests.length, 0, "no request that is bound to fail");

      // The platform's own 403 (the token lacks the scope although the session claims it).
      const granted = await other.evaluate(() => JSON.parse(sessionStorage.getItem("gifting-console.session")).scope);
      assert.equal(granted, "scim");
      const check = await fetch(`${env.sandbox.url}${PRODUCTS}`, { headers: { Authorization: `Bearer ${await token(other)}` } });
      assert.equal(check.status, 403);
      assert.match(check.headers.get("www-authenticate") ?? "", /insufficient_scope/);
      await other.evaluate(() => {
        const session = JSON.parse(sessionStorage.getItem("gifting-console.session"));
        session.scope = "scim marketplace";
        sessionStorage.setItem("gifting-console.session", JSON.stringify(session));
      });
      await other.reload();
      await explanation.waitFor(VISIBLE);
      assert.match(await explanation.textContent(), /refused the catalog request/);
      assert.equal(await other.locator("main").getByText(/HTTP 403|insufficient_scope"/).count(), 0);
      assert.deepEqual(unexpectedErrors(other), []);
    } finally {
      await other.context().close();
    }
  });
});
