// Issue 16: the task of each screen starts within the first screen, on a laptop (1280×800) and
// on a phone (390×844), where the header and navigation stay compact.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { launchBrowser, newPage, signIn, startSandbox } from "./harness.mjs";

const VISIBLE = { state: "visible", timeout: 15_000 };

/** Each screen and the first thing of its task: a table's first row, the catalog's first card. */
const SCREENS = [
  ["/users", "main table tbody tr"],
  ["/teams", "main table tbody tr"],
  ["/sends", "main table.sends-table tbody tr"],
  ["/campaigns", "main table tbody tr"],
  ["/catalog", "main .product-card"],
];

describe("layout for the task", () => {
  let sandbox;
  let browser;
  before(async () => {
    sandbox = await startSandbox();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await sandbox?.stop();
  });

  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    test(`at ${viewport.width}×${viewport.height} every screen's task starts in the first screen`, async () => {
      const page = await newPage(browser, { viewport });
      await signIn(page, sandbox.url);
      for (const [path, first] of SCREENS) {
        await page.goto(`${sandbox.url}${path}`);
        const item = page.locator(first).first();
        await item.waitFor(VISIBLE);
        const top = await item.evaluate((el) => el.getBoundingClientRect().top);
        assert.ok(top < viewport.height - 40, `${path}: the first row starts at ${Math.round(top)} px, in a ${viewport.height} px window`);
      }
      // The header and the navigation together: at most a seventh of a phone's height.
      const frame = await page.evaluate(() => document.querySelector("nav.main-nav").getBoundingClientRect().bottom);
      assert.ok(frame <= viewport.height / 7, `header and navigation end at ${Math.round(frame)} px`);
      await page.context().close();
    });
  }
});
