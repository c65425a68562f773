// The sends screen against the real sandbox. Every expected number comes from the
// sandbox's own API, fetched from node with the signed-in page's token.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  VISIBLE,
  consoleFixture,
  errorsOf,
  homeFiguresRead,
  laterRequest,
  localMoney,
  painted,
  parseCsv,
  platformGet,
  sessionToken,
  signedInPage,
  waitFor,
} from "./harness.mjs";

/** A count as the console writes it (en-US, grouped). */
const grouped = (n) => Number(n).toLocaleString("en-US");

// The platform's statuses by meaning (the contract's StatusGroup, by its URL slug).
const GROUP_OF = new Map([
  ...["pending", "Collecting recipient info", "Confirming Address", "Processing", "Packed", "Shipped", "Sent", "Opened", "Clicked", "Paused"].map((s) => [s, "in-progress"]),
  ...["Delivered", "Used"].map((s) => [s, "delivered"]),
  ...["Failed", "Undeliverable", "Cancelled", "Address Confirmation - Cancelled"].map((s) => [s, "problem"]),
  ...["Bounced and Credited", "Expired and Credited", "Refunded"].map((s) => [s, "returned"]),
]);
const groupOf = (status) => GROUP_OF.get(status) ?? "other";

/** The platform's own answer for the test (waiting out a 429 the screen's reads caused). */
async function apiGet(base, token, path) {
  const { status, body } = await platformGet(base, token, path);
  assert.equal(status, 200, `GET ${path}`);
  return body;
}

/** Every send, page by page, as the platform lists them. */
async function allSends(base, token) {
  const first = await apiGet(base, token, "/api/v3/send?page=1&per_page=100");
  const sends = [...first.sends];
  for (let page = 2; sends.length < first.total_count; page++) {
    const next = await apiGet(base, token, `/api/v3/send?page=${page}&per_page=100`);
    assert.ok(next.sends.length > 0, "the platform's pages add up to its total_count");
    sends.push(...next.sends);
  }
  return { total: first.total_count, sends };
}

/** "12.50" → 1250n: exact cents (the sandbox's costs have two decimals). */
function cents(text) {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  assert.ok(match, `cost ${text} is decimal text`);
  const value = BigInt(match[2]) * 100n + BigInt((match[3] ?? "").padEnd(2, "0") || "0");
  return match[1] ? -value : value;
}

// A page of more than 25 sends draws its first 25 rows in one frame and the rest in the next:
// a test reads the rows once both frames are done (two animation frames and a task later).
const settled = painted;
const rowIds = async (page) => {
  await settled(page);
  return page.locator("tbody tr[data-send-id]").evaluateAll((rows) => rows.map((r) => r.dataset.sendId));
};
/** Until `n` rows show a status (the rows of a page), then one painted frame. */
async function rowsWithStatus(page, n) {
  try {
    await page.waitForFunction((want) => document.querySelectorAll("tbody tr[data-send-id] td .send-status[data-group]").length === want, n, { timeout: 10_000 });
  } catch (error) {
    const shown = await page.locator("tbody tr[data-send-id]").count();
    throw new Error(`${n} rows expected, ${shown} shown at ${page.url()}: ${error.message}`);
  }
  await settled(page);
}
const firstRowId = (page) => page.locator("tbody tr[data-send-id]").first().getAttribute("data-send-id");
const pager = (page) => page.locator("nav.pager");

/** Clicks a pager link and waits until the table shows other sends. */
async function turnPage(page, name) {
  const before = await firstRowId(page);
  await pager(page).getByRole("link", { name, exact: true }).click();
  await page.waitForFunction(
    (prev) => document.querySelector("tbody tr[data-send-id]")?.dataset.sendId !== prev,
    before,
    { timeout: 15_000 },
  );
}

/** Records every text the load-all status shows, so short-lived progress can be asserted. */
async function recordLoadAllStatus(page) {
  await page.evaluate(() => {
    const status = document.querySelector("[data-testid=load-all-status]");
    window.__loadAllTexts = [];
    window.__loadAllBars = 0;
    const note = () => {
      window.__loadAllTexts.push(status.textContent);
      if (document.querySelector("[data-testid=load-all] progress[max]")) window.__loadAllBars++;
    };
    new MutationObserver(note).observe(status.parentElement, { subtree: true, childList: true, characterData: true });
  });
}

/** Opens the sends screen at `base` (with `query`) in `page` and waits for its first rows. */
async function openSends(page, base, query = "") {
  await page.goto(`${base}/sends${query}`);
  await page.locator("tbody tr[data-send-id]").first().waitFor(VISIBLE);
}

/** Waits, up to a minute, until the load-all status says all `total` sends were loaded. */
async function allPagesLoaded(page, total) {
  const status = page.getByTestId("load-all-status");
  try {
    const n = total.toLocaleString("en-US");
    await status.getByText(`All pages loaded: ${n} of ${n} sends`).waitFor({ ...VISIBLE, timeout: 60_000 });
  } catch (error) {
    throw new Error(`${error.message}\nthe status said: ${await status.textContent()}`);
  }
}

