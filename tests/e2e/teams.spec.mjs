// Team groups, their members and the active users directory, in a
// real Chromium against the real sandbox. Expectations come from the
// sandbox's own REST v3 answers, fetched from node with the page's token.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, byText, consoleFixture, errorsOf, painted, platformGet, seriousAxeViolations, sessionToken, signedInPage, unexpectedErrors } from "./harness.mjs";

/** "1500.00" -> "1,500.00": what the console shows for decimal text. */
function grouped(text) {
  const [whole, frac = ""] = String(text).split(".");
  const digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${digits}.${frac.padEnd(2, "0")}`;
}

describe("teams", () => {
  const env = consoleFixture();

  async function api(path) {
    const response = await fetch(`${env.sandbox.url}${path}`, {
      headers: { Authorization: `Bearer ${await sessionToken(env.page)}` },
    });
    return { status: response.status, body: await response.json() };
  }

  const main = () => env.page.locator("main#main");

  /** What the viewer's browser makes of a platform timestamp (locale and zone). */
  function localeDateTime(iso) {
    return env.page.evaluate(
      (text) =>
        new Date(text).toLocaleString(navigator.language, { dateStyle: "medium", timeStyle: "short" }),
      iso,
    );
  }

  /** The rows on screen: name, band, used % and the spend cell. */
  const shownRows = () =>
    main().locator("[data-testid=teams-table] tbody tr").evaluateAll((trs) =>
      trs.map((tr) => ({
        name: tr.dataset.group,
        band: tr.dataset.band,
        percent: tr.dataset.percent ?? null,
        spent: tr.querySelector("[data-testid=group-spent]").textContent,
        status: tr.querySelector("[data-testid=group-status]").textContent,
      })),
    );

  /** Until the walk has read this month: its figures are final. */
  const spendDone = () => main().locator("[data-testid=teams-count][data-figures=done]").waitFor(VISIBLE);

  test("every team group with its budget, spend, use and status, fitting a laptop screen", async () => {
    const { body } = await api("/api/v3/groups?page=1&per_page=100");
    assert.ok(body.groups.length > 0);
    await env.page.setViewportSize({ width: 1280, height: 800 });
    await env.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Teams", exact: true }).click();
    await env.page.waitForURL(/\/teams$/);
    await env.page.goto(`${env.sandbox.url}/teams?per_page=100`);
    await spendDone();
    const rows = await shownRows();
    assert.deepEqual(rows.map((r) => r.name), body.groups.map((g) => g.name), "every group, in the platform's order");
    await main().getByTestId("teams-count").getByText(`${body.groups.length} of ${body.groups.length} team groups`).waitFor(VISIBLE);
    for (const row of rows) {
      assert.ok(["over", "near", "within", "none"].includes(row.band), `${row.name}: a band`);
      assert.ok(/budget/i.test(row.status), `${row.name}: the status in words (${row.status})`);
      assert.ok(!row.spent.includes("so far"), `${row.name}: final spend`);
    }
    // The status column is on screen: no sideways scroll at 1280 px.
    const wrap = await main().locator(".table-wrap").evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(wrap.scroll <= wrap.client, `the table fits its box: ${JSON.stringify(wrap)}`);
    // A hostile group name is plain text.
    const hostile = body.groups.find((g) => /[<>]/.test(g.name));
    assert.ok(hostile, "the sandbox seeds a group name with markup");
    await main().getByRole("link", { name: hostile.name, exact: true }).waitFor(VISIBLE);
    assert.equal(await main().locator("table b").count(), 0);
    assert.deepEqual(await seriousAxeViolations(env.page), []);
    await env.page.setViewportSize({ width: 390, height: 844 });
    await main().getByRole("searchbox", { name: "Find a team group by name" }).waitFor(VISIBLE);
    assert.deepEqual(await seriousAxeViolations(env.page), []);
    await env.page.setViewportSize({ width: 1280, height: 720 });
  });

  test("the search and the band filter are in the address, and sort every group", async () => {
    const { body } = await api("/api/v3/groups?page=1&per_page=100");
    const word = body.groups[0].name.split(/\s+/)[0].toLowerCase();
    await env.page.goto(`${env.sandbox.url}/teams?per_page=100`);
    await spendDone();
    const search = main().getByRole("searchbox", { name: "Find a team group by name" });
    await search.fill(word.toUpperCase());
    await search.press("Enter");
    await env.page.waitForURL((url) => url.searchParams.get("q") === word.toUpperCase());
    const matching = body.groups.filter((g) => g.name.toLowerCase().includes(word)).map((g) => g.name);
    await env.page.waitForFunction((n) => document.querySelectorAll("main [data-testid=teams-table] tbody tr").length === n, matching.length);
    assert.deepEqual((await shownRows()).map((r) => r.name), matching);

    for (const band of ["over", "near", "within", "none"]) {
      await env.page.goto(`${env.sandbox.url}/teams?band=${band}&per_page=100`);
      await spendDone();
      const label = { over: "Over budget", near: "Near budget", within: "Within budget", none: "No monthly budget" }[band];
      await main().locator('nav[aria-label="Budget status"] a[aria-current=page]', { hasText: label }).waitFor(VISIBLE);
      const rows = await shownRows();
      assert.ok(rows.every((r) => r.band === band), `${band}: ${JSON.stringify(rows)}`);
      if (band !== "none") assert.ok(rows.length > 0, `the sandbox has groups ${band} budget`);
    }
    await env.page.goto(`${env.sandbox.url}/teams?per_page=100&sort=used&dir=desc`);
    await spendDone();
    const used = (await shownRows()).map((r) => (r.percent === null ? -1 : Number(r.percent)));
    assert.deepEqual(used, [...used].sort((a, b) => b - a), "most used first, no budget last");
    assert.equal(await main().locator("th[aria-sort=descending]").textContent(), "Used\u25bc");
  });

  test("team groups page through the address bar", async () => {
    const { body } = await api("/api/v3/groups?page=2&per_page=3");
    await env.page.goto(`${env.sandbox.url}/teams?page=2&per_page=3`);
    await env.page.getByText(`Showing 4\u20136 of ${body.total_groups}`).waitFor(VISIBLE);
    const names = await main().locator("table tbody tr th").allTextContents();
    assert.deepEqual(names, body.groups.map((g) => g.name));
    await main().getByRole("link", { name: "Next", exact: true }).click();
    await env.page.waitForURL(/page=3&per_page=3/);
    await env.page.getByText(`Showing 7\u20139 of ${body.total_groups}`).waitFor(VISIBLE);
  });

  test("a team's members, with the invitation key behind Show", async () => {
    const { body } = await api("/api/v3/groups?page=1&per_page=100");
    let group;
    let members;
    for (const g of body.groups) {
      members = (await api(`/api/v3/groups/${g.id}/members`)).body;
      if (members.some((m) => m.key)) {
        group = g;
        break;
      }
    }
    assert.ok(group, "some team has members with invitation keys");
    await env.page.goto(`${env.sandbox.url}/teams`);
    await main().getByRole("link", { name: group.name, exact: true }).click();
    await env.page.waitForURL(new RegExp(`/teams/${group.id}$`));
    await main().getByRole("heading", { level: 1, name: `Team: ${group.name}` }).waitFor(VISIBLE);
    const rows = main().locator("table tbody tr");
    await rows.first().waitFor(VISIBLE);
    assert.equal(await rows.count(), members.length);
    const emails = await main().locator("table tbody tr td:nth-child(2)").allTextContents();
    assert.deepEqual(emails, members.map((m) => m.email));

    // The budget line opens the page.
    const facts = main().getByTestId("team-budget");
    await facts.waitFor(VISIBLE);
    const budget = await facts.evaluate((dl) => Object.fromEntries([...dl.querySelectorAll("dt")].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])));
    assert.deepEqual(Object.keys(budget), ["Budget this month", "Spent this month", "Used", "Remaining", "Rollover", "One-time budget"]);
    assert.match(budget.Rollover, group.rollover ? /^Yes: / : /^No$/);
    assert.match(budget.Used, /(Over|Near|Within) budget$|No monthly budget$/);
    // Each member links to their user, found by email (SCIM's userName).
    const first = members[0];
    const link = main().locator("table tbody tr").first().locator("th a");
    assert.equal(await link.getAttribute("href"), `/users?email=${encodeURIComponent(first.email)}`);

    const member = members.find((m) => m.key);
    const row = main().locator("table tbody tr", { hasText: member.email });
    assert.equal(await row.locator("td").nth(1).textContent(), grouped(member.balance));
    assert.equal(await env.page.getByText(member.key).count(), 0, "the key is not on the page until asked for");
    const show = row.getByRole("button", { name: /^Show invitation key/ });
    await show.click();
    await row.getByText(member.key, { exact: true }).waitFor(VISIBLE);
    await row.getByRole("button", { name: /^Hide invitation key/ }).click();
    assert.equal(await env.page.getByText(member.key).count(), 0);
  });

  test("an unknown team shows the platform's not-found message", async () => {
    const { status, body } = await api("/api/v3/groups/999999/members");
    assert.equal(status, 404);
    await env.page.goto(`${env.sandbox.url}/teams/999999`);
    await env.page.getByTestId("team-not-found").getByText(body.message).waitFor(VISIBLE);
  });

  test("all active users, with team names resolved from the groups", async () => {
    const groups = (await api("/api/v3/groups?page=1&per_page=100")).body.groups;
    const names = new Map(groups.map((g) => [g.id, g.name]));
    const { body } = await api("/api/v3/users?page=1&per_page=25");
    await env.page.goto(`${env.sandbox.url}/teams`);
    await main().getByRole("link", { name: "All active users" }).click();
    await env.page.waitForURL(/\/teams\/users$/);
    await env.page.getByText(`Showing 1\u201325 of ${body.total_users}`).waitFor(VISIBLE);
    const rows = main().locator("table tbody tr");
    // Team names arrive with the groups; wait until every row has its name.
    await env.page.waitForFunction(
      () => ![...document.querySelectorAll("main table tbody tr td:nth-child(3)")].some((td) => /^Team group \d+/.test(td.textContent)),
    );
    for (const [i, user] of body.users.entries()) {
      const cells = rows.nth(i).locator("th, td");
      assert.equal(await cells.nth(1).textContent(), user.email);
      assert.equal(await cells.nth(2).textContent(), names.get(Number(user.team_group_id)));
    }
    // Only active users: fewer than SCIM lists.
    const scim = (await api("/api/scim/v2/Users?count=0")).body;
    assert.ok(body.total_users < scim.totalResults, "inactive users are not in the directory");
  });

  test("no errors and no script from data ran", () => {
    const unexpected = errorsOf(env.page).filter(
      (e) => !(e.kind === "console" && /Failed to load resource/.test(e.text)),
    );
    assert.deepEqual(unexpected, []);
    assert.deepEqual(env.page.dialogs, []);
  });
});

// A sales team of thousands. The platform sends a team's members as one array; the
// screen sorts all of them and shows a page at a time, page and sort in the address. A world
// of 300 users puts 60 % of them in the first team group: several pages at 25 a page.
describe("a big team", () => {
  const env = consoleFixture({
    sandboxArgs: ["--world", "large", "--users", "300", "--groups", "12", "--campaigns", "20", "--sends", "200", "--products", "40"],
  });

  async function api(path) {
    const response = await fetch(`${env.sandbox.url}${path}`, {
      headers: { Authorization: `Bearer ${await sessionToken(env.page)}` },
    });
    return response.json();
  }

  /** The email cell of every row on screen. */
  const shownEmails = () =>
    env.page.locator("main#main table tbody tr").evaluateAll((rows) => rows.map((r) => r.children[1].textContent));

  test("pages through every member, sorted over all of them, with the page in the address", async () => {
    const groups = (await api("/api/v3/groups?page=1&per_page=100")).groups;
    const team = groups[0];
    const members = await api(`/api/v3/groups/${team.id}/members`);
    assert.ok(members.length > 75, `a team of several pages (${members.length} members)`);
    const emails = members.map((m) => m.email).sort(byText);

    await env.page.goto(`${env.sandbox.url}/teams/${team.id}?sort=email&dir=asc&page=2&per_page=25`);
    await env.page.getByText(`Showing 26\u201350 of ${members.length}`).waitFor(VISIBLE);
    await env.page.getByText(`${members.length} members`).waitFor(VISIBLE);
    assert.deepEqual(await shownEmails(), emails.slice(25, 50), "page 2 of the whole team, by email");

    await env.page.locator("nav.pager a", { hasText: "Next" }).click();
    await env.page.waitForURL(/[?&]page=3(&|$)/);
    await env.page.getByText(`Showing 51\u201375 of ${members.length}`).waitFor(VISIBLE);
    assert.deepEqual(await shownEmails(), emails.slice(50, 75));
    assert.match(env.page.url(), /sort=email/, "the sort stays in the address");

    await env.page.locator("nav.pager a", { hasText: "Last" }).click();
    const lastStart = Math.floor((members.length - 1) / 25) * 25;
    await env.page.getByText(`Showing ${lastStart + 1}\u2013${members.length} of ${members.length}`).waitFor(VISIBLE);
    assert.deepEqual(await shownEmails(), emails.slice(lastStart));

    await env.page.goto(`${env.sandbox.url}/teams/${team.id}?sort=email&dir=desc`);
    await env.page.getByText(`Showing 1\u201325 of ${members.length}`).waitFor(VISIBLE);
    assert.deepEqual(await shownEmails(), [...emails].reverse().slice(0, 25), "descending over all members");
    assert.deepEqual(errorsOf(env.page).filter((e) => !(e.kind === "console" && /Failed to load resource/.test(e.text))), []);
  });
});


// An invitation key lets anyone sign up into its team. Whatever the platform answers a
// sender's or a manager's token, the console offers the keys to admins alone.
describe("invitation keys by role", () => {
  const env = consoleFixture({ page: false });

  for (const role of ["manager", "sender"]) {
    test(`${role}: a team's members show no invitation key, though the platform answers them`, async () => {
      const page = await signedInPage(env.browser, env.sandbox.url, `${role}@example.com`);
      const token = await sessionToken(page);
      const { body } = await platformGet(env.sandbox.url, token, "/api/v3/groups?page=1&per_page=100");
      let group;
      let members;
      for (const g of body.groups) {
        members = (await platformGet(env.sandbox.url, token, `/api/v3/groups/${g.id}/members`)).body;
        if (members.slice(0, 25).some((m) => m.key)) {
          group = g;
          break;
        }
      }
      assert.ok(group, `the platform answers a ${role} with invitation keys`);
      await page.locator("[data-testid=current-user]").getByText(role, { exact: true }).waitFor(VISIBLE);
      await page.goto(`${env.sandbox.url}/teams/${group.id}`);
      const rows = page.locator("main#main table tbody tr");
      await rows.first().waitFor(VISIBLE);
      // The role is known again after the navigation before the keys' cells are judged.
      await page.locator("[data-testid=current-user]").getByText(role, { exact: true }).waitFor(VISIBLE);
      await painted(page);
      assert.equal(await rows.count(), Math.min(members.length, 25));
      assert.equal(await page.getByRole("button", { name: /invitation key/ }).count(), 0, "no Show button");
      const html = await page.content();
      for (const member of members.filter((m) => m.key)) {
        assert.ok(!html.includes(member.key), `${member.email}'s key is in the page`);
      }
      await page.locator("main#main table tbody tr td", { hasText: "Admins only" }).first().waitFor(VISIBLE);
      assert.deepEqual(unexpectedErrors(page), []);
      await page.context().close();
    });
  }
});
