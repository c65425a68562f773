// Sends answers over every send, never a partial answer shown as whole (issue 59): a link to a
// filter reads the whole list as a job and says what it found so far until it states the exact
// number; the choices beside the filters count what choosing them would show; a sender sees
// their own sends; new sends on a platform that moves are announced, not slid under the rows.
// Every expected number comes from the sandbox's own API, read from node with the page's token.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, errorsOf, platformGet, sessionToken, signedInPage } from "./harness.mjs";

const grouped = (n) => Number(n).toLocaleString("en-US");

/** Every send as the platform lists them. */
async function platformSends(base, token) {
  const first = (await platformGet(base, token, "/api/v3/send?page=1&per_page=100")).body;
  const sends = [...first.sends];
  for (let page = 2; sends.length < first.total_count; page++) {
    sends.push(...(await platformGet(base, token, `/api/v3/send?page=${page}&per_page=100`)).body.sends);
  }
  return sends;
}

/** Records, from the first paint on, every text the pager's summary and the filter note show. */
function recordCounts() {
  window.__counts = [];
  const note = () => {
    for (const el of document.querySelectorAll(".pager__summary, [data-testid=filter-note]")) {
      const text = el.textContent.trim();
      if (text && window.__counts.at(-1) !== text) window.__counts.push(text);
    }
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
}

const rowSenders = (page) => page.locator("tbody tr[data-send-id]").evaluateAll((rows) => rows.map((r) => r.dataset.senderId));

describe("sends: every filter answered over all the sends", () => {
  // 3,000 sends: 30 pages of 100, so a link to a filter must read far past the first page.
  const env = consoleFixture({ sandboxArgs: ["--world", "large", "--users", "400", "--sends", "3000"], page: false });

  test("a fresh link to one sender states their exact number among all the sends, and said 'so far' until then", async () => {
    const page = await signedInPage(env.browser, env.sandbox.url);
    const token = await sessionToken(page);
    const sends = await platformSends(env.sandbox.url, token);
    // A sender whose sends are spread over the history (the oldest is on the last page).
    const oldest = sends.at(-1).sender.id;
    const theirs = sends.filter((s) => s.sender.id === oldest);
    await page.addInitScript(recordCounts);
    await page.goto(`${env.sandbox.url}/sends?sender=${oldest}&per_page=100`);
    const final = `${grouped(theirs.length)} of all 3,000 sends match the filters.`;
    await page.getByTestId("filter-note").getByText(final, { exact: true }).waitFor({ ...VISIBLE, timeout: 120_000 });
    await page.waitForFunction((n) => document.querySelectorAll("tbody tr[data-send-id]").length === n, Math.min(theirs.length, 100));
    assert.ok((await rowSenders(page)).every((id) => id === String(oldest)), "only that sender's sends");
    await page.locator(".pager__summary").getByText(`Showing 1–${Math.min(theirs.length, 100)} of ${theirs.length}`, { exact: true }).waitFor(VISIBLE);
    const counts = await page.evaluate(() => window.__counts);
    // Until the end, every count said it was partial; none stated another number as the total.
    const total = new RegExp(`^Showing \\d+–\\d+ of ${theirs.length}$|^${grouped(theirs.length)} of all`);
    const wrong = counts.filter((t) => !/found so far|Nothing found yet|sends read|No sends/.test(t) && !total.test(t));
    assert.deepEqual(wrong, [], `every count before the end said it was partial: ${JSON.stringify(counts.slice(0, 8))}`);
    assert.ok(counts.some((t) => /found so far/.test(t)), `the count said "so far" while the pages were read: ${JSON.stringify(counts)}`);
    // The export holds what the count says, and says so.
    assert.match(await page.getByTestId("export-csv").innerText(), new RegExp(`${grouped(theirs.length)} sends matching the filters`));
    // The choices beside the filters count what choosing them would show.
    const groupCounts = {};
    for (const s of theirs) groupCounts[s.status] = (groupCounts[s.status] ?? 0) + 1;
    const senderOption = await page.getByLabel("Sender", { exact: true }).locator(`option[value="${oldest}"]`).textContent();
    assert.match(senderOption, new RegExp(`\\(${grouped(theirs.length)}\\)$`));
    assert.deepEqual(errorsOf(page), []);
    await page.context().close();
  });

  test("a search for a family name states the exact number of matching sends, and the next search is instant", async () => {
    const page = await signedInPage(env.browser, env.sandbox.url);
    const token = await sessionToken(page);
    const sends = await platformSends(env.sandbox.url, token);
    const family = sends.at(-1).recipient.name.split(" ").at(-1);
    const matches = (needle) =>
      sends.filter((s) => [s.recipient.name, s.recipient.email, s.recipient.company_name].some((f) => f.toLowerCase().includes(needle.toLowerCase())));
    await page.goto(`${env.sandbox.url}/sends`);
    await page.locator("tbody tr[data-send-id]").first().waitFor(VISIBLE);
    await page.getByLabel("Recipient name, email or company").fill(family);
    const n = matches(family).length;
    await page.getByTestId("filter-note").getByText(`${grouped(n)} of all 3,000 sends match the filters.`, { exact: true }).waitFor({ ...VISIBLE, timeout: 120_000 });
    // Every send is held now: another search answers whole at once, with no page read.
    let read = 0;
    page.on("request", (r) => {
      if (r.url().includes("/api/v3/send?")) read += 1;
    });
    const other = sends[1234].recipient.name.split(" ")[0];
    await page.getByLabel("Recipient name, email or company").fill(other);
    await page.getByTestId("filter-note").getByText(`${grouped(matches(other).length)} of all 3,000 sends match the filters.`, { exact: true }).waitFor(VISIBLE);
    assert.equal(read, 0, "no page read again for the second search");
    assert.deepEqual(errorsOf(page), []);
    await page.context().close();
  });

  test("a sender's list holds only their own sends, and says so", async () => {
    const page = await signedInPage(env.browser, env.sandbox.url, "sender@example.com");
    const token = await sessionToken(page);
    const sends = await platformSends(env.sandbox.url, token);
    const own = sends.filter((s) => s.sender.email.toLowerCase() === "sender@example.com");
    assert.ok(own.length > 0 && own.length < sends.length, `the sender has some of the sends (${own.length})`);
    await page.goto(`${env.sandbox.url}/sends?per_page=100`);
    await page.getByTestId("sends-yours").waitFor(VISIBLE);
    await page.getByTestId("filter-note").getByText(`${grouped(own.length)} of all 3,000 sends match the filters.`, { exact: true }).waitFor({ ...VISIBLE, timeout: 120_000 });
    const ids = await page.locator("tbody tr[data-send-id]").evaluateAll((rows) => rows.map((r) => r.dataset.sendId));
    assert.deepEqual(ids, own.slice(0, 100).map((s) => String(s.id)), "their own sends, newest first, and nobody else's");
    assert.deepEqual(errorsOf(page), []);
    await page.context().close();
  });
});

describe("sends: new sends on a platform that moves (--live)", () => {
  const env = consoleFixture({ sandboxArgs: ["--live", "--live-sends-per-second", "1"], page: false });

  test("an open list says new sends arrived within 40 s, without moving its rows, and shows them when asked", async () => {
    const page = await signedInPage(env.browser, env.sandbox.url);
    await page.goto(`${env.sandbox.url}/sends`);
    await page.locator("tbody tr[data-send-id]").first().waitFor(VISIBLE);
    const before = await page.locator("tbody tr[data-send-id]").evaluateAll((rows) => rows.map((r) => r.dataset.sendId));
    await page.getByTestId("sends-arrived").getByText(/new sends? arrived since this list was read/).waitFor({ ...VISIBLE, timeout: 40_000 });
    const still = await page.locator("tbody tr[data-send-id]").evaluateAll((rows) => rows.map((r) => r.dataset.sendId));
    assert.deepEqual(still, before, "the rows under the pointer did not move");
    await page.getByTestId("sends-arrived").getByRole("button", { name: "Show them" }).click();
    await page.waitForFunction((first) => Number(document.querySelector("tbody tr[data-send-id]")?.dataset.sendId) > Number(first), before[0], { timeout: 15_000 });
    await page.getByTestId("sends-arrived").waitFor({ state: "detached" });
    assert.deepEqual(errorsOf(page), []);
    await page.context().close();
  });
});