describe("sends", () => {
  const env = consoleFixture();
  let data;
  before(async () => {
    data = await allSends(env.sandbox.url, env.token);
    assert.ok(data.total > 100, "enough sends to need several pages of 100");
  });

  test("walking every page at 100 a page shows every send exactly once", async () => {
    const nav = env.page.locator("nav[aria-label=Main]");
    await nav.getByRole("link", { name: "Campaigns", exact: true }).waitFor(VISIBLE);
    await nav.getByRole("link", { name: "Sends", exact: true }).click();
    await env.page.waitForURL(/\/sends$/);
    await env.page.locator("tbody tr[data-send-id]").first().waitFor(VISIBLE);
    await openSends(env.page, env.sandbox.url, "?per_page=100");
    const seen = [];
    for (let n = 1; ; n++) {
      const ids = await rowIds(env.page);
      assert.ok(ids.length > 0 && ids.length <= 100, `page ${n} has 1..100 rows`);
      seen.push(...ids);
      const first = (n - 1) * 100 + 1;
      await pager(env.page)
        .getByText(`Showing ${first}–${first + ids.length - 1} of ${data.total}`)
        .waitFor(VISIBLE);
      if ((await pager(env.page).getByRole("link", { name: "Next", exact: true }).count()) === 0) break;
      await turnPage(env.page, "Next");
      assert.match(env.page.url(), new RegExp(`[?&]page=${n + 1}(&|$)`));
    }
    assert.equal(seen.length, data.total, "rows seen across all pages = the platform's total_count");
    assert.equal(new Set(seen).size, seen.length, "no send twice");
    assert.deepEqual(seen, data.sends.map((s) => String(s.id)), "every send, in the platform's order");
  });

  test("a deep link to ?page=3&per_page=10 shows that page, and again after a reload", async () => {
    const expected = (await apiGet(env.sandbox.url, env.token, "/api/v3/send?page=3&per_page=10")).sends.map((s) => String(s.id));
    await env.page.goto(`${env.sandbox.url}/sends?page=3&per_page=10`);
    for (let round = 0; round < 2; round++) {
      await env.page.locator("tbody tr[data-send-id]").first().waitFor(VISIBLE);
      assert.deepEqual(await rowIds(env.page), expected);
      await pager(env.page).getByText(`Showing 21–30 of ${data.total}`).waitFor(VISIBLE);
      assert.equal(await pager(env.page).locator("select").inputValue(), "10");
      if (round === 0) await env.page.reload();
    }
    assert.match(env.page.url(), /page=3/);
  });

  test("paging with the keyboard keeps the focus in the pager, shown, to the last page", async () => {
    // The pager is mounted once, outside the rows' loading boundary: the focused control stays,
    // and stays on screen (no scroll to the top under it).
    const focused = () =>
      env.page.evaluate(() => {
        const active = document.activeElement;
        const box = active?.getBoundingClientRect();
        return {
          inPager: Boolean(active?.closest("nav.pager")),
          control: active?.dataset.pager ?? active?.tagName,
          shown: Boolean(active?.matches(":focus-visible")),
          inView: Boolean(box && box.bottom > 0 && box.top < window.innerHeight),
        };
      });
    const focusSettled = (control) =>
      env.page.waitForFunction(
        (c) => (document.activeElement?.dataset.pager ?? document.activeElement?.tagName) === c,
        control,
        { timeout: 5_000 },
      ).catch(() => {});
    await openSends(env.page, env.sandbox.url, "?per_page=100");
    const pages = Math.ceil(data.total / 100);
    await pager(env.page).getByRole("link", { name: "Next", exact: true }).focus();
    for (let n = 2; n <= pages; n++) {
      const before = await firstRowId(env.page);
      await env.page.keyboard.press("Enter");
      await pager(env.page).getByText(`Showing ${(n - 1) * 100 + 1}–`).waitFor(VISIBLE);
      assert.notEqual(await firstRowId(env.page), before, `page ${n} shows other sends`);
      // On the last page "Next" is disabled: its nearest neighbour that is a link takes over.
      const expected = n < pages ? "Next" : "Previous";
      await focusSettled(expected);
      assert.deepEqual(await focused(), { inPager: true, control: expected, shown: true, inView: true }, `after page ${n}`);
    }
    // The rows-per-page select keeps the focus too.
    const select = pager(env.page).locator("select");
    await select.focus();
    await select.selectOption("50");
    await pager(env.page).getByText(/^Showing \d+–\d+ of/).waitFor(VISIBLE);
    await env.page.waitForURL(/per_page=50/);
    await focusSettled("SELECT");
    const afterSize = await focused();
    assert.equal(afterSize.control, "SELECT");
    assert.equal(afterSize.inView, true, "the select stays on screen");
  });

  test("opening a page still being fetched ahead waits for that answer, not a second request", async () => {
    const second = (url) => url.pathname === "/api/v3/send" && url.searchParams.get("page") === "2" && url.searchParams.get("per_page") === "10";
    const asked = [];
    // The look-ahead answer is held until "Next" was pressed, so it is still out then.
    let releaseAhead;
    const ahead = new Promise((resolve) => (releaseAhead = resolve));
    await env.page.route(second, async (route) => {
      asked.push(route.request().url());
      const response = await route.fetch();
      await ahead;
      await route.fulfill({ response }).catch(() => {});
    });
    try {
      const aheadAsked = env.page.waitForRequest((r) => second(new URL(r.url())));
      await openSends(env.page, env.sandbox.url, "?per_page=10");
      await aheadAsked;
      const before = await firstRowId(env.page);
      await pager(env.page).getByRole("link", { name: "Next", exact: true }).click();
      // Whatever the click asked for is seen (and counted) before a later request; then the
      // look-ahead answer comes.
      await laterRequest(env.page);
      releaseAhead();
      await env.page.waitForFunction(
        (prev) => document.querySelector("tbody tr[data-send-id]")?.dataset.sendId !== prev,
        before,
        { timeout: 15_000 },
      );
      const expected = (await apiGet(env.sandbox.url, env.token, "/api/v3/send?page=2&per_page=10")).sends.map((s) => String(s.id));
      assert.deepEqual(await rowIds(env.page), expected);
      assert.equal(asked.length, 1, `page 2 was asked for once: ${asked}`);
    } finally {
      releaseAhead();
      await env.page.unrouteAll({ behavior: "ignoreErrors" });
    }
  });

  test("a row expands to the send's status history and collapses again", async () => {
    const row = env.page.locator("tbody tr[data-send-id]").first();
    const id = await row.getAttribute("data-send-id");
    const send = data.sends.find((s) => String(s.id) === id);
    const button = row.getByRole("button", { name: /History/ });
    assert.equal(await button.getAttribute("aria-expanded"), "false");
    const history = env.page.locator(`#send-history-${id}`);
    assert.equal(await history.isVisible(), false);
    await button.click();
    assert.equal(await button.getAttribute("aria-expanded"), "true");
    await history.waitFor(VISIBLE);
    const items = history.locator("ol.timeline > li");
    assert.equal(await items.count(), send.status_updates.length);
    for (let i = 0; i < send.status_updates.length; i++) {
      const item = items.nth(i);
      assert.equal(await item.locator("time").getAttribute("datetime"), send.status_updates[i].occurred_at);
      assert.ok((await item.locator("time").innerText()).trim().length > 0, "a readable time");
      assert.equal(await item.locator(".badge").innerText(), send.status_updates[i].status);
    }
    // Keyboard: the disclosure is a real button.
    await button.focus();
    await env.page.keyboard.press("Enter");
    assert.equal(await button.getAttribute("aria-expanded"), "false");
    await history.waitFor({ state: "hidden" });
  });

  test("loading all pages shows progress and an overview that matches the sandbox's totals", async () => {
    await openSends(env.page, env.sandbox.url);
    await recordLoadAllStatus(env.page);
    await env.page.getByRole("button", { name: "Load all pages", exact: true }).click();
    await allPagesLoaded(env.page, data.total);
    const pages = Math.ceil(data.total / 100);
    const texts = await env.page.evaluate(() => window.__loadAllTexts);
    assert.ok(texts.some((t) => new RegExp(`page \\d+ of ${pages}`).test(t)), `progress "page n of ${pages}" was shown: ${texts}`);
    assert.ok(await env.page.evaluate(() => window.__loadAllBars) > 0, "a <progress> bar was shown");

    // Counts by status group.
    const expectedGroups = {};
    for (const s of data.sends) expectedGroups[groupOf(s.status)] = (expectedGroups[groupOf(s.status)] ?? 0) + 1;
    const shownGroups = await env.page
      .locator("[data-testid=status-chart] [data-group]")
      .evaluateAll((gs) => Object.fromEntries(gs.map((g) => [g.dataset.group, Number(g.dataset.count)])));
    for (const [group, count] of Object.entries(expectedGroups)) assert.equal(shownGroups[group], count, `sends in ${group}`);
    assert.equal(Object.values(shownGroups).reduce((a, b) => a + b, 0), data.total);
    const chartLabel = await env.page.getByTestId("status-chart").getAttribute("aria-label");
    assert.match(chartLabel, new RegExp(`Problem ${expectedGroups.problem ?? 0}`), "the chart's spoken label has the numbers");

    // Spend by currency, exact.
    const expectedSpend = new Map();
    for (const s of data.sends) expectedSpend.set(s.currency, (expectedSpend.get(s.currency) ?? 0n) + cents(s.current_total_cost));
    const shownSpend = await env.page
      .locator("[data-testid=spend-chart] [data-currency]")
      .evaluateAll((gs) => gs.map((g) => [g.dataset.currency, g.dataset.total, g.textContent]));
    assert.equal(shownSpend.length, expectedSpend.size, "one bar per currency");
    for (const [currency, total, text] of shownSpend) {
      assert.equal(cents(total), expectedSpend.get(currency), `${currency} spend`);
      const amount = await localMoney(env.page, currency, total);
      assert.ok(text.includes(amount), `${text} shows ${amount}`);
    }
    await env.page.getByTestId("overview-note").getByText(`${grouped(data.total)} of ${grouped(data.total)} sends`).waitFor(VISIBLE);
    await env.page.getByTestId("sends-coverage").getByText(`${grouped(data.total)} of ${grouped(data.total)} sends`).waitFor(VISIBLE);
  });

  test("Export CSV downloads every loaded send, hostile text intact", async () => {
    const button = env.page.getByTestId("export-csv");
    assert.match(await button.innerText(), new RegExp(`${grouped(data.total)} loaded sends`));
    const [download] = await Promise.all([env.page.waitForEvent("download"), button.click()]);
    assert.match(download.suggestedFilename(), /^sends-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = await readFile(await download.path(), "utf8");
    assert.equal(text.charCodeAt(0), 0xfeff, "UTF-8 byte order mark for spreadsheets");
    const rows = parseCsv(text.slice(1));
    const header = rows[0];
    assert.equal(rows.length, data.total + 1, "header + one row per send");
    assert.ok(rows.every((r) => r.length === header.length), "every row has every column");
    const col = (name) => header.indexOf(name);
    assert.deepEqual(rows.slice(1).map((r) => r[col("send_id")]), data.sends.map((s) => String(s.id)));
    const hostile = data.sends.find((s) => s.recipient.name.includes("<script>"));
    assert.ok(hostile, "the sandbox plants a <script> name");
    const hostileRow = rows.find((r) => r[col("send_id")] === String(hostile.id));
    assert.equal(hostileRow[col("recipient_name")], hostile.recipient.name);
    const quoted = data.sends.find((s) => /["',]/.test(s.recipient.company_name));
    if (quoted) {
      const quotedRow = rows.find((r) => r[col("send_id")] === String(quoted.id));
      assert.equal(quotedRow[col("recipient_company")], quoted.recipient.company_name);
    }
    const sample = data.sends[7];
    const sampleRow = rows.find((r) => r[col("send_id")] === String(sample.id));
    assert.equal(sampleRow[col("status_history")], sample.status_updates.map((u) => `${u.status} @ ${u.occurred_at}`).join("; "));
    assert.equal(sampleRow[col("current_total_cost")], sample.current_total_cost);
    assert.equal(env.page.dialogs.length, 0, "no hostile script ran");
  });

  test("filtering by status group and by sender shows only matching rows", async () => {
    // Client-side page size change: the loaded sends stay loaded.
    await pager(env.page).locator("select").selectOption("100");
    await env.page.waitForURL(/per_page=100/);

    await env.page.getByLabel("Status", { exact: true }).selectOption("problem");
    // A filter keeps the page size chosen just before it.
    await env.page.waitForURL((url) => url.searchParams.get("status") === "problem" && url.searchParams.get("per_page") === "100");
    const problems = data.sends.filter((s) => groupOf(s.status) === "problem");
    await env.page.getByTestId("filter-note").getByText(`${grouped(problems.length)} of all ${grouped(data.total)} sends match`).waitFor(VISIBLE);
    // Until the table holds the matching rows, a page of 100 of them: the rows before the
    // filter (100 of every status) must not pass for them.
    await rowsWithStatus(env.page, Math.min(problems.length, 100));
    const groups = await env.page.locator("tbody tr[data-send-id] td .send-status[data-group]").evaluateAll((els) => els.map((e) => e.dataset.group));
    assert.equal(groups.length, Math.min(problems.length, 100));
    assert.ok(groups.every((g) => g === "problem"), "only problem sends");
    assert.deepEqual(await rowIds(env.page), problems.slice(0, 100).map((s) => String(s.id)));
    const problemBars = await env.page.locator("[data-testid=status-chart] [data-group]").evaluateAll((gs) => gs.map((g) => [g.dataset.group, Number(g.dataset.count)]));
    assert.ok(problemBars.every(([g, n]) => (g === "problem" ? n === problems.length : n === 0)), "overview counts follow the filter");
    // The export writes what matches, and its file's name says so.
    const [download] = await Promise.all([env.page.waitForEvent("download"), env.page.getByTestId("export-csv").click()]);
    assert.match(download.suggestedFilename(), /^sends-\d{4}-\d{2}-\d{2}-status-problem\.csv$/);
    const exported = parseCsv((await readFile(await download.path(), "utf8")).slice(1));
    assert.equal(exported.length, problems.length + 1, "header + one row per matching send");

    // Back to all statuses, then one sender (the one with most sends).
    await env.page.getByLabel("Status", { exact: true }).selectOption("");
    await env.page.waitForURL((url) => !url.searchParams.has("status"));
    const bySender = new Map();
    for (const s of data.sends) bySender.set(s.sender.id, (bySender.get(s.sender.id) ?? 0) + 1);
    const [senderId, count] = [...bySender].sort((a, b) => b[1] - a[1])[0];
    await env.page.getByLabel("Sender", { exact: true }).selectOption(String(senderId));
    await env.page.waitForURL(new RegExp(`sender=${senderId}`));
    await env.page.getByTestId("filter-note").getByText(`${grouped(count)} of all ${grouped(data.total)} sends match`).waitFor(VISIBLE);
    await env.page.waitForFunction(
      ([id, n]) => {
        const rows = [...document.querySelectorAll("tbody tr[data-send-id]")];
        return rows.length === n && rows.every((r) => r.dataset.senderId === id);
      },
      [String(senderId), Math.min(count, 100)],
      { timeout: 10_000 },
    );
    await settled(env.page);
    const senders = await env.page.locator("tbody tr[data-send-id]").evaluateAll((rows) => rows.map((r) => r.dataset.senderId));
    assert.equal(senders.length, count);
    assert.ok(senders.every((id) => id === String(senderId)), "only that sender's sends");

    // Search by recipient company, on top of the sender filter; counts follow.
    const company = data.sends.find((s) => s.sender.id === senderId).recipient.company_name;
    const both = data.sends.filter((s) => s.sender.id === senderId && s.recipient.company_name.toLowerCase().includes(company.toLowerCase()));
    await env.page.getByLabel("Recipient name, email or company").fill(company);
    await env.page.getByTestId("filter-note").getByText(`${grouped(both.length)} of all ${grouped(data.total)} sends match`).waitFor(VISIBLE);
    assert.deepEqual(await rowIds(env.page), both.map((s) => String(s.id)));
    assert.match(env.page.url(), /[?&]q=/);

    // The export follows the filters, and says so.
    assert.match(await env.page.getByTestId("export-csv").innerText(), new RegExp(`${both.length} sends matching the filters`));
    await env.page.getByRole("link", { name: "Clear filters" }).click();
    await env.page.waitForURL((url) => !url.searchParams.has("sender") && !url.searchParams.has("q"));
    await env.page.locator("tbody tr[data-send-id]").nth(99).waitFor(VISIBLE);
  });

  test("no console errors, page errors or CSP violations on the sends screen", () => {
    assert.deepEqual(errorsOf(env.page), []);
    assert.deepEqual(env.page.dialogs, []);
  });
});

describe("sends: a range of days", () => {
  const env = consoleFixture();
  let data;
  before(async () => {
    data = await allSends(env.sandbox.url, env.token);
  });

  /** `2026-11` of today, in the calendar the platform writes (its newest send's offset), `back` months before. */
  const monthKey = (back) => {
    const tail = data.sends[0].created_at.slice(-6);
    const offset = tail.endsWith("Z") ? 0 : (tail[0] === "-" ? -1 : 1) * (Number(tail.slice(1, 3)) * 60 + Number(tail.slice(4, 6)));
    const now = new Date(Date.now() + offset * 60_000);
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    return month.toISOString().slice(0, 7);
  };
  const lastDay = (key) => {
    const [y, m] = key.split("-").map(Number);
    return `${key}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
  };
  const between = (since, until) => data.sends.filter((s) => s.created_at.slice(0, 10) >= since && s.created_at.slice(0, 10) <= until);
  const range = (page) => page.getByLabel("Created", { exact: true });
  /** The note once every send of the range is loaded and `n` match. */
  const covered = (page, n) => page.getByTestId("filter-note").getByText(new RegExp(`^${grouped(n)} of (the [\\d,]+ sends read|all [\\d,]+ sends) match the filters\\. Every send created from .+ is loaded\\.$`)).waitFor({ ...VISIBLE, timeout: 60_000 });

  test("last month and this month show exactly their sends, counted, paged and exported as such", async () => {
    const { page } = env;
    await openSends(page, env.sandbox.url, "?per_page=100");
    for (const [choice, key] of [["last-month", monthKey(1)], ["this-month", monthKey(0)]]) {
      const [since, until] = [`${key}-01`, lastDay(key)];
      const expected = between(since, until);
      await range(page).selectOption(choice);
      await page.waitForURL((url) => url.searchParams.get("since") === since && url.searchParams.get("until") === until && url.searchParams.get("per_page") === "100");
      await covered(page, expected.length);
      await page.waitForFunction((n) => document.querySelectorAll("tbody tr[data-send-id]").length === n, Math.min(expected.length, 100), { timeout: 10_000 });
      assert.deepEqual(await rowIds(page), expected.slice(0, 100).map((s) => String(s.id)), `${choice}: the range's newest sends first`);
      assert.equal(await range(page).inputValue(), choice);
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
      assert.equal(download.suggestedFilename().replace(/^sends-\d{4}-\d{2}-\d{2}/, "sends"), `sends-since-${since}-until-${until}.csv`);
      const rows = parseCsv((await readFile(await download.path(), "utf8")).slice(1));
      assert.deepEqual(rows.slice(1).map((r) => r[rows[0].indexOf("send_id")]), expected.map((s) => String(s.id)), `${choice}: the export holds exactly the range`);
    }
  });

  test("a custom range takes two days, refuses a first day after the last, and survives a reload", async () => {
    const { page } = env;
    const key = monthKey(1);
    await range(page).selectOption("custom");
    const from = page.getByLabel("From", { exact: true });
    const to = page.getByLabel("To", { exact: true });
    assert.equal(await from.inputValue(), `${monthKey(0)}-01`, "the days chosen before stay, to be changed");
    const before = page.url();
    await from.fill(`${key}-20`);
    await page.waitForURL((url) => url.searchParams.get("since") === `${key}-20`);
    await to.fill(`${key}-10`);
    await page.getByText("The first day is after the last.").waitFor(VISIBLE);
    assert.equal(new URL(page.url()).searchParams.get("until"), lastDay(monthKey(0)), "a range that cannot hold a send is not applied");
    assert.equal(await to.inputValue(), `${key}-10`, "what was typed stays");
    await to.fill(`${key}-25`);
    await page.waitForURL((url) => url.searchParams.get("until") === `${key}-25`);
    assert.notEqual(page.url(), before);
    await covered(page, between(`${key}-20`, `${key}-25`).length);
    await page.reload();
    await covered(page, between(`${key}-20`, `${key}-25`).length);
    assert.equal(await range(page).inputValue(), "custom");
    assert.equal(await page.getByLabel("From", { exact: true }).inputValue(), `${key}-20`);
    await range(page).selectOption("");
    await page.waitForURL((url) => !url.searchParams.has("since") && !url.searchParams.has("until"));
    await page.getByLabel("From", { exact: true }).waitFor({ state: "detached" });
  });

  test("no console errors, page errors or CSP violations with a range", () => {
    assert.deepEqual(errorsOf(env.page), []);
  });
});

describe("sends: load all pages under the platform's rate limit", () => {
  const env = consoleFixture({ sandboxArgs: ["--rate-limit", "5"], page: false });

  /** The browser logs each refused request; nothing else may go wrong. */
  const unexpected = (page) => errorsOf(page).filter((e) => !(e.kind === "console" && /status of 429/.test(e.text)));

  test("waits out 429s beyond the request layer's retries and finishes with every send", async () => {
    const page = await signedInPage(env.browser, env.sandbox.url);
    await homeFiguresRead(page);
    const statuses = [];
    page.on("response", (r) => {
      if (r.url().includes("/api/v3/send")) statuses.push(r.status());
    });
    await openSends(page, env.sandbox.url);
    const token = await sessionToken(page);
    await env.sandbox.resetRateLimit(); // a fresh rate-limit window
    const { total } = await allSends(env.sandbox.url, token);

    // Someone else on the same token uses up every window until the walk was refused twice:
    // longer than the request layer's own retries, so the walk itself has to wait and carry on.
    await env.sandbox.exhaustRateLimit();
    const refusedBefore = (await env.sandbox.stats()).rate_limited;
    await recordLoadAllStatus(page);
    await page.getByRole("button", { name: "Load all pages", exact: true }).click();
    await waitFor(async () => (await env.sandbox.stats()).rate_limited >= refusedBefore + 2, {
      timeout: 30_000,
      what: "the walk refused twice",
    });
    await env.sandbox.resetRateLimit();
    await allPagesLoaded(page, total);

    const texts = await page.evaluate(() => window.__loadAllTexts);
    assert.ok(texts.some((t) => /asked to slow down, waiting \d+ s/.test(t)), `the walk said it was waiting: ${texts}`);
    assert.ok(statuses.includes(429), "the console did meet the rate limit");
    assert.ok((await env.sandbox.stats()).rate_limited > 0);
    await page.getByTestId("sends-coverage").getByText(`${grouped(total)} of ${grouped(total)} sends`).waitFor(VISIBLE);
    const shown = await page.locator("[data-testid=status-chart] [data-group]").evaluateAll((gs) => gs.reduce((n, g) => n + Number(g.dataset.count), 0));
    assert.equal(shown, total);
    assert.deepEqual(unexpected(page), []);
    await page.context().close();
  });

  test("a walk can be cancelled while it waits, and resumed where it stopped", async () => {
    const page = await signedInPage(env.browser, env.sandbox.url);
    // Home's own walk of the sends would share the allowance and match the held page 2.
    await homeFiguresRead(page);
    const walkRequests = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/v3/send") && r.url().includes("per_page=100")) walkRequests.push(r.url());
    });
    // The page's clock, so the test can move it past the walk's wait instead of waiting.
    await page.clock.install();
    // The screen's own reads, its first page and the next one it fetches ahead, in a window of
    // their own (home's walk used the last one up): a refusal there would make the walk wait
    // before its first page.
    await env.sandbox.resetRateLimit();
    const fetchedAhead = page.waitForResponse((r) => {
      const u = new URL(r.url());
      return u.pathname === "/api/v3/send" && u.searchParams.get("page") === "2" && u.searchParams.get("per_page") === "25";
    });
    await openSends(page, env.sandbox.url);
    assert.equal((await fetchedAhead).status(), 200, "the screen's look-ahead was not refused");
    const token = await sessionToken(page);
    const total = (await apiGet(env.sandbox.url, token, "/api/v3/send?page=1&per_page=1")).total_count;

    // Page 1 of the walk goes through; then the token's allowance is used up elsewhere. Page 2
    // is held until it is, so the walk cannot outrun the exhaustion.
    const secondPage = (u) => u.pathname === "/api/v3/send" && u.searchParams.get("per_page") === "100" && u.searchParams.get("page") === "2";
    await page.route(secondPage, async (route) => {
      await env.sandbox.exhaustRateLimit();
      await route.continue();
    }, { times: 1 });
    // A fresh window, so page 1 is not refused for the screen's own reads before it.
    await env.sandbox.resetRateLimit();
    await page.getByRole("button", { name: "Load all pages", exact: true }).click();
    let stoppedAt;
    try {
      const status = page.getByTestId("load-all-status");
      await status.getByText(/asked to slow down, waiting \d+ s/).waitFor({ ...VISIBLE, timeout: 30_000 });
      await page.getByRole("button", { name: "Cancel loading", exact: true }).click();
      await status.getByText(/Loading cancelled before page \d+/).waitFor(VISIBLE);
      stoppedAt = Number(/before page (\d+)/.exec(await status.innerText())[1]);
      assert.ok(stoppedAt > 1, `page 1 was loaded before the limit bit (stopped at ${stoppedAt})`);
      const sent = walkRequests.length;
      // Two seconds on the page's clock, past the wait the walk was in: a request it still made
      // would be seen before a later one.
      await page.clock.runFor(2_000);
      await laterRequest(page);
      assert.equal(walkRequests.length, sent, "no request after Cancel");
      assert.equal(await page.getByRole("button", { name: "Load all pages", exact: true }).isEnabled(), true);
    } finally {
      await env.sandbox.resetRateLimit(); // a fresh rate-limit window
    }
    const resumeFrom = walkRequests.length;
    await page.getByRole("button", { name: "Resume", exact: true }).click();
    await allPagesLoaded(page, total);
    const resumed = walkRequests.slice(resumeFrom).map((u) => Number(new URL(u).searchParams.get("page")));
    assert.equal(resumed[0], stoppedAt, `resumed at the page it stopped at: ${resumed}`);
    assert.ok(!resumed.includes(1), `page 1 is not fetched again: ${resumed}`);
    assert.deepEqual(unexpected(page), []);
    await page.context().close();
  });
});

