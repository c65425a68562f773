// The home screen answers "how much has each team spent against its budget this
// month?" and "which gifts went wrong?". Every figure is computed here independently from the
// platform's API, by the rules of docs/platform.md ("Spend, budgets and what needs attention"),
// and compared with what the screen, its links and its CSV say.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { consoleFixture, newPage, parseCsv, platformGet, seriousAxeViolations, sessionToken, signIn, signedInPage, unexpectedErrors } from "./harness.mjs";

const VISIBLE = { state: "visible", timeout: 60_000 };
const DAY = 86_400;
const STUCK_DAYS = 7;
const RETURNED = new Set(["Bounced and Credited", "Expired and Credited", "Refunded"]);
const REASONS = [
  ["undeliverable", (s) => s.status === "Undeliverable"],
  ["bounced", (s) => s.status === "Bounced and Credited"],
  ["failed", (s) => s.status === "Failed"],
  ["address-cancelled", (s) => s.status === "Address Confirmation - Cancelled"],
  ["expired", (s) => s.status === "Expired and Credited"],
  ["stuck-collecting", (s, now) => s.status === "Collecting recipient info" && waited(s, now)],
  ["stuck-confirming", (s, now) => s.status === "Confirming Address" && waited(s, now)],
];

/** Whether the send has been in its status for STUCK_DAYS or more at `now` (Unix seconds). */
function waited(send, now) {
  const entered = [...send.status_updates].reverse().find((u) => u.status === send.status)?.occurred_at ?? send.created_at;
  return now - Date.parse(entered) / 1000 >= STUCK_DAYS * DAY;
}

const offsetOf = (ts) => (ts.endsWith("Z") ? 0 : (ts.at(-6) === "-" ? -1 : 1) * (Number(ts.slice(-5, -3)) * 60 + Number(ts.slice(-2))));
const monthKey = (unix, offset) => new Date((unix + offset * 60) * 1000).toISOString().slice(0, 7);
const previousKey = (key) => {
  const [y, m] = key.split("-").map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
};
/** Exact money in hundredths of a unit, as text with two decimals. */
const cents = (text) => Math.round(Number(text) * 100);
const usdText = (c) => (c / 100).toFixed(2);

/** The figures of the two months, from the API: what the home screen must show. */
async function expected(base, token, now, onlyEmail) {
  const first = (await platformGet(base, token, "/api/v3/send?page=1&per_page=100")).body;
  const offset = offsetOf(first.sends[0]?.created_at ?? "Z");
  const months = [monthKey(now, offset)];
  months.push(previousKey(months[0]));
  const groups = (await platformGet(base, token, "/api/v3/groups?page=1&per_page=100")).body.groups;
  const spend = new Map(); // team_id → [this, last] in USD cents
  const attention = new Map(REASONS.map(([r]) => [r, [[], []]])); // reason → [this month's ids, last month's]
  const seen = new Set();
  let read = 0;
  for (let page = 1; ; page += 1) {
    const body = page === 1 ? first : (await platformGet(base, token, `/api/v3/send?page=${page}&per_page=100`)).body;
    let older = false;
    for (const s of body.sends) {
      if (seen.has(s.id)) continue;
      seen.add(s.id);
      const m = months.indexOf(s.created_at.slice(0, 7));
      if (m < 0 && s.created_at.slice(0, 7) < months[1]) {
        older = true;
        break;
      }
      if (onlyEmail && s.sender.email.toLowerCase() !== onlyEmail) continue;
      read += 1;
      // A send dated after this month (a clock ahead) counts as this month's.
      for (const [reason, is] of REASONS) if (is(s, now)) attention.get(reason)[Math.max(m, 0)].push(s.id);
      if (RETURNED.has(s.status) || s.currency !== "USD") continue;
      const row = spend.get(s.sender.team_id) ?? [0, 0];
      row[Math.max(m, 0)] += cents(s.current_total_cost);
      spend.set(s.sender.team_id, row);
    }
    if (older || body.sends.length < 100) break;
  }
  const rows = groups.map((g) => {
    const [spent, last] = spend.get(g.id) ?? [0, 0];
    const monthly = cents(g.monthly_budget);
    const carried = g.rollover ? Math.max(0, monthly - last) : 0;
    const budget = monthly + carried;
    const percent = budget > 0 ? Math.floor((spent * 100) / budget) : null;
    const band = percent === null ? "none" : percent >= 100 ? "over" : percent >= 80 ? "near" : "within";
    return { name: g.name, spent, last, budget, percent, band };
  });
  return { months, rows, attention, read };
}

