// User administration over SCIM, driven in a real Chromium against
// the real sandbox. Every expectation is checked against what the sandbox's
// own API reports (fetched from node with the page's access token), never
// against hard-coded counts.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  VISIBLE,
  assertNoCrash,
  consoleFixture,
  laterRequest,
  parseCsv,
  platformGet,
  seriousAxeViolations,
  TEST_HOOKS,
  newPage,
  sessionToken,
  signIn,
  unexpectedErrors,
  waitFor,
} from "./harness.mjs";

const SCIM = "/api/scim/v2/Users";

describe("users (SCIM)", () => {
  // A hostile name that ran as script would open an alert: the fixture records any.
  const env = consoleFixture();

  /** The access token the console holds (sessionStorage). */
  function token() {
    return sessionToken(env.page);
  }

  /** A call to the sandbox's API from node, as the signed-in user. */
  async function api(path, init = {}) {
    const response = await fetch(`${env.sandbox.url}${path}`, {
      ...init,
      headers: {
        Authorization: `Bearer ${await token()}`,
        "Content-Type": "application/scim+json",
        ...(init.headers ?? {}),
      },
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }

  async function allScimUsers() {
    const users = [];
    for (let start = 1; ; start += 100) {
      const { status, body } = await api(`${SCIM}?startIndex=${start}&count=100`);
      assert.equal(status, 200);
      users.push(...body.Resources);
      if (body.Resources.length === 0 || users.length >= body.totalResults) return users;
    }
  }

  async function scimUser(id) {
    const { status, body } = await api(`${SCIM}/${id}`);
    assert.equal(status, 200, `GET ${SCIM}/${id}`);
    return body;
  }

  async function allGroups() {
    const { status, body } = await api("/api/v3/groups?page=1&per_page=100");
    assert.equal(status, 200);
    return body.groups;
  }


  const main = () => env.page.locator("main#main");
  const usersTable = () => env.page.locator("table.users-table");
  const rowOf = (email) => usersTable().locator("tbody tr", { has: env.page.locator("td", { hasText: new RegExp(`^${email.replace(/[.+]/g, "\\$&")}$`) }) });

  async function openUsers(query = "") {
    await env.page.goto(`${env.sandbox.url}/users${query}`);
    await usersTable().waitFor(VISIBLE);
  }

  test("paging through all users shows each one exactly once", async () => {
    const total = (await api(`${SCIM}?count=0`)).body.totalResults;
    assert.ok(total > 10, `the sandbox seeds more than one page of users (${total})`);
    const expected = (await allScimUsers()).map((u) => u.userName).sort();
    assert.equal(expected.length, total);

    await openUsers("?count=10");
    const seen = [];
    for (let start = 1; start <= total; start += 10) {
      const end = Math.min(start + 9, total);
      await env.page.getByText(`Showing ${start}\u2013${end} of ${total}`).waitFor(VISIBLE);
      assert.match(env.page.url(), new RegExp(start === 1 ? "count=10" : `startIndex=${start}&count=10`));
      const emails = await usersTable().locator("tbody tr td:nth-child(3)").allTextContents();
      assert.equal(emails.length, end - start + 1);
      seen.push(...emails);
      if (end < total) {
        await main().getByRole("link", { name: "Next", exact: true }).click();
      }
    }
    // On the last page there is no next page.
    assert.equal(await main().getByRole("link", { name: "Next", exact: true }).count(), 0);
    // The link clicked kept the focus across each new page; "Next" is gone on the last one, so
    // its neighbour has it.
    await env.page.waitForFunction(() => document.activeElement?.dataset.pager === "Previous", null, { timeout: 5_000 });
    assert.deepEqual([...seen].sort(), expected, "every user once, none twice, none missing");
    assert.equal(new Set(seen).size, seen.length);

    // The page lives in the URL: a reload stays on it.
    const lastStart = Math.floor((total - 1) / 10) * 10 + 1;
    await env.page.reload();
    await env.page.getByText(`Showing ${lastStart}\u2013${total} of ${total}`).waitFor(VISIBLE);
    assert.match(env.page.url(), new RegExp(`startIndex=${lastStart}&count=10`));

    // A page size choice goes into the URL too, keeping the first row in view.
    await env.page.goto(`${env.sandbox.url}/users?startIndex=11&count=10`);
    await env.page.getByText(`Showing 11\u201320 of ${total}`).waitFor(VISIBLE);
    await main().getByLabel("Rows per page").selectOption("25");
    await env.page.waitForURL(/startIndex=1&count=25/);
    await env.page.getByText(`Showing 1\u201325 of ${total}`).waitFor(VISIBLE);
  });

  test("hostile names render as inert text", async () => {
    await openUsers("?count=100");
    const users = await allScimUsers();
    const hostile = users.filter((u) => /[<>]/.test(`${u.name.givenName} ${u.name.familyName}`));
    assert.ok(hostile.length >= 2, "the sandbox seeds names with markup");
    for (const user of hostile) {
      const name = `${user.name.givenName} ${user.name.familyName}`.trim();
      await usersTable().getByRole("link", { name, exact: true }).waitFor(VISIBLE);
    }
    assert.equal(await main().locator("img[src='x'], script").count(), 0, "no element was made from a name");
    assert.deepEqual(env.page.dialogs, [], "no script from the data ran");
  });

  test("an ?email= address asks the platform for that user by userName", async () => {
    await openUsers("?email=MANAGER%40example.com");
    await env.page.getByText("Showing 1\u20131 of 1").waitFor(VISIBLE);
    assert.deepEqual(await usersTable().locator("tbody tr td:nth-child(3)").allTextContents(), ["manager@example.com"]);

    await env.page.goto(`${env.sandbox.url}/users?email=nobody.here%40example.com`);
    await main().getByText("No user has the email \u201cnobody.here@example.com\u201d.").waitFor(VISIBLE);

    await main().getByRole("link", { name: "Show all users" }).click();
    const total = (await api(`${SCIM}?count=0`)).body.totalResults;
    await env.page.getByText(new RegExp(`^Showing 1\u201325 of ${total}$`)).waitFor(VISIBLE);
  });

  test("a search finds any part of a name or an email, and filters by role, team and status, over every user", async () => {
    const users = await allScimUsers();
    const nameOf = (u) => `${u.name.givenName} ${u.name.familyName}`.trim() || u.userName;
    const emailsOf = (list) => list.map((u) => u.userName).sort();
    /** The emails listed now, over every page of the result (at 100 a page). */
    async function listed(expected) {
      const status = main().getByTestId("directory-status");
      await status.getByText(new RegExp(`^${expected.length} of ${users.length} users match`)).waitFor(VISIBLE);
      await env.page.waitForFunction((n) => document.querySelectorAll("table.users-table tbody tr").length === Math.min(n, 100) || (n === 0 && !document.querySelector("table.users-table")), expected.length);
      return (await usersTable().locator("tbody tr td:nth-child(3)").allTextContents()).sort();
    }
    await openUsers("?count=100");
    // Four letters from inside a family name, typed as an admin types them.
    const family = users.map((u) => u.name.familyName).find((f) => f.length >= 6 && /^[a-z]+$/i.test(f));
    const fragment = family.slice(1, 5).toLowerCase();
    await main().getByLabel("Search users by name or email").pressSequentially(fragment.toUpperCase());
    await env.page.waitForURL(new RegExp(`[?&]q=${fragment.toUpperCase()}`));
    const byText = users.filter((u) => `${nameOf(u)} ${u.userName}`.toLowerCase().includes(fragment));
    assert.ok(byText.length >= 1 && byText.length < users.length, `"${fragment}" matches some users: ${byText.length}`);
    assert.deepEqual(await listed(byText), emailsOf(byText));

    // A role, then a team and a status on top, each kept in the address.
    await main().getByRole("link", { name: "Clear" }).click();
    await main().getByLabel("Role", { exact: true }).selectOption("manager");
    await env.page.waitForURL(/[?&]role=manager/);
    const managers = users.filter((u) => u.userType === "manager");
    assert.deepEqual(await listed(managers), emailsOf(managers));
    const team = managers.find((u) => u.division).division;
    await main().getByLabel("Team", { exact: true }).selectOption(team);
    await main().getByLabel("Status", { exact: true }).selectOption("active");
    await env.page.waitForURL(/[?&]status=active/);
    const narrowed = managers.filter((u) => u.division === team && u.active);
    assert.deepEqual(await listed(narrowed), emailsOf(narrowed));
    // Reloaded, the address holds the search.
    await env.page.reload();
    assert.deepEqual(await listed(narrowed), emailsOf(narrowed));

    await main().getByRole("link", { name: "Clear" }).click();
    await env.page.getByText(new RegExp(`^Showing 1\u2013${Math.min(100, users.length)} of ${users.length}$`)).waitFor(VISIBLE);
    assert.equal(await main().getByTestId("directory-status").count(), 0, "without a search, the platform's own list");
    assert.deepEqual(await seriousAxeViolations(env.page), []);
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("each row opens the user's page", async () => {
    await openUsers();
    await rowOf("manager@example.com").getByRole("link").click();
    await env.page.waitForURL(/\/users\/\d+$/);
    await main().getByRole("heading", { level: 1, name: "Max Manager" }).waitFor(VISIBLE);
  });

  async function openNewUserForm() {
    await env.page.goto(`${env.sandbox.url}/users/new`);
    // The team select is filled from every page of /api/v3/groups.
    const groups = await allGroups();
    await env.page.waitForFunction(
      (n) => document.querySelectorAll("#user-team option").length === n + 1,
      groups.length,
    );
    return groups;
  }

  async function fillNewUser({ email, given = "Erin", family = "Example", role = "manager", team }) {
    await main().getByLabel("Email").fill(email);
    await main().getByLabel("First name").fill(given);
    await main().getByLabel("Last name").fill(family);
    await main().getByLabel("Role").selectOption(role);
    await main().getByLabel("Team").selectOption(team);
  }

  test("a bad email is refused before anything is sent", async () => {
    const groups = await openNewUserForm();
    const sent = [];
    const watch = (request) => {
      if (request.url().includes("/api/")) sent.push(`${request.method()} ${request.url()}`);
    };
    env.page.on("request", watch);
    try {
      await fillNewUser({ email: "not-an-email", team: groups[0].name });
      await main().getByRole("button", { name: "Create user" }).click();
      const error = main().locator("#user-email-error");
      await error.waitFor(VISIBLE);
      assert.match(await error.textContent(), /@/);
      assert.equal(await main().getByLabel("Email").getAttribute("aria-invalid"), "true");
      assert.equal(await main().getByLabel("Email").getAttribute("aria-describedby"), "user-email-error");
      assert.equal(await env.page.evaluate(() => document.activeElement?.id), "user-email", "focus goes to the field");

      // Empty required fields get their own messages, too.
      await main().getByLabel("First name").fill("");
      await main().getByLabel("Email").press("Enter");
      await main().locator("#user-given-name-error").waitFor(VISIBLE);
      // Anything the submits sent would be seen before a request the page makes now.
      await laterRequest(env.page);
      assert.deepEqual(sent, [], "no request left the browser");
      assert.equal(await main().getByLabel("Last name").inputValue(), "Example", "typed values are kept");
    } finally {
      env.page.off("request", watch);
    }
  });

  let created;

  test("create a user, then find them in the list and in their team", async () => {
    const groups = await openNewUserForm();
    const team = groups.find((g) => g.name === "Marketing") ?? groups[1];
    const email = `e2e.created.${Date.now()}@example.com`;
    const posts = [];
    const watch = (request) => {
      if (request.method() === "POST" && request.url().includes(SCIM)) posts.push(request.url());
    };
    env.page.on("request", watch);
    try {
      await fillNewUser({ email, given: "Erin", family: "Created", role: "manager", team: team.name });
      // A double click must not create twice.
      await main().getByRole("button", { name: "Create user" }).dblclick();
      await env.page.waitForURL(/\/users\/\d+$/);
    } finally {
      env.page.off("request", watch);
    }
    assert.equal(posts.length, 1, "exactly one POST for a double click");
    // The outcome outlives the form: a notification on the user's page, dismissible.
    const note = env.page.getByRole("region", { name: "Notifications" }).getByTestId("notification").filter({ hasText: email });
    await note.waitFor(VISIBLE);
    assert.equal(await note.locator(".notification__text").textContent(), `User created: ${email}.`);
    await main().getByRole("heading", { level: 1, name: "Erin Created" }).waitFor(VISIBLE);
    await note.getByRole("button", { name: `Dismiss: User created: ${email}.` }).click();
    await note.waitFor({ state: "detached", timeout: 5_000 });

    const found = await api(`${SCIM}?filter=${encodeURIComponent(`userName eq "${email}"`)}`);
    assert.equal(found.body.totalResults, 1, "the platform has the user once");
    created = found.body.Resources[0];
    assert.equal(env.page.url().replace(/\?.*/, "").split("/").pop(), created.id);
    assert.equal(created.division, team.name);
    assert.equal(created.userType, "manager");

    await openUsers(`?email=${encodeURIComponent(email)}`);
    await env.page.getByText("Showing 1\u20131 of 1").waitFor(VISIBLE);
    const row = rowOf(email);
    assert.equal(await row.locator("td").nth(3).textContent(), team.name);

    await env.page.goto(`${env.sandbox.url}/teams/${team.id}`);
    await main().locator("table tbody tr", { hasText: email }).waitFor(VISIBLE);
  });

  test("a taken email is reported on the Email field and the form is kept", async () => {
    const groups = await openNewUserForm();
    await fillNewUser({ email: "admin@example.com", given: "Dup", family: "Licate", role: "sender", team: groups[0].name });
    await main().getByRole("button", { name: "Create user" }).click();
    const error = main().locator("#user-email-error");
    await error.waitFor(VISIBLE);
    assert.match(await error.textContent(), /A user with this email already exists/);
    assert.equal(await main().getByLabel("Email").inputValue(), "admin@example.com");
    assert.equal(await main().getByLabel("First name").inputValue(), "Dup");
    assert.equal(await main().getByLabel("Last name").inputValue(), "Licate");
    assert.equal(await main().getByLabel("Role").inputValue(), "sender");
    assert.equal(await main().getByLabel("Team").inputValue(), groups[0].name);
    assert.equal(await env.page.getByText("Saving").count(), 0);
    assert.ok(await main().getByRole("button", { name: "Create user" }).isEnabled());
  });

  test("role and team changes are saved and survive a reload", async () => {
    assert.ok(created, "the create test ran first");
    const groups = await allGroups();
    const newTeam = groups.find((g) => g.name !== created.division).name;
    await env.page.goto(`${env.sandbox.url}/users/${created.id}`);
    await main().getByRole("heading", { level: 1, name: "Erin Created" }).waitFor(VISIBLE);
    await env.page.waitForFunction(() => document.querySelectorAll("#user-team option").length > 2);
    await main().getByLabel("Role").selectOption("admin");
    await main().getByLabel("Team").selectOption(newTeam);
    await main().getByLabel("Last name").fill("Changed");
    await main().getByLabel("Last name").press("Enter");
    await env.page.getByTestId("user-outcome").waitFor(VISIBLE);
    assert.match(await env.page.getByTestId("user-outcome").textContent(), /^Saved\./);

    await env.page.reload();
    await main().getByRole("heading", { level: 1, name: "Erin Changed" }).waitFor(VISIBLE);
    assert.equal(await env.page.getByTestId("user-role").textContent(), "admin");
    assert.equal(await env.page.getByTestId("user-team").textContent(), newTeam);
    const after = await scimUser(created.id);
    assert.equal(after.userType, "admin");
    assert.equal(after.division, newTeam);
    assert.equal(after.name.familyName, "Changed");
  });

  test("deactivation asks first, Escape cancels, and the user can be activated again", async () => {
    await env.page.goto(`${env.sandbox.url}/users/${created.id}`);
    await env.page.getByTestId("user-status").getByText("Active").waitFor(VISIBLE);
    await main().getByRole("button", { name: "Deactivate user" }).click();
    const dialog = env.page.getByRole("dialog", { name: "Deactivate Erin Changed?" });
    await dialog.waitFor(VISIBLE);
    assert.match(await dialog.textContent(), /can no longer sign in/);
    assert.equal(await env.page.evaluate(() => document.activeElement?.textContent), "Cancel", "Cancel has the focus");
    await env.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    assert.equal((await scimUser(created.id)).active, true, "Escape changed nothing");

    await main().getByRole("button", { name: "Deactivate user" }).click();
    await dialog.getByRole("button", { name: "Deactivate", exact: true }).click();
    await env.page.getByTestId("user-status").getByText("Inactive").waitFor(VISIBLE);
    assert.equal((await scimUser(created.id)).active, false);

    await main().getByRole("button", { name: "Activate user" }).click();
    await env.page.getByTestId("user-status").getByText("Active").waitFor(VISIBLE);
    assert.equal((await scimUser(created.id)).active, true);
  });

  /** Counts PUTs in flight at once while `action` runs. */
  async function watchPuts(action) {
    let inFlight = 0;
    let most = 0;
    let count = 0;
    const isPut = (r) => r.method() === "PUT" && r.url().includes(SCIM);
    const start = (r) => {
      if (isPut(r)) {
        count += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
      }
    };
    const end = (r) => {
      if (isPut(r)) inFlight -= 1;
    };
    env.page.on("request", start);
    env.page.on("requestfinished", end);
    env.page.on("requestfailed", end);
    try {
      await action();
    } finally {
      env.page.off("request", start);
      env.page.off("requestfinished", end);
      env.page.off("requestfailed", end);
    }
    return { most, count };
  }

  async function select(emails) {
    for (const email of emails) {
      await rowOf(email).getByRole("checkbox").check();
    }
  }

  test("bulk: move three users to another team", async () => {
    const groups = await allGroups();
    const target = groups[groups.length - 1].name;
    const users = (await allScimUsers()).filter((u) => u.division !== target && Number(u.id) > 1003);
    const three = users.slice(0, 3);
    assert.equal(three.length, 3);
    await openUsers("?count=100");
    await select(three.map((u) => u.userName));
    await env.page.getByTestId("bulk-count").getByText("3 users selected").waitFor(VISIBLE);
    await main().getByLabel("Change", { exact: true }).selectOption("team");
    await main().getByLabel("New team").selectOption(target);
    const { count } = await watchPuts(async () => {
      await main().getByRole("button", { name: `Move 3 users to ${target}` }).click();
      await env.page.getByTestId("bulk-summary").getByText("Changed 3 of 3 users.").waitFor(VISIBLE);
      // The end is announced by the header's jobs indicator, on whatever screen is shown.
      await env.page.getByTestId("jobs-announce").getByText(`Bulk change: Move 3 users to ${target} done: Changed 3 of 3 users.`).waitFor({ state: "attached" });
    });
    assert.equal(count, 3, "one PUT per user");
    for (const user of three) {
      assert.equal((await scimUser(user.id)).division, target, `${user.userName} moved`);
      await rowOf(user.userName).locator("td").nth(3).getByText(target, { exact: true }).waitFor(VISIBLE);
    }
    // Users that changed are no longer selected.
    assert.equal(await env.page.getByTestId("bulk-count").textContent(), "0 users selected");
  });

  test("bulk: one user fails, the rest are changed, the failed one stays selected", async () => {
    // Senders: making an admin a manager would first ask about the admins it demotes.
    const candidates = (await allScimUsers()).filter(
      (u) => Number(u.id) > 1003 && u.userType === "sender" && u.id !== created.id,
    );
    const nine = candidates.slice(0, 9);
    assert.equal(nine.length, 9);
    const doomed = nine[4];
    await openUsers("?count=100");
    await select(nine.map((u) => u.userName));
    await env.page.getByTestId("bulk-count").getByText("9 users selected").waitFor(VISIBLE);
    // The user disappears between selection and the change.
    const removed = await fetch(`${env.sandbox.url}/__sandbox/users/${doomed.id}/delete`, { method: "POST", headers: TEST_HOOKS });
    assert.equal(removed.status, 204);

    // Hold the PUTs until the progress was read and two are out side by side, so progress and
    // the cap on requests in flight show.
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    let held = 0;
    await env.page.route(`**${SCIM}/*`, async (route) => {
      if (route.request().method() === "PUT") {
        held += 1;
        await gate;
      }
      await route.continue();
    });
    let progressSeen = "";
    try {
      await main().getByLabel("Change", { exact: true }).selectOption("role");
      await main().getByLabel("New role").selectOption("manager");
      const { most, count } = await watchPuts(async () => {
        await main().getByRole("button", { name: "Make 9 users manager" }).click();
        // Who is signed in and every user are read first; then the writes count.
        progressSeen = await env.page.getByTestId("bulk-progress").filter({ hasText: /\d of 9$/ }).textContent();
        await waitFor(() => held >= 2, { what: "two PUTs out at once" }).finally(release);
        await env.page.getByTestId("bulk-summary").waitFor(VISIBLE);
      });
      // The removed user is found missing when every user is read first: never sent.
      assert.equal(count, 8);
      assert.ok(most <= 4, `at most 4 PUTs in flight (saw ${most})`);
      assert.ok(most >= 2, `PUTs run side by side (saw ${most})`);
    } finally {
      release();
      await env.page.unroute(`**${SCIM}/*`);
    }
    assert.match(progressSeen, /^\d of 9$/, "progress reads like '4 of 9'");
    const summary = "Changed 8 of 9 users. 1 failed and stays selected for another try.";
    assert.equal(await env.page.getByTestId("bulk-summary").textContent(), summary);
    // The header's jobs indicator announced the end and keeps the job until dismissed.
    await env.page.getByTestId("jobs-announce").getByText(`Make 9 users manager done: ${summary}`).waitFor({ state: "attached" });
    await env.page.getByTestId("jobs-toggle").click();
    const job = env.page.getByTestId("job").filter({ hasText: summary });
    assert.equal(await job.getAttribute("data-job-state"), "done");
    await env.page.getByTestId("jobs-toggle").click();
    const failed = main().locator(`li.bulk-result[data-user-id="${doomed.id}"]`);
    assert.equal(await failed.getAttribute("data-outcome"), "failed");
    assert.match(await failed.textContent(), /no longer exists/);
    // The results as a file: every user asked, each with its outcome.
    const [download] = await Promise.all([env.page.waitForEvent("download"), env.page.getByTestId("bulk-download").click()]);
    const rows = parseCsv((await readFile(await download.path(), "utf8")).slice(1));
    assert.deepEqual(rows[0], ["id", "name", "email", "outcome", "before", "after", "message"]);
    assert.equal(rows.length, 10, "a line per user asked");
    assert.deepEqual(rows.filter((r) => r[3] === "failed").map((r) => r[0]), [String(doomed.id)]);
    assert.equal(rows.filter((r) => r[3] === "changed").length, 8);
    for (const r of rows.filter((r) => r[3] === "changed")) {
      assert.match(r[4], /^sender · /, "the user before the change");
      assert.match(r[5], /^manager · /, "the user after it");
    }
    for (const user of nine.filter((u) => u !== doomed)) {
      const line = main().locator(`li.bulk-result[data-user-id="${user.id}"]`);
      assert.equal(await line.getAttribute("data-outcome"), "ok");
      assert.equal((await scimUser(user.id)).userType, "manager", `${user.userName} changed`);
    }
    assert.equal(await env.page.getByTestId("bulk-count").textContent(), "1 user selected");
    // The failed one alone, on request.
    await main().getByRole("checkbox", { name: "Failed only (1)", exact: true }).check();
    await env.page.getByTestId("bulk-results-range").getByText("Failed 1–1 of 1").waitFor(VISIBLE);
    assert.deepEqual(await main().locator("li.bulk-result").evaluateAll((lis) => lis.map((li) => li.dataset.userId)), [doomed.id]);
  });

  test("bulk: deactivation asks first, activation brings the users back", async () => {
    const two = (await allScimUsers())
      .filter((u) => u.active && Number(u.id) > 1003 && u.id !== created.id)
      .slice(-2);
    assert.equal(two.length, 2);
    const emails = two.map((u) => u.userName);
    await openUsers("?count=100");
    await select(emails);
    await main().getByLabel("Change", { exact: true }).selectOption("deactivate");
    await main().getByRole("button", { name: "Deactivate 2 users" }).click();
    const dialog = env.page.getByRole("dialog", { name: "Deactivate 2 users?" });
    await dialog.waitFor(VISIBLE);
    assert.match(await dialog.textContent(), /can no longer sign in/);
    await dialog.getByRole("button", { name: "Deactivate 2 users" }).click();
    await env.page.getByTestId("bulk-count").getByText("0 users selected").waitFor(VISIBLE);
    for (const user of two) {
      assert.equal((await scimUser(user.id)).active, false, `${user.userName} deactivated`);
      await rowOf(user.userName).getByText("Inactive", { exact: true }).waitFor(VISIBLE);
    }

    await select(emails);
    await main().getByLabel("Change", { exact: true }).selectOption("activate");
    await main().getByRole("button", { name: "Activate 2 users" }).click();
    await env.page.getByTestId("bulk-count").getByText("0 users selected").waitFor(VISIBLE);
    for (const user of two) {
      assert.equal((await scimUser(user.id)).active, true, `${user.userName} active again`);
      await rowOf(user.userName).getByText("Active", { exact: true }).waitFor(VISIBLE);
    }
  });

  test("a create whose answer is lost is checked before anything is sent again", async () => {
    const groups = await openNewUserForm();
    const posts = [];
    const watch = (request) => {
      if (request.method() === "POST" && request.url().includes(SCIM)) posts.push(request.url());
    };
    env.page.on("request", watch);
    try {
      // The POST reaches the platform, which creates the user, but the answer is lost.
      const landedEmail = `e2e.lost.${Date.now()}@example.com`;
      await env.page.route(`**${SCIM}`, async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        await route.fetch();
        await route.abort("failed");
      });
      await fillNewUser({ email: landedEmail, given: "Lost", family: "Answer", role: "sender", team: groups[0].name });
      await main().getByRole("button", { name: "Create user" }).click();
      const landed = env.page.getByTestId("create-landed");
      await landed.waitFor(VISIBLE);
      assert.match(await landed.textContent(), /did create this user/);
      assert.equal(posts.length, 1);
      // Pressing "Create user" again asks the platform first and sends nothing.
      const checked = env.page.waitForResponse((r) => r.url().includes("filter=") && r.request().method() === "GET");
      await main().getByRole("button", { name: "Create user" }).click();
      await checked;
      await landed.waitFor(VISIBLE);
      assert.equal(posts.length, 1, "no second POST");
      const found = await api(`${SCIM}?filter=${encodeURIComponent(`userName eq "${landedEmail}"`)}`);
      assert.equal(found.body.totalResults, 1, "the user exists exactly once");
      await env.page.unroute(`**${SCIM}`);

      // The POST never reaches the platform: the check says so, and a resend creates the user.
      const lostEmail = `e2e.never.${Date.now()}@example.com`;
      await env.page.route(`**${SCIM}`, (route) =>
        route.request().method() === "POST" ? route.abort("failed") : route.continue(),
      );
      await main().getByLabel("Email").fill(lostEmail);
      await main().getByRole("button", { name: "Create user" }).click();
      const banner = env.page.getByTestId("form-banner");
      await banner.waitFor(VISIBLE);
      assert.match(await banner.textContent(), /was not created/);
      assert.equal(await main().getByLabel("First name").inputValue(), "Lost", "the input is kept");
      await env.page.unroute(`**${SCIM}`);
      await main().getByRole("button", { name: "Create user" }).click();
      await env.page.waitForURL(/\/users\/\d+$/);
      assert.equal(posts.length, 3);
      const made = await api(`${SCIM}?filter=${encodeURIComponent(`userName eq "${lostEmail}"`)}`);
      assert.equal(made.body.totalResults, 1);
    } finally {
      env.page.off("request", watch);
      await env.page.unroute(`**${SCIM}`);
    }
  });

  test("unknown users get a not-found message", async () => {
    await env.page.goto(`${env.sandbox.url}/users/999999`);
    await main().getByRole("heading", { name: "User not found" }).waitFor(VISIBLE);
    await env.page.goto(`${env.sandbox.url}/users/not-a-number`);
    await main().getByRole("heading", { name: "User not found" }).waitFor(VISIBLE);
  });

  test("the page itself raised no errors and no script from data ran", () => {
    assert.deepEqual(unexpectedErrors(env.page), []);
    assert.deepEqual(env.page.dialogs, []);
  });

  // Before asking SCIM: the console knows the role from /me (tests/e2e/roles.spec.mjs has the
  // platform's 403 explained, where the console cannot tell).
  test("a sender is told user administration needs the admin role", async () => {
    await env.page.goto(`${env.sandbox.url}/`);
    await env.page.getByRole("button", { name: "Sign out" }).click();
    await env.page.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    await signIn(env.page, env.sandbox.url, "sender@example.com");
    await env.page.goto(`${env.sandbox.url}/users`);
    const panel = env.page.getByTestId("admin-only");
    await panel.waitFor(VISIBLE);
    assert.match(await panel.textContent(), /admin role/);
    assert.match(await panel.textContent(), /signed in as a sender/);
    assert.equal(await main().getByRole("link", { name: "Add user" }).count(), 0);
    assert.equal(await main().getByLabel("Search users by name or email").count(), 0);
    assert.deepEqual(unexpectedErrors(env.page), []);
  });
});

// Bulk changes over every user a list matches, across its pages, paced within the
// platform's rate limit. A world of 120 users is five pages at 25.
describe("bulk changes across pages (--rate-limit 10)", () => {
  const env = consoleFixture({
    sandboxArgs: ["--world", "large", "--users", "120", "--groups", "8", "--campaigns", "10", "--sends", "100", "--products", "20", "--rate-limit", "10"],
  });

  // Patient: the console's requests and these share the token's 10 a second.
  async function api(path) {
    const { status, body } = await platformGet(env.sandbox.url, await sessionToken(env.page), path);
    assert.equal(status, 200, path);
    return body;
  }

  async function everyUser() {
    const users = [];
    for (let start = 1; ; start += 100) {
      const page = await api(`${SCIM}?startIndex=${start}&count=100`);
      users.push(...page.Resources);
      if (page.Resources.length === 0 || users.length >= page.totalResults) return users;
    }
  }

  test("select all matching, move every user of the list, checked against the platform", async () => {
    const before = await everyUser();
    const groups = (await api("/api/v3/groups?page=1&per_page=100")).groups;
    const target = groups[groups.length - 1].name;
    assert.ok(before.some((u) => u.division !== target), "some users are elsewhere");
    const main = env.page.locator("main#main");
    await env.page.goto(`${env.sandbox.url}/users`);
    await env.page.locator("table.users-table tbody tr").first().waitFor(VISIBLE);
    await main.getByLabel("Select all users on this page").check();
    await env.page.getByTestId("bulk-count").getByText("25 users selected").waitFor(VISIBLE);
    await env.page.getByTestId("select-all-matching").getByText(`Select all ${before.length} users`).click();
    await env.page.getByTestId("bulk-count").getByText(`All ${before.length} users selected`).waitFor(VISIBLE);
    await main.getByLabel("Change", { exact: true }).selectOption("team");
    await main.getByLabel("New team").selectOption(target);
    await main.getByRole("button", { name: `Move ${before.length} users to ${target}` }).click();
    await env.page.getByTestId("bulk-progress").waitFor(VISIBLE);
    try {
      await env.page
        .getByTestId("bulk-summary")
        .getByText(`Changed ${before.length} of ${before.length} users.`)
        .waitFor({ state: "visible", timeout: 90_000 });
    } catch (error) {
      throw new Error(`${error.message}\nthe panel said: ${await env.page.getByTestId("bulk-panel").textContent()}`);
    }
    const after = await everyUser();
    assert.deepEqual(after.map((u) => u.id).sort(), before.map((u) => u.id).sort(), "the same users");
    assert.deepEqual(after.filter((u) => u.division !== target).map((u) => u.userName), [], "every user moved");
    assert.equal(await env.page.getByTestId("bulk-count").textContent(), "0 users selected");
    // A result per user, listed 50 at a time: a run over thousands does not draw thousands.
    assert.ok(before.length > 50, `more users than a page of results (${before.length})`);
    const range = env.page.getByTestId("bulk-results-range");
    assert.equal(await range.textContent(), `Results 1–50 of ${before.length}`);
    assert.equal(await main.locator("li.bulk-result").count(), 50);
    await main.getByRole("button", { name: "Next results" }).click();
    const end = Math.min(100, before.length);
    await range.getByText(`Results 51–${end} of ${before.length}`).waitFor(VISIBLE);
    const second = await main.locator("li.bulk-result").evaluateAll((lis) => lis.map((li) => li.dataset.outcome));
    assert.equal(second.length, end - 50);
    assert.ok(second.every((outcome) => outcome === "ok"));
    assert.deepEqual(await seriousAxeViolations(env.page), [], "the results and their pager");
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("a search that narrows the list clears “select all matching”", async () => {
    const before = await everyUser();
    const main = env.page.locator("main#main");
    await env.page.goto(`${env.sandbox.url}/users`);
    await env.page.locator("table.users-table tbody tr").first().waitFor(VISIBLE);
    await main.getByLabel("Select all users on this page").check();
    await env.page.getByTestId("select-all-matching").getByText(`Select all ${before.length} users`).click();
    const count = env.page.getByTestId("bulk-count");
    await count.getByText(`All ${before.length} users selected`).waitFor(VISIBLE);
    const one = before[before.length - 1].userName;
    await main.getByLabel("Search users by name or email").fill(one);
    await env.page.locator("table.users-table tbody tr", { hasText: one }).waitFor(VISIBLE);
    await count.filter({ hasNotText: "All" }).waitFor(VISIBLE);
    assert.match(await count.textContent(), /^\d+ users? selected$/);
  });

  test("a bulk change runs on as a job while the admin goes through every screen, and ends whole", async () => {
    const before = await everyUser();
    const groups = (await api("/api/v3/groups?page=1&per_page=100")).groups;
    const target = groups[0].name;
    const main = env.page.locator("main#main");
    await env.page.goto(`${env.sandbox.url}/users`);
    await env.page.locator("table.users-table tbody tr").first().waitFor(VISIBLE);
    await main.getByLabel("Select all users on this page").check();
    await env.page.getByTestId("select-all-matching").getByText(`Select all ${before.length} users`).click();
    await main.getByLabel("Change", { exact: true }).selectOption("team");
    await main.getByLabel("New team").selectOption(target);
    await main.getByRole("button", { name: `Move ${before.length} users to ${target}` }).click();
    await env.page.getByTestId("bulk-progress").getByText(/^[1-9]\d* of \d+/).first().waitFor(VISIBLE);
    // Away mid-run, and on through the screens while the run's last answers come in.
    const nav = env.page.getByRole("navigation", { name: "Main" });
    for (const [label, ready] of [
      ["Sends", "table.sends-table tbody tr"],
      ["Teams", "main#main table tbody tr"],
      ["Campaigns", "main#main table tbody tr"],
      ["Catalog", "[data-testid=product-grid] li"],
      ["Users", "table.users-table tbody tr"],
      ["Teams", "main#main table tbody tr"],
    ]) {
      await nav.getByRole("link", { name: label, exact: true }).click();
      await env.page.locator(ready).first().waitFor(VISIBLE);
    }
    await assertNoCrash();
    // The run went on as a job: the header's indicator shows it, on every screen, to its end.
    await env.page.getByTestId("jobs-announce").getByText(`Changed ${before.length} of ${before.length} users.`).waitFor({ state: "attached", timeout: 120_000 });
    const after = await everyUser();
    assert.deepEqual(after.map((u) => u.id).sort(), before.map((u) => u.id).sort(), "the same users");
    assert.ok(after.every((u) => u.division === target), "every user moved, none left behind");
    // Back on Users, the run's results are there as it left them, until dismissed.
    await env.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users", exact: true }).click();
    await env.page.getByTestId("bulk-summary").getByText(`Changed ${before.length} of ${before.length} users.`).waitFor(VISIBLE);
    await env.page.getByRole("button", { name: "Dismiss results" }).click();
    await env.page.getByTestId("bulk-summary").waitFor({ state: "detached" });
  });

  /** Starts moving every user to the `n`th team group, and waits until the run is under way. */
  async function moveEveryoneTo(n, page = env.page) {
    const before = await everyUser();
    const groups = (await api("/api/v3/groups?page=1&per_page=100")).groups;
    const target = groups[n].name;
    const moved = (users) => users.filter((u) => u.division === target).length;
    const main = page.locator("main#main");
    await page.goto(`${env.sandbox.url}/users`);
    await page.locator("table.users-table tbody tr").first().waitFor(VISIBLE);
    await main.getByLabel("Select all users on this page").check();
    await page.getByTestId("select-all-matching").getByText(`Select all ${before.length} users`).click();
    await main.getByLabel("Change", { exact: true }).selectOption("team");
    await main.getByLabel("New team").selectOption(target);
    await main.getByRole("button", { name: `Move ${before.length} users to ${target}` }).click();
    await page.getByTestId("bulk-progress").getByText(/^[1-9]\d* of \d+/).first().waitFor(VISIBLE);
    return { before, target, moved };
  }

  test("a bulk change started on Users is cancelled from the Sends screen", async () => {
    const { before, target, moved } = await moveEveryoneTo(1);
    await env.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sends", exact: true }).click();
    await env.page.locator("table.sends-table tbody tr").first().waitFor(VISIBLE);
    await env.page.getByTestId("jobs-toggle").click();
    await env.page.getByRole("button", { name: `Cancel: Bulk change: Move ${before.length} users to ${target}` }).click();
    await env.page.locator("[data-testid=job][data-job-state=cancelled]").waitFor(VISIBLE);
    // Once the job says cancelled, nothing more is sent: two reads of every user, the second
    // after the first's requests, find the same.
    const atCancel = moved(await everyUser());
    assert.equal(moved(await everyUser()), atCancel, "no change after Cancel");
    assert.ok(atCancel > moved(before) && atCancel < before.length, `some, not all, moved (${moved(before)} → ${atCancel})`);
    // Back on Users, the results say it was cancelled, and who was not changed.
    await env.page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Users", exact: true }).click();
    await env.page.getByTestId("bulk-summary").getByText(/Cancelled: \d+ users not changed/).waitFor(VISIBLE);
    await env.page.getByRole("button", { name: "Dismiss results" }).click();
    await env.page.getByTestId("bulk-summary").waitFor({ state: "detached" });
  });

  test("closing the tab or signing out while a bulk change writes asks first; signing out cancels it", async () => {
    // A page of its own: the fixture's page answers every dialog itself.
    const page = await newPage(env.browser);
    await signIn(page, env.sandbox.url);
    const { before, moved } = await moveEveryoneTo(2, page);

    // A reload asks (the browser's own question); staying keeps the job running.
    const unload = new Promise((resolve) => page.once("dialog", async (d) => { resolve(d.type()); await d.dismiss(); }));
    page.reload().catch(() => {}); // refused: it never completes
    assert.equal(await unload, "beforeunload");
    await page.getByTestId("jobs-toggle").getByText("Jobs: 1 running").waitFor(VISIBLE);

    // Sign out asks; "Cancel" keeps the session and the job.
    const asked = new Promise((resolve) => page.once("dialog", async (d) => { resolve([d.type(), d.message()]); await d.dismiss(); }));
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    const [type, message] = await asked;
    assert.equal(type, "confirm");
    assert.match(message, /Sign out and cancel it\?/);
    await page.getByTestId("jobs-toggle").getByText("Jobs: 1 running").waitFor(VISIBLE);

    // "OK" signs out and cancels: nothing more is written (two reads, one after the other, agree).
    page.once("dialog", (d) => d.accept());
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    assert.equal(await page.locator("[data-testid=job]").count(), 0, "the jobs and their results went with the session");
    const atSignOut = moved(await everyUser());
    assert.equal(moved(await everyUser()), atSignOut, "no change after signing out");
    assert.ok(atSignOut < before.length, `the run stopped short (${atSignOut} of ${before.length} moved)`);
    // Signed in again: nothing of the last session's job is shown.
    await signIn(page, env.sandbox.url);
    assert.equal(await page.getByTestId("jobs").count(), 0, "no job after signing in again");
    await page.context().close();
  });
});