describe("sends: a mid-sized world loaded whole under --rate-limit 10", () => {
  // 3,000 sends: 30 requests of 100, more than the rate limit allows in a second, so the walk
  // meets the limit and learns it; filters, sort, overview and export then cover all of them.
  const env = consoleFixture({ sandboxArgs: ["--world", "large", "--users", "400", "--sends", "3000", "--rate-limit", "10"], page: false });
  const unexpected = (page) => errorsOf(page).filter((e) => !(e.kind === "console" && /status of 429/.test(e.text)));

  /** Every send as the platform lists them, asked patiently (node meets the limit too). */
  async function platformSends(token) {
    const first = (await platformGet(env.sandbox.url, token, "/api/v3/send?page=1&per_page=100")).body;
    const sends = [...first.sends];
    for (let page = 2; sends.length < first.total_count; page++) {
      sends.push(...(await platformGet(env.sandbox.url, token, `/api/v3/send?page=${page}&per_page=100`)).body.sends);
    }
    return sends;
  }

  test("load all covers every send exactly once; filter, sort over all, overview and CSV follow", async () => {
    const page = await signedInPage(env.browser, env.sandbox.url);
    const walk = [];
    page.on("response", (r) => {
      if (r.url().includes("/api/v3/send") && r.url().includes("per_page=100")) walk.push([new URL(r.url()).searchParams.get("page"), r.status()]);
    });
    await openSends(page, env.sandbox.url);
    const token = await sessionToken(page);
    const sends = await platformSends(token);
    assert.equal(sends.length, 3000);
    await env.sandbox.resetRateLimit(); // a fresh rate-limit window
    walk.length = 0;
    await page.getByRole("button", { name: "Load all pages", exact: true }).click();
    await allPagesLoaded(page, sends.length);
    const answered = walk.filter(([, status]) => status === 200).map(([p]) => Number(p));
    assert.deepEqual([...answered].sort((a, b) => a - b), Array.from({ length: 30 }, (_, i) => i + 1), "each page answered once");
    assert.ok(walk.some(([, status]) => status === 429), "the walk met the rate limit");

    // Every send once, in the platform's order: the export of everything says so.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
    const rows = parseCsv((await readFile(await download.path(), "utf8")).slice(1));
    const col = (name) => rows[0].indexOf(name);
    assert.deepEqual(rows.slice(1).map((r) => r[col("send_id")]), sends.map((s) => String(s.id)));
    for (const at of [0, 1234, 2999]) {
      const row = rows[at + 1];
      const s = sends[at];
      assert.deepEqual(
        [row[col("created_at")], row[col("recipient_email")], row[col("sender_team")], row[col("campaign_name")], row[col("current_total_cost")], row[col("status_history")]],
        [s.created_at, s.recipient.email, s.sender.team_name, s.touch.name, s.current_total_cost, s.status_updates.map((u) => `${u.status} @ ${u.occurred_at}`).join("; ")],
      );
    }

    // The overview over all of them.
    const shown = await page.locator("[data-testid=status-chart] [data-group]").evaluateAll((gs) => Object.fromEntries(gs.map((g) => [g.dataset.group, Number(g.dataset.count)])));
    const expected = {};
    for (const s of sends) expected[groupOf(s.status)] = (expected[groupOf(s.status)] ?? 0) + 1;
    for (const [group, n] of Object.entries(expected)) assert.equal(shown[group], n, group);

    // A filter over all of them, then a sort across every match (not only the page shown).
    await page.getByLabel("Status", { exact: true }).selectOption("returned");
    const returned = sends.filter((s) => groupOf(s.status) === "returned");
    await page.getByTestId("filter-note").getByText(`${grouped(returned.length)} of all 3,000 sends match`).waitFor(VISIBLE);
    await page.locator("main table.sends-table th").filter({ hasText: "Cost" }).getByRole("link").click();
    await page.locator("main table.sends-table th[aria-sort=ascending]").waitFor(VISIBLE);
    const byCost = [...returned].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : Number(cents(a.current_total_cost) - cents(b.current_total_cost))));
    await page.waitForFunction((id) => document.querySelector("tbody tr[data-send-id]")?.dataset.sendId === id, String(byCost[0].id));
    assert.deepEqual(await rowIds(page), byCost.slice(0, 25).map((s) => String(s.id)), "the cheapest of every match first");
    await page.getByTestId("sort-note").getByText(/across the loaded sends/).waitFor(VISIBLE);
    assert.deepEqual(unexpected(page), []);
    await page.context().close();
  });
});

