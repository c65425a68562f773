// The campaigns list with its delivery-type filter, one campaign's page, and an
// unknown campaign. Expected values come from the sandbox's own API (node, page's token).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, errorsOf, localMoney } from "./harness.mjs";

async function apiGet(base, token, path, expectStatus = 200) {
  const response = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(response.status, expectStatus, `GET ${path}`);
  return response.json();
}

const rowIds = (page) => page.locator("tbody tr[data-campaign-id]").evaluateAll((rows) => rows.map((r) => r.dataset.campaignId));

describe("campaigns", () => {
  const env = consoleFixture();

  test("each delivery filter shows only that type, kept in the address", async () => {
    await env.page.goto(`${env.sandbox.url}/campaigns`);
    await env.page.locator("tbody tr[data-campaign-id]").first().waitFor(VISIBLE);
    const all = await apiGet(env.sandbox.url, env.token, "/api/v3/touches?page=1&per_page=25");
    assert.deepEqual(await rowIds(env.page), all.touches.map((t) => String(t.id)));
    await env.page.locator("nav.pager").getByText(`of ${all.total_posts}`).waitFor(VISIBLE);

    for (const [label, type, words] of [
      ["Physical (mail)", "mail", "Physical (mail)"],
      ["eGift (email)", "email", "eGift (email)"],
    ]) {
      await env.page.getByRole("radio", { name: label, exact: true }).check();
      await env.page.waitForURL(new RegExp(`delivery_type=${type}`));
      const expected = await apiGet(env.sandbox.url, env.token, `/api/v3/touches?page=1&per_page=25&delivery_type=${type}`);
      assert.ok(expected.total_posts > 0 && expected.total_posts < all.total_posts);
      await env.page.waitForFunction(
        (ids) => [...document.querySelectorAll("tbody tr[data-campaign-id]")].map((r) => r.dataset.campaignId).join() === ids,
        expected.touches.map((t) => String(t.id)).join(),
        { timeout: 15_000 },
      );
      const kinds = await env.page.locator("tbody tr[data-campaign-id]").evaluateAll((rows) => rows.map((r) => r.dataset.delivery));
      assert.ok(kinds.every((k) => k === type), `only ${type} campaigns`);
      const cells = await env.page.locator("tbody tr[data-campaign-id] td:nth-of-type(1)").allInnerTexts();
      assert.ok(cells.every((c) => c === words), `delivery column says ${words}`);
      await env.page.locator("nav.pager").getByText(`of ${expected.total_posts}`).waitFor(VISIBLE);
      assert.equal(await env.page.getByRole("radio", { name: label, exact: true }).isChecked(), true);
    }

    // The filter survives a reload, then "All" removes it.
    await env.page.reload();
    await env.page.locator("tbody tr[data-campaign-id]").first().waitFor(VISIBLE);
    assert.equal(await env.page.getByRole("radio", { name: "eGift (email)", exact: true }).isChecked(), true);
    await env.page.getByRole("radio", { name: "All", exact: true }).check();
    await env.page.waitForURL((url) => !url.searchParams.has("delivery_type"));
    await env.page.locator("nav.pager").getByText(`of ${all.total_posts}`).waitFor(VISIBLE);
  });

  test("prices, dates and ship-to countries are readable in the list", async () => {
    const all = await apiGet(env.sandbox.url, env.token, "/api/v3/touches?page=1&per_page=25");
    const ranged = all.touches.find((t) => t.starting_egift_price != null && t.ending_egift_price != null);
    assert.ok(ranged, "a campaign with an eGift range on page 1");
    const row = env.page.locator(`tbody tr[data-campaign-id="${ranged.id}"]`);
    const price = await row.locator("td").nth(1).innerText();
    const [low, high] = [ranged.starting_egift_price, ranged.ending_egift_price];
    assert.equal(price, `${await localMoney(env.page, ranged.currency, low)} – ${await localMoney(env.page, ranged.currency, high)}`);
    const fixed = all.touches.find((t) => t.is_default_price);
    assert.equal(await env.page.locator(`tbody tr[data-campaign-id="${fixed.id}"] td`).nth(1).innerText(), `Fixed price (${fixed.currency})`);
    // Country codes with their names as a title and as text for screen readers.
    const items = await row
      .locator("li.country-codes__item")
      .evaluateAll((els) => els.map((e) => ({ code: e.firstElementChild.textContent, title: e.title, spoken: e.querySelector(".visually-hidden")?.textContent })));
    assert.deepEqual(items.map((i) => i.code), ranged.ship_to_countries);
    for (const item of items) {
      assert.ok(item.title.length > 2 && item.title === item.spoken, `${item.code} has its name as title and hidden text`);
    }
    const names = { US: "United States", CA: "Canada", GB: "United Kingdom", DE: "Germany", FR: "France" };
    for (const item of items) if (names[item.code]) assert.equal(item.title, names[item.code]);
    // Hostile names are text.
    const hostile = all.touches.find((t) => t.name.includes("<script>"));
    if (hostile) {
      await env.page.locator(`tbody tr[data-campaign-id="${hostile.id}"] th a`).getByText(hostile.name, { exact: true }).waitFor(VISIBLE);
    }
  });

  test("a campaign's page shows every field", async () => {
    const list = await apiGet(env.sandbox.url, env.token, "/api/v3/touches?page=1&per_page=25&delivery_type=email");
    const target = list.touches.find((t) => t.starting_egift_price != null) ?? list.touches[0];
    const { touch } = await apiGet(env.sandbox.url, env.token, `/api/v3/touches/${target.id}`);
    await env.page.goto(`${env.sandbox.url}/campaigns?delivery_type=email`);
    await env.page.locator(`tbody tr[data-campaign-id="${touch.id}"] th a`).click();
    await env.page.waitForURL(new RegExp(`/campaigns/${touch.id}$`));
    await env.page.getByRole("heading", { level: 1, name: touch.name, exact: true }).waitFor(VISIBLE);
    const facts = await env.page.getByTestId("campaign-facts").evaluate((dl) => {
      const out = {};
      for (const dt of dl.querySelectorAll("dt")) out[dt.textContent] = dt.nextElementSibling.textContent;
      return out;
    });
    assert.equal(facts["Campaign id"], String(touch.id));
    assert.equal(facts["Status"], touch.status);
    assert.equal(facts["Delivery type"], "eGift (email)");
    assert.equal(facts["Description"], touch.description);
    assert.equal(facts["Currency"], touch.currency);
    assert.equal(facts["Gift id"], String(touch.gift_id));
    // The creator by name, from the directory of active users.
    const users = [];
    for (let page = 1; ; page += 1) {
      const body = await apiGet(env.sandbox.url, env.token, `/api/v3/users?page=${page}&per_page=100`);
      users.push(...body.users);
      if (body.users.length < 100) break;
    }
    const creator = users.find((u) => Number(u.id) === Number(touch.user_id));
    const creatorName = creator ? `${creator.first_name} ${creator.last_name}`.trim() : `User ${touch.user_id} (not in the active users)`;
    await env.page.getByTestId("campaign-creator").getByText(creatorName, { exact: true }).waitFor(VISIBLE);
    assert.equal(facts["CRM key"], touch.crm_key ?? "None");
    assert.equal(facts["Fixed price"].startsWith(touch.is_default_price ? "Yes" : "No"), true);
    if (touch.starting_egift_price != null) {
      assert.equal(facts["Lowest eGift price"], await localMoney(env.page, touch.currency, touch.starting_egift_price));
      assert.equal(facts["Highest eGift price"], await localMoney(env.page, touch.currency, touch.ending_egift_price));
    }
    for (const field of ["Starts", "Created"]) assert.ok(facts[field].trim().length > 0, field);
    assert.equal(facts["Ends"].length > 0, true);
    const times = await env.page.getByTestId("campaign-facts").locator("time").evaluateAll((ts) => ts.map((t) => t.getAttribute("datetime")));
    assert.ok(times.includes(touch.start_date) && times.includes(touch.created_at));
    if (touch.end_date) assert.ok(times.includes(touch.end_date));
    else assert.equal(facts["Ends"], "No end date");
    const countries = await env.page.locator(".campaign-facts__countries li").allInnerTexts();
    assert.equal(countries.length, touch.ship_to_countries.length);
    touch.ship_to_countries.forEach((code, i) => assert.match(countries[i], new RegExp(`\\(${code}\\)$`)));
    assert.equal(Object.keys(facts).length, 18, "every field but the name (the heading), plus the price in words and this month's sends and spend");
  });

  test("each campaign's sends and spend this month, computed independently from the sends", async () => {
    // This month in the platform's offset (docs/platform.md, "Spend, budgets and what needs attention").
    const first = await apiGet(env.sandbox.url, env.token, "/api/v3/send?page=1&per_page=100");
    const ts = first.sends[0].created_at;
    const offset = ts.endsWith("Z") ? 0 : (ts.at(-6) === "-" ? -1 : 1) * (Number(ts.slice(-5, -3)) * 60 + Number(ts.slice(-2)));
    const month = new Date(Date.now() + offset * 60_000).toISOString().slice(0, 7);
    const returned = new Set(["Bounced and Credited", "Expired and Credited", "Refunded"]);
    const byTouch = new Map(); // touch id → { sends, usd cents }
    for (let page = 1, done = false; !done; page += 1) {
      const body = page === 1 ? first : await apiGet(env.sandbox.url, env.token, `/api/v3/send?page=${page}&per_page=100`);
      for (const send of body.sends) {
        const m = send.created_at.slice(0, 7);
        if (m < month) {
          done = true;
          break;
        }
        const row = byTouch.get(send.touch.id) ?? { sends: 0, usd: 0 };
        row.sends += 1;
        if (!returned.has(send.status) && send.currency === "USD") row.usd += Math.round(Number(send.current_total_cost) * 100);
        byTouch.set(send.touch.id, row);
      }
      if (body.sends.length < 100) done = true;
    }
    await env.page.goto(`${env.sandbox.url}/campaigns?per_page=100`);
    await env.page.waitForFunction(() => {
      const cells = [...document.querySelectorAll("tbody tr[data-campaign-id] [data-testid=campaign-sends]")];
      return cells.length > 0 && cells.every((c) => /\d/.test(c.textContent) && !c.textContent.includes("so far"));
    }, null, { timeout: 60_000 });
    const shown = await env.page.locator("tbody tr[data-campaign-id]").evaluateAll((trs) =>
      trs.map((tr) => ({ id: Number(tr.dataset.campaignId), sends: tr.querySelector("[data-testid=campaign-sends]").textContent, spent: tr.querySelector("[data-testid=campaign-spent]").textContent })),
    );
    let some = 0;
    for (const row of shown) {
      const want = byTouch.get(row.id) ?? { sends: 0, usd: 0 };
      assert.equal(Number(row.sends.replace(/[^\d]/g, "")), want.sends, `campaign ${row.id} sends`);
      // Only a sum in US dollars alone ("$70.44", never "A$70.44" or "$1.00 + €2.00") is compared.
      if (/^\$[\d,.]+$/.test(row.spent)) assert.equal(Number(row.spent.replace(/[^\d]/g, "")), want.usd, `campaign ${row.id} spent ${row.spent}`);
      if (want.sends > 0) some += 1;
    }
    assert.ok(some > 0, "some campaign has sends this month");
  });

  test("a name search covers every campaign, not one page, and stays in the address", async () => {
    const all = [];
    for (let page = 1; ; page += 1) {
      const body = await apiGet(env.sandbox.url, env.token, `/api/v3/touches?page=${page}&per_page=100`);
      all.push(...body.touches);
      if (body.touches.length < 100) break;
    }
    // A word of the oldest campaign: on the last page of 25, never the first.
    const word = all.at(-1).name.split(/\s+/).find((w) => /^[a-z]{3,}$/i.test(w)) ?? all.at(-1).name;
    const want = all.filter((c) => c.name.toLowerCase().includes(word.toLowerCase())).map((c) => String(c.id));
    await env.page.goto(`${env.sandbox.url}/campaigns`);
    const box = env.page.getByRole("searchbox", { name: "Find campaigns by name" });
    await box.fill(word);
    await box.press("Enter");
    await env.page.waitForURL((url) => url.searchParams.get("q") === word);
    await env.page.getByTestId("campaigns-found").waitFor(VISIBLE);
    assert.deepEqual(await rowIds(env.page), want);
    assert.ok(want.includes(String(all.at(-1).id)));
    await env.page.reload();
    await env.page.getByTestId("campaigns-found").waitFor(VISIBLE);
    assert.deepEqual(await rowIds(env.page), want, "the search survives a reload");
  });

  test("an unknown campaign id shows the platform's not-found message", async () => {
    const body = await apiGet(env.sandbox.url, env.token, "/api/v3/touches/999999", 404);
    await env.page.goto(`${env.sandbox.url}/campaigns/999999`);
    const notFound = env.page.getByTestId("campaign-not-found");
    await notFound.waitFor(VISIBLE);
    await notFound.getByText(body.message, { exact: true }).waitFor(VISIBLE);
    assert.match(body.message, /Touch not found/);
    await env.page.getByRole("heading", { level: 1, name: "Campaign not found" }).waitFor(VISIBLE);

    await env.page.goto(`${env.sandbox.url}/campaigns/not-a-number`);
    await env.page.getByTestId("campaign-not-found").getByText("is not a campaign id").waitFor(VISIBLE);
  });

  test("no console errors, page errors or CSP violations on the campaign screens", () => {
    // The 404 of the unknown campaign is the expected answer the screen explains; the
    // browser logs that failed resource load on its own.
    const unexpected = errorsOf(env.page).filter((e) => !(e.kind === "console" && /status of 404/.test(e.text)));
    assert.deepEqual(unexpected, []);
    assert.deepEqual(env.page.dialogs, []);
  });
});
