// `/` puts the cursor in the current screen's search or filter field, `?` lists the
// shortcuts; neither is taken while the admin types in a field.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture } from "./harness.mjs";

/** The id (or name) of the focused element. */
const focused = (page) => page.evaluate(() => document.activeElement?.id || document.activeElement?.getAttribute("name") || document.activeElement?.tagName);

describe("keyboard shortcuts", () => {
  const env = consoleFixture();

  for (const [screen, ready, field] of [
    ["/users", "main table", "users-search"],
    ["/catalog", "main .product-card", "catalog-text"],
    ["/sends", "main table", "send-filter-search"],
  ]) {
    test(`/ on ${screen} focuses its search field`, async () => {
      const { page, sandbox } = env;
      await page.goto(`${sandbox.url}${screen}`);
      await page.locator(ready).first().waitFor(VISIBLE);
      await page.locator("body").click({ position: { x: 1, y: 1 } });
      await page.keyboard.press("/");
      assert.equal(await focused(page), field);
      // Inside the field, "/" is a character like any other.
      await page.keyboard.type("a/b");
      assert.equal(await page.locator(`#${field}`).inputValue(), "a/b");
    });
  }

  test("? lists the shortcuts in a dialog that Escape closes", async () => {
    const { page, sandbox } = env;
    await page.goto(`${sandbox.url}/`);
    await page.getByRole("heading", { level: 1, name: "Home" }).waitFor(VISIBLE);
    await page.keyboard.press("Shift+Slash");
    const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await dialog.waitFor(VISIBLE);
    assert.match(await dialog.innerText(), /Search or filter on this screen/);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden", timeout: 5_000 });
    // A screen without any field (home): "/" puts the cursor nowhere (the dialog's return of
    // the focus is the browser's business, so only "no field took it" is checked).
    assert.equal(await page.locator("main input, main select").count(), 0, "home has no field to take it");
    await page.keyboard.press("/");
    assert.equal(await page.evaluate(() => document.activeElement?.matches("input, select, textarea") ?? false), false);
  });
});