describe("sends: load all against a platform that moves (--live, --rate-limit 10)", () => {
  // New sends arrive all the time (20 a second) while the walk reads 30+ pages at 10 a second.
  const env = consoleFixture({
    sandboxArgs: ["--world", "large", "--users", "400", "--sends", "3000", "--rate-limit", "10", "--live", "--live-sends-per-second", "20"],
    page: false,
  });
  const unexpected = (page) => errorsOf(page).filter((e) => !(e.kind === "console" && /status of 429/.test(e.text)));

  /** Every send the platform lists now, newest first (asked patiently: the limit holds for node too). */
  async function platformSends(token) {
    const first = (await platformGet(env.sandbox.url, token, "/api/v3/send?page=1&per_page=100")).body;
    const byId = new Map(first.sends.map((s) => [s.id, s]));
    // Sends arriving meanwhile push the list down: read on until a short page; keep each once.
    for (let page = 2; ; page++) {
      const { body } = await platformGet(env.sandbox.url, token, `/api/v3/send?page=${page}&per_page=100`);
      for (const s of body.sends) byId.set(s.id, s);
      if (body.sends.length < 100) break;
    }
    // A Map keeps first-seen order: the platform's, since arrivals only push sends down.
    return [...byId.values()];
  }

  async function exportedIds(page) {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-csv").click()]);
    const rows = parseCsv((await readFile(await download.path(), "utf8")).slice(1));
    const col = rows[0].indexOf("send_id");
    return rows.slice(1).map((r) => r[col]);
  }

  test("the walk holds every send there was when it began, each once, and says how many arrived", async () => {
    const page = await signedInPage(env.browser, env.sandbox.url);
    await openSends(page, env.sandbox.url);
    const token = await sessionToken(page);
    await page.getByRole("button", { name: "Load all pages", exact: true }).click();
    const status = page.getByTestId("load-all-status");
    await status.getByText(/sends loaded: every send there was when loading began, each once; \d+ arrived while loading\./).waitFor({ ...VISIBLE, timeout: 90_000 });
    const [, held, total, arrived] = (await status.textContent()).replaceAll(",", "").match(/^(\d+) of (\d+) sends loaded.*; (\d+) arrived/);
    assert.equal(Number(held) + Number(arrived), Number(total), "the figures add up");
    assert.ok(Number(held) >= 3000, `at least the 3,000 there were before (${held})`);

    // Exactly the oldest `held` sends of the platform's list, in its order, each once.
    const ids = await exportedIds(page);
    assert.equal(ids.length, Number(held), "the export covers what is loaded");
    assert.equal(new Set(ids).size, ids.length, "each send once");
    const now = await platformSends(token);
    assert.deepEqual(ids, now.slice(now.length - ids.length).map((s) => String(s.id)), "the list as it stood at one moment");

    // "Load them" reads from the top until it meets what is loaded: the newer ones join, once.
    await page.getByRole("button", { name: "Load them", exact: true }).click();
    await page.getByRole("button", { name: "Load all pages", exact: true }).and(page.locator(":enabled")).waitFor({ ...VISIBLE, timeout: 60_000 });
    await status.getByText(/sends\.|arrived while loading\./).waitFor(VISIBLE);
    const after = await exportedIds(page);
    assert.ok(after.length > ids.length, `the newer sends joined (${ids.length} → ${after.length})`);
    assert.equal(new Set(after).size, after.length, "still each send once");
    const later = await platformSends(token);
    assert.deepEqual(after, later.slice(later.length - after.length).map((s) => String(s.id)), "still a moment of the list, newest first");
    assert.deepEqual(unexpected(page), []);
    await page.context().close();
  });
});
