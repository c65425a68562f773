// One way to write a number and a date across the console, checked where it shows: every screen
// at enterprise size (`--world large`: 5,000 users, 100,000 sends), read as the admin reads it.
// A count of 1,000 or more is grouped ("4,000", not "4000") and a date is written in the
// locale's medium style ("Oct 1, 2026", not "2026-10-01"). Ids ("Campaign id 2362", "#2017"),
// e-mail addresses and years are not counts. `scripts/check-format.mjs` keeps the code honest
// the same way: the formatters of src/components/format.rs are the only way to print them.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { VISIBLE, consoleFixture, unexpectedErrors } from "./harness.mjs";

// A run of 4 or more digits that is not part of a grouped number, a decimal, a time, a word or
// an address.
const UNGROUPED = /(?<![\d.,:/#\w-])\d{4,}(?![\d:/\w-]|[.,]\d)/g;
const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/g;
// A month as the code keys it ("2026-11") instead of in words ("November 2026").
const ISO_MONTH = /\b\d{4}-\d{2}\b(?!-\d)/g;

/** What on `text` breaks the rules, with a little context each. */
function offences(text) {
  const found = [];
  for (const m of text.matchAll(UNGROUPED)) {
    const before = text.slice(Math.max(0, m.index - 12), m.index);
    const year = /^(19|20)\d\d$/.test(m[0]);
    if (year || /\bid\s*$/i.test(before)) continue;
    found.push(`ungrouped "${m[0]}" in …${text.slice(Math.max(0, m.index - 40), m.index + m[0].length + 20)}…`);
  }
  for (const m of text.matchAll(ISO_DAY)) {
    found.push(`ISO date "${m[0]}" in …${text.slice(Math.max(0, m.index - 40), m.index + 30)}…`);
  }
  for (const m of text.matchAll(ISO_MONTH)) {
    found.push(`ISO month "${m[0]}" in …${text.slice(Math.max(0, m.index - 40), m.index + 30)}…`);
  }
  return found;
}

describe("numbers and dates at enterprise size", () => {
  const env = consoleFixture({ sandboxArgs: ["--world", "large"], contextOptions: { viewport: { width: 1280, height: 800 } } });
  const main = () => env.page.locator("main");

  /** Opens `path`, waits for `ready` (a fact of that screen), and checks what main shows. */
  async function check(path, ready) {
    await env.page.goto(`${env.sandbox.url}${path}`);
    await ready();
    const text = (await main().innerText()).replace(/\s+/g, " ");
    assert.deepEqual(offences(text), [], `${path} writes a number or a date by hand`);
  }

  test("the rules catch what they are for", () => {
    assert.equal(offences("Page 1 of 4000").length, 1);
    assert.equal(offences("EUR 134,802.41 in 1116 sends").length, 1);
    assert.equal(offences("Every send since 2026-10-01 loaded.").length, 1);
    assert.equal(offences("This month is 2026-11, last month 2026-10.").length, 2);
    assert.deepEqual(offences("Page 1 of 4,000 · Campaign id 2362 · Oct 1, 2026 · November 2026 · user1008@example.org · 1,234.50 · 10:05"), []);
  });

  test("home, with its figures read", async () => {
    await check("/", async () => {
      await env.page.getByTestId("figures-progress").getByText(/This month: all [\d,.\s]+ sends read/).waitFor(VISIBLE);
      await env.page.getByTestId("figures-progress").getByText("(reading…)").waitFor({ state: "detached", timeout: 120_000 });
      await main().locator("[data-testid=summary]").waitFor(VISIBLE);
    });
  });

  test("users and one user", async () => {
    await check("/users?per_page=100", () => main().locator("table.users-table tbody tr").first().waitFor(VISIBLE));
    const href = await main().locator("table.users-table tbody a[href^='/users/']").first().getAttribute("href");
    await check(href, () => main().locator("form").first().waitFor(VISIBLE));
  });

  test("sends, with a page past the first thousand", async () => {
    await check("/sends?page=1200", () => main().locator("[data-testid=sends-table] tbody tr").first().waitFor(VISIBLE));
  });

  test("teams and one team", async () => {
    await check("/teams?per_page=100", () => main().locator("[data-testid=teams-count][data-figures=done]").waitFor(VISIBLE));
    const href = await main().locator("table tbody a[href^='/teams/']").first().getAttribute("href");
    await check(href, () => main().locator("table tbody tr [data-testid=member-share]").first().waitFor(VISIBLE));
  });

  test("campaigns and one campaign", async () => {
    await check("/campaigns", () => main().locator("[data-testid=campaigns-table] tbody tr").first().waitFor(VISIBLE));
    const href = await main().locator("[data-testid=campaigns-table] tbody a[href^='/campaigns/']").first().getAttribute("href");
    await check(href, () => main().getByText("Created by").waitFor(VISIBLE));
  });

  test("the catalog", async () => {
    await check("/catalog", () => main().locator("[data-testid=product-grid] a").first().waitFor(VISIBLE));
    assert.deepEqual(unexpectedErrors(env.page), []);
  });
});
