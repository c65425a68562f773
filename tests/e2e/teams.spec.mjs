// Issue 5: team groups, their members and the active users directory, in a
// real Chromium against the real sandbox. Expectations come from the
// sandbox's own REST v3 answers, fetched from node with the page's token.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, errorsOf, painted, platformGet, sessionToken, signedInPage, unexpectedErrors } from "./harness.mjs";

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

  test("the team groups list with budgets, dates and member counts", async () => {
    const { body } = await api("/api/v3/groups?page=1&per_page=25");
    assert.ok(body.groups.length > 0);
    await env.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Teams", exact: true }).click();
    await env.page.waitForURL(/\/teams$/);
    const rows = main().locator("table tbody tr");
    await rows.first().waitFor(VISIBLE);
    assert.equal(await rows.count(), Math.min(body.total_groups, 25));
    for (const [i, group] of body.groups.entries()) {
      const row = rows.nth(i);
      const cells = row.locator("th, td");
      assert.equal(await cells.nth(0).textContent(), group.name);
      assert.equal(await cells.nth(1).textContent(), grouped(group.monthly_budget));
      // This month's spend beside the budget (its figures: tests/e2e/home.spec.mjs).
      await row.locator("[data-testid=group-spent]", { hasText: /\d/ }).waitFor(VISIBLE);
      assert.equal(await cells.nth(3).textContent(), grouped(`${group.one_time_budget}`));
      assert.equal(await cells.nth(4).textContent(), group.rollover ? "Yes" : "No");
      assert.equal(await cells.nth(5).textContent(), await localeDateTime(group.created_at));
      assert.equal(await cells.nth(6).textContent(), await localeDateTime(group.updated_at));
      const members = (await api(`/api/v3/groups/${group.id}/members`)).body;
      await cells.nth(7).getByText(String(members.length), { exact: true }).waitFor(VISIBLE);
    }
    // A hostile group name is plain text.
    const hostile = body.groups.find((g) => /[<>]/.test(g.name));
    assert.ok(hostile, "the sandbox seeds a group name with markup");
    await main().getByRole("link", { name: hostile.name, exact: true }).waitFor(VISIBLE);
    assert.equal(await main().locator("table b").count(), 0);
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

// Issue 28: a sales team of thousands. The platform sends a team's members as one array; the
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
    // The console's text order: case-insensitive first, then exact.
    const byText = (a, b) => {
      const [x, y] = [a.toLowerCase(), b.toLowerCase()];
      return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
    };
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


// Issue 41: an invitation key lets anyone sign up into its team. Whatever the platform answers a
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