async function figuresDone(page) {
  await page.getByTestId("figures-progress").getByText(/This month: all [\d,.\s]+ sends read/).waitFor(VISIBLE);
  await page.getByTestId("figures-progress").getByText("(reading…)").waitFor({ state: "detached", timeout: 60_000 });
}

/** The groups Home lists: over, then near budget, most used first (the platform's order among equals), the first ten. */
const attentionRows = (rows) => rows.filter((r) => r.band === "over" || r.band === "near").sort((a, b) => b.percent - a.percent).slice(0, 10);
const monthEnd = (key) => {
  const [y, m] = key.split("-").map(Number);
  return `${key}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, "0")}`;
};
const attentionCell = (page, reason, m) => page.locator(`[data-testid=attention] tr[data-reason=${reason}] td[data-month="${m}"]`);
const summaryItem = (page, kind) => page.locator(`[data-testid=summary] li[data-kind=${kind}]`);

/** From a link on Home to the sends screen: the sends of `month` needing attention for `reason`, exactly `ids`. */
async function showsExactly(page, link, reason, month, ids) {
  await link.click();
  await page.waitForURL(new RegExp(`/sends\\?attention=${reason}&since=${month}-01&until=${monthEnd(month)}`));
  const since = await page.evaluate(([y, m]) => new Intl.DateTimeFormat(navigator.language, { dateStyle: "medium", timeZone: "UTC" }).format(Date.UTC(y, m - 1, 1)), month.split("-").map(Number));
  await page.getByTestId("load-all-status").getByText(`Every send since ${since} loaded.`).waitFor(VISIBLE);
  await page.getByTestId("filter-note").getByText(new RegExp(`^${ids.length} of (the [\\d,]+ sends read|all [\\d,]+ sends) match`)).waitFor(VISIBLE);
  assert.match(await page.getByLabel("Created", { exact: true }).inputValue(), /^(this|last)-month$/, "the range reads as the month it is");
  const url = new URL(page.url());
  url.searchParams.set("per_page", "100");
  await page.goto(url.toString());
  await page.getByTestId("filter-note").getByText(new RegExp(`^${ids.length} of the`)).waitFor(VISIBLE);
  const rows = await page.locator("[data-testid=sends-table] tbody tr[data-send-id]").evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.sendId)));
  assert.deepEqual([...rows].sort(), [...ids].sort(), `${reason} in ${month}`);
}

