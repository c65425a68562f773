// Amounts and money follow the admin's browser locale (Intl.NumberFormat), with every
// digit the platform sent. The same data is read in a de-DE and an en-US browser; the expected
// text is written out by hand here, not asked of Intl, so the test does not grade itself.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, newPage, platformGet, sessionToken, signIn } from "./harness.mjs";

const NBSP = "\u00a0";

/** Decimal text with the locale's separators and at least two decimals, exactly. */
function grouped(text, group, point) {
  const [whole, frac = ""] = String(text).replace(/^-/, "").split(".");
  const digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${String(text).startsWith("-") ? "-" : ""}${digits}${point}${frac.padEnd(2, "0")}`;
}

const LOCALES = {
  "en-US": { usd: (t) => `$${grouped(t, ",", ".")}` },
  "de-DE": { usd: (t) => `${grouped(t, ".", ",")}${NBSP}$` },
};

describe("locale", () => {
  const env = consoleFixture({ page: false });

  for (const [locale, expected] of Object.entries(LOCALES)) {
    test(`${locale}: budgets and campaign prices in the locale's own way`, async () => {
      const page = await newPage(env.browser, { locale });
      await signIn(page, env.sandbox.url);
      const token = await sessionToken(page);

      const groups = (await platformGet(env.sandbox.url, token, "/api/v3/groups?page=1&per_page=25")).body.groups;
      // Without rollover, the budget this month is the monthly budget itself.
      const big = groups.find((g) => !g.rollover && Number(g.monthly_budget) >= 1000);
      assert.ok(big, "a group without rollover and a budget of 1,000 or more on page 1");
      await page.goto(`${env.sandbox.url}/teams`);
      const row = page.locator("main table tbody tr").filter({ hasText: big.name }).first();
      await row.waitFor(VISIBLE);
      // The row's figures say "…" until the month's sends are read.
      await page.locator("main [data-testid=teams-count][data-figures=done]").waitFor(VISIBLE);
      // Budgets are in the account's currency (docs/platform.md, "Currencies").
      assert.equal(await row.locator("td").first().textContent(), expected.usd(big.monthly_budget));

      const touches = (await platformGet(env.sandbox.url, token, "/api/v3/touches?page=1&per_page=25")).body.touches;
      const ranged = touches.find((t) => t.currency === "USD" && t.starting_egift_price != null && t.ending_egift_price != null);
      assert.ok(ranged, "a USD campaign with an eGift range on page 1");
      await page.goto(`${env.sandbox.url}/campaigns`);
      const cell = page.locator(`tbody tr[data-campaign-id="${ranged.id}"] td`).nth(1);
      await cell.waitFor(VISIBLE);
      assert.equal(
        await cell.innerText(),
        `${expected.usd(ranged.starting_egift_price)} – ${expected.usd(ranged.ending_egift_price)}`,
      );
      await page.context().close();
    });
  }
});
