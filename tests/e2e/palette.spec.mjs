// The command palette (Ctrl-K): by keyboard alone to a screen, a user, a team group, a
// campaign, a send and a product, each found by what an admin would type; every target
// comes from the sandbox's own API.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, errorsOf, platformGet, scimUsers, seriousAxeViolations, signedInPage, unexpectedErrors } from "./harness.mjs";

async function apiGet(base, token, path) {
  const { status, body } = await platformGet(base, token, path);
  assert.equal(status, 200, `GET ${path}`);
  return body;
}

/** Opens the palette with Ctrl-K and waits for its box to have the focus. */
async function openPalette(page) {
  await page.keyboard.press("Control+k");
  const box = page.getByRole("combobox", { name: /a screen, a user/i });
  await box.waitFor(VISIBLE);
  await page.waitForFunction(() => document.activeElement?.id === "palette-input");
  return box;
}

/**
 * Types `text`, waits for an option whose text holds `wanted`, moves to it with the arrow keys
 * (checking the box says which option is active) and presses Enter.
 */
async function choose(page, text, wanted) {
  const box = await openPalette(page);
  await box.fill(text);
  const option = page.getByTestId("palette").getByRole("option").filter({ hasText: wanted }).first();
  await option.waitFor({ ...VISIBLE, timeout: 30_000 });
  const id = await option.getAttribute("id");
  for (let i = 0; i < 40 && (await box.getAttribute("aria-activedescendant")) !== id; i++) {
    await page.keyboard.press("ArrowDown");
  }
  assert.equal(await box.getAttribute("aria-activedescendant"), id, `${wanted} can be reached by the arrow keys`);
  assert.equal(await option.getAttribute("aria-selected"), "true");
  await page.keyboard.press("Enter");
  await page.getByTestId("palette").waitFor({ state: "hidden" });
}

describe("command palette", () => {
  const env = consoleFixture();
  let base;
  before(() => {
    base = env.sandbox.url;
  });

  test("Ctrl-K opens it over any screen; Escape closes it; the shortcuts list names it", async () => {
    const { page } = env;
    await page.goto(`${base}/sends`);
    await page.locator("tbody tr[data-send-id]").first().waitFor(VISIBLE);
    const box = await openPalette(page);
    assert.equal(await box.getAttribute("aria-expanded"), "true", "the screens are offered before anything is typed");
    assert.deepEqual(await seriousAxeViolations(page), []);
    await page.keyboard.press("Escape");
    await page.getByTestId("palette").waitFor({ state: "hidden" });
    await page.keyboard.press("Shift+Slash");
    const list = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await list.waitFor(VISIBLE);
    assert.match(await list.innerText(), /Ctrl K/);
    await page.keyboard.press("Escape");
    await list.waitFor({ state: "hidden" });
  });

  test("to a screen", async () => {
    const { page } = env;
    await choose(page, "camp", "Campaigns");
    await page.waitForURL((url) => url.pathname === "/campaigns");
  });

  test("to a user, by four letters from inside the family name", async () => {
    const { page } = env;
    const users = await scimUsers(base, env.token);
    const user = users.find((u) => (u.name?.familyName ?? "").length >= 6 && /^[a-z]+$/i.test(u.name.familyName));
    assert.ok(user, "a user with a plain family name");
    const fragment = user.name.familyName.slice(1, 5);
    await choose(page, fragment, user.userName);
    await page.waitForURL((url) => url.pathname === `/users/${user.id}`);
  });

  test("to a team group and to a campaign, by name", async () => {
    const { page } = env;
    const groups = await apiGet(base, env.token, "/api/v3/groups?page=1&per_page=100");
    const group = groups.groups.at(-1);
    await choose(page, group.name, group.name);
    await page.waitForURL((url) => url.pathname === `/teams/${group.id}`);
    const touches = await apiGet(base, env.token, "/api/v3/touches?page=1&per_page=100");
    const campaign = touches.touches.at(-1);
    await choose(page, campaign.name, campaign.name);
    await page.waitForURL((url) => url.pathname === `/campaigns/${campaign.id}`);
  });

  test("to a send by its number, read from the platform's pages until it is found", async () => {
    const { page } = env;
    // A send beyond the first pages, so the screen has to look for it.
    const sends = await apiGet(base, env.token, "/api/v3/send?page=3&per_page=100");
    const send = sends.sends.at(-1);
    await choose(page, `#${send.id}`, `Send #${send.id}`);
    await page.waitForURL((url) => url.pathname === "/sends" && url.searchParams.get("send") === String(send.id));
    await page.locator(`tbody tr[data-send-id="${send.id}"]`).waitFor({ ...VISIBLE, timeout: 60_000 });
    assert.equal(await page.locator("tbody tr[data-send-id]").count(), 1);
    await page.getByTestId("send-filter-id").getByText(`Only send #${send.id}.`).waitFor(VISIBLE);
    await page.getByTestId("filter-note").getByText(/^1 of (the [\d,]+ sends read|all [\d,]+ sends) match the filters\.$/).waitFor(VISIBLE);
  });

  test("to a product, by what the catalog finds for the words typed", async () => {
    const { page } = env;
    const first = await apiGet(base, env.token, "/api/v3/marketplace/products");
    const named = first.products.find((p) => /^[A-Za-z]+ [A-Za-z]+$/.test(p.name));
    assert.ok(named, "a product with a plain two-word name");
    const found = await apiGet(base, env.token, `/api/v3/marketplace/products?text_search=${encodeURIComponent(named.name)}`);
    const product = found.products[0];
    await choose(page, named.name, product.name);
    await page.waitForURL((url) => url.pathname === `/catalog/${encodeURIComponent(product.id)}`);
    const dialog = page.getByTestId("product-dialog");
    await dialog.waitFor(VISIBLE);
    assert.match(await dialog.innerText(), new RegExp(product.name));
  });

  test("a sender is not offered the users' screens, and finds team groups still", async () => {
    const page = await signedInPage(env.browser, base, "sender@example.com");
    try {
      await page.getByRole("heading", { level: 1, name: "Home" }).waitFor(VISIBLE);
      const box = await openPalette(page);
      const screens = await page.getByTestId("palette").getByRole("option").allInnerTexts();
      assert.ok(screens.some((s) => s.includes("Sends")), `the sender's screens: ${screens}`);
      assert.ok(!screens.some((s) => /Users/.test(s)), `no users' screen for a sender: ${screens}`);
      const groups = await apiGet(base, env.token, "/api/v3/groups?page=1&per_page=100");
      await box.fill(groups.groups[0].name);
      await page.getByTestId("palette").getByRole("option").filter({ hasText: groups.groups[0].name }).first().waitFor(VISIBLE);
      assert.deepEqual(unexpectedErrors(page), []);
    } finally {
      await page.context().close();
    }
  });

  test("no console errors, page errors or CSP violations", () => {
    assert.deepEqual(errorsOf(env.page), []);
  });
});