describe("home: spend against budget and the sends that need attention", () => {
  const env = consoleFixture();

  test("the budget table and the attention counts are the platform's data, read independently", async () => {
    const now = Math.floor(Date.now() / 1000);
    await env.page.goto(env.sandbox.url);
    await figuresDone(env.page);
    const want = await expected(env.sandbox.url, env.token, now);
    const shown = await env.page.locator("[data-testid=budget-table] tbody tr").evaluateAll((trs) =>
      trs.map((tr) => ({ name: tr.dataset.group, band: tr.dataset.band, spent: tr.querySelector("[data-testid=spent-this-month]").textContent })),
    );
    const listed = attentionRows(want.rows);
    assert.deepEqual(shown.map((s) => s.name), listed.map((r) => r.name), "over, then near budget, most used first");
    for (const [i, row] of listed.entries()) {
      assert.equal(shown[i].band, row.band, `${row.name}: ${JSON.stringify(row)}`);
      assert.equal(Number(shown[i].spent.replace(/[^\d]/g, "")), row.spent, `${row.name} spent ${usdText(row.spent)}: ${shown[i].spent}`);
    }
    assert.ok(want.rows.some((r) => r.band === "within"), "a group within budget");
    const count = (band) => want.rows.filter((r) => r.band === band).length;
    assert.ok(count("near") > 0 && count("over") > 0, "groups near and over budget");
    assert.equal(await summaryItem(env.page, "over").getAttribute("data-count"), String(count("over")));
    assert.equal(await summaryItem(env.page, "near").getAttribute("data-count"), String(count("near")));
    for (const m of [0, 1]) {
      const total = [...want.attention.values()].reduce((n, ids) => n + ids[m].length, 0);
      const kind = m === 0 ? "attention-this-month" : "attention-last-month";
      assert.equal(await summaryItem(env.page, kind).getAttribute("data-count"), String(total), kind);
    }
    for (const [reason, ids] of want.attention) {
      for (const m of [0, 1]) assert.equal(await attentionCell(env.page, reason, m).getAttribute("data-count"), String(ids[m].length), `${reason}, month ${m}`);
      assert.ok(ids[0].length + ids[1].length > 0, `the data has sends needing attention for ${reason}`);
    }
    assert.deepEqual(await seriousAxeViolations(env.page), []);
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("every attention link opens the sends screen showing exactly those sends, month by month", async () => {
    const now = Math.floor(Date.now() / 1000);
    const want = await expected(env.sandbox.url, env.token, now);
    // Each reason in a month it has sends in, this month first.
    for (const [reason, ids] of want.attention) {
      const m = ids[0].length > 0 ? 0 : 1;
      if (ids[m].length === 0) continue;
      await env.page.goto(env.sandbox.url);
      await figuresDone(env.page);
      await showsExactly(env.page, attentionCell(env.page, reason, m).locator("a"), reason, want.months[m], ids[m]);
    }
    // The summary's two: every reason, this month and last.
    for (const m of [0, 1]) {
      const ids = [...want.attention.values()].flatMap((i) => i[m]);
      await env.page.goto(env.sandbox.url);
      await figuresDone(env.page);
      const kind = m === 0 ? "attention-this-month" : "attention-last-month";
      await showsExactly(env.page, summaryItem(env.page, kind).locator("a"), "any", want.months[m], ids);
    }
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("the report file matches the table", async () => {
    await env.page.goto(env.sandbox.url);
    await figuresDone(env.page);
    const want = await expected(env.sandbox.url, env.token, Math.floor(Date.now() / 1000));
    const [download] = await Promise.all([env.page.waitForEvent("download"), env.page.getByTestId("figures-download").click()]);
    const rows = parseCsv((await readFile(await download.path(), "utf8")).slice(1));
    assert.equal(rows[0][0], "team group");
    for (const row of want.rows) {
      const line = rows.find((r) => r[0] === row.name);
      assert.ok(line, row.name);
      assert.equal(cents(line[4]), row.spent, `${row.name} spent`);
      assert.equal(line[5], row.percent === null ? "" : String(row.percent), `${row.name} used %`);
      assert.equal(cents(line[8]), row.last, `${row.name} last month`);
    }
    for (const [reason, ids] of want.attention) {
      const label = (await env.page.locator(`[data-testid=attention] tr[data-reason=${reason}] th`).textContent()).trim();
      const line = rows.find((r) => r[0] === label);
      assert.deepEqual(line?.slice(1, 3), [String(ids[0].length), String(ids[1].length)], reason);
    }
  });

  test("Teams shows each group's spend this month, used % and status, sorts and filters by use, and a team's page its members' share", async () => {
    const want = await expected(env.sandbox.url, env.token, Math.floor(Date.now() / 1000));
    const rowsShown = async (query) => {
      await env.page.goto(`${env.sandbox.url}/teams?per_page=100${query}`);
      await env.page.locator("main [data-testid=teams-count][data-figures=done]").waitFor(VISIBLE);
      return env.page.locator("main [data-testid=teams-table] tbody tr").evaluateAll((trs) =>
        trs.map((tr) => ({ name: tr.dataset.group, band: tr.dataset.band, percent: tr.dataset.percent ?? null, spent: tr.querySelector("[data-testid=group-spent]").textContent })),
      );
    };
    const shown = await rowsShown("");
    assert.equal(shown.length, want.rows.length, "every group");
    for (const line of shown) {
      const row = want.rows.find((r) => r.name === line.name);
      assert.equal(Number(line.spent.replace(/[^\d]/g, "")), row.spent, `${line.name} spent this month: ${line.spent}`);
      assert.equal(line.percent, row.percent === null ? null : String(row.percent), `${line.name} used %`);
      assert.equal(line.band, row.band, `${line.name} status: ${JSON.stringify(row)}`);
    }
    // By use, most first, then no budget.
    const byUse = [...want.rows].sort((a, b) => (b.percent ?? -1) - (a.percent ?? -1));
    const sorted = await rowsShown("&sort=used&dir=desc");
    assert.deepEqual(sorted.map((r) => r.percent), byUse.map((r) => (r.percent === null ? null : String(r.percent))));
    for (const band of ["over", "near", "within", "none"]) {
      const names = (await rowsShown(`&band=${band}`)).map((r) => r.name);
      assert.deepEqual(names, want.rows.filter((r) => r.band === band).map((r) => r.name), band);
    }
    assert.deepEqual(await seriousAxeViolations(env.page), []);
    // The group that spent most: its members' shares add up to its spend.
    const top = [...want.rows].sort((a, b) => b.spent - a.spent)[0];
    const groups = (await platformGet(env.sandbox.url, env.token, "/api/v3/groups?page=1&per_page=100")).body.groups;
    const id = groups.find((g) => g.name === top.name).id;
    await env.page.goto(`${env.sandbox.url}/teams/${id}?per_page=100`);
    await env.page.locator("main table tbody tr [data-testid=member-share]").first().waitFor(VISIBLE);
    const shares = await env.page.locator("main table tbody tr [data-testid=member-share]").allTextContents();
    const total = shares.reduce((sum, t) => sum + Number(t.split("(")[0].replace(/[^\d]/g, "")), 0);
    assert.ok(total <= top.spent, `members' spend (${total}) within the group's (${top.spent}): some may have moved team`);
    assert.ok(shares.some((t) => /\(\d+ %\)/.test(t)), "shares in percent");
  });

  test("a sender sees their own sends only, and no budget table", async () => {
    const page = await signedInPage(env.browser, env.sandbox.url, "sender@example.com");
    await page.goto(env.sandbox.url);
    await page.getByRole("heading", { name: "Your sends this month" }).waitFor(VISIBLE);
    await figuresDone(page);
    assert.equal(await page.getByTestId("budget-table").count(), 0);
    const token = await sessionToken(page);
    const want = await expected(env.sandbox.url, token, Math.floor(Date.now() / 1000), "sender@example.com");
    for (const [reason, ids] of want.attention) {
      for (const m of [0, 1]) assert.equal(await attentionCell(page, reason, m).getAttribute("data-count"), String(ids[m].length), `${reason}, month ${m}`);
    }
    assert.equal(await summaryItem(page, "over").count(), 0, "a sender's summary has no budgets");
    assert.deepEqual(unexpectedErrors(page), []);
    await page.context().close();
  });
});

/**
 * Runs in the page before its scripts: every count the summary band ever states (`kind=count`,
 * each once, in the order first stated), every line said in its place while home reads, and
 * whether that line was ever there beside a count. A MutationObserver's callback runs before
 * the next paint, so nothing shown is missed.
 */
function recordSummary() {
  window.__stated = [];
  window.__reading = [];
  window.__both = false;
  const look = () => {
    const items = document.querySelectorAll("[data-testid=summary] li[data-kind]");
    for (const li of items) {
      const said = `${li.dataset.kind}=${li.dataset.count}`;
      if (!window.__stated.includes(said)) window.__stated.push(said);
    }
    const reading = document.querySelector("[data-testid=summary-reading]:not([hidden])");
    const text = reading?.textContent.trim();
    if (text && window.__reading.at(-1) !== text) window.__reading.push(text);
    if (reading && items.length > 0) window.__both = true;
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true, attributes: true });
}

describe("home at --latency-ms 1500: no count before every input has arrived", () => {
  const env = consoleFixture({ sandboxArgs: ["--latency-ms", "1500"], page: false });

  test("the summary states only its final counts, a line saying what is read meanwhile, and keeps them while it reads again", async () => {
    const page = await newPage(env.browser);
    await page.addInitScript(recordSummary);
    const now = Math.floor(Date.now() / 1000);
    await signIn(page, env.sandbox.url);
    await figuresDone(page);
    const want = await expected(env.sandbox.url, await sessionToken(page), now);
    const count = (band) => want.rows.filter((r) => r.band === band).length;
    const total = (m) => [...want.attention.values()].reduce((n, ids) => n + ids[m].length, 0);
    const final = [`over=${count("over")}`, `near=${count("near")}`, `attention-this-month=${total(0)}`, `attention-last-month=${total(1)}`];
    const stated = () => page.evaluate(() => window.__stated);
    assert.deepEqual([...(await stated())].sort(), [...final].sort(), "only the final counts were ever stated");
    const reading = await page.evaluate(() => window.__reading);
    assert.ok(reading.some((t) => /^Reading (the figures|this month's sends)…/.test(t)), `a line said what was being read: ${JSON.stringify(reading)}`);
    assert.equal(await page.evaluate(() => window.__both), false, "never the reading line and a count at once");
    assert.ok(await page.getByTestId("summary-reading").isHidden(), "the reading line gone once the answer is in");

    // Read again (as every 30 s while the tab is visible): the answer and its time stay until
    // the new read is complete.
    const asOf = await page.getByTestId("figures-as-of").textContent();
    await page.getByTestId("figures-refresh").click();
    await page.getByTestId("figures-progress").getByText("(reading…)").waitFor(VISIBLE);
    assert.equal(await page.getByTestId("figures-as-of").textContent(), asOf, "the time of the answer shown, while it reads again");
    assert.ok(await page.getByTestId("summary-reading").isHidden(), "no reading line in place of the answer shown");
    await page.getByTestId("figures-progress").getByText("(reading…)").waitFor({ state: "detached", timeout: 60_000 });
    assert.deepEqual([...(await stated())].sort(), [...final].sort(), "no other count while it read again");
    assert.deepEqual(unexpectedErrors(page), []);
    await page.context().close();
  });
});
