// No change locks the organisation out, and bulk changes and imports can be undone.
// Driven in a real Chromium against the real sandbox, which accepts a lock-out unless started
// with --protect-last-admin, so the console's own guard is what is tested. Every expectation
// about the platform is checked against its own state, read through the API.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { consoleFixture, scimUsers, sessionToken, signedInPage, unexpectedErrors, waitFor } from "./harness.mjs";
import { activeAdmins, allGroups, allUsers, ME, plainUsers, put, SCIM, usersRow } from "./admins.mjs";

const VISIBLE = { state: "visible", timeout: 30_000 };
const main = (env) => env.page.locator("main#main");
const rowOf = (env, email) => usersRow(env.page, email);

async function openUsers(env) {
  await env.page.goto(`${env.sandbox.url}/users?count=100`);
  await env.page.locator("table.users-table tbody tr").first().waitFor(VISIBLE);
}

async function select(env, emails) {
  for (const email of emails) await rowOf(env, email).getByRole("checkbox").check();
}

async function chooseRole(env, role) {
  await main(env).getByLabel("Change", { exact: true }).selectOption("role");
  await main(env).getByLabel("New role").selectOption(role);
}

/** The question the running job asks, on the bulk panel. */
const question = (env) => main(env).getByTestId("job-question");

/** Every SCIM user, read with `token` (another admin's, once the fixture's is no longer one). */
const allUsersAs = (env, token) => scimUsers(env.sandbox.url, token);

describe("no change leaves the organisation without an admin", () => {
  const env = consoleFixture();

  test("a bulk change that would demote every admin refuses your own row first, then asks about the others", async () => {
    const before = await allUsers(env);
    const admins = activeAdmins(before).length;
    assert.ok(admins >= 3, `the demo world has several admins (${admins})`);
    const me = before.find((u) => u.userName === ME);
    const puts = [];
    env.page.on("request", (r) => r.method() === "PUT" && puts.push(r.url()));
    await openUsers(env);
    await main(env).getByLabel("Select all users on this page").check();
    await env.page.getByTestId("bulk-count").getByText(`${before.length} users selected`).waitFor(VISIBLE);
    await chooseRole(env, "sender");
    await main(env).getByRole("button", { name: `Make ${before.length} users sender` }).click();
    // Your own admin role is never taken by the console: the others are counted without you.
    await question(env).getByText(`${admins - 1} admins lose the admin role; 1 remains.`, { exact: false }).waitFor(VISIBLE);
    const yours = main(env).locator(`li.bulk-result[data-user-id="${me.id}"]`);
    assert.equal(await yours.getAttribute("data-outcome"), "left alone", "refused before the question");
    assert.match(await yours.textContent(), /another admin must make this change/);
    await question(env).getByRole("button", { name: "Stop: change nobody" }).click();
    // Your row, refused, and every other user, not sent.
    const stopped = `Changed 0 of ${before.length} users. 1 user left alone. Cancelled: ${before.length - 1} users not changed, still selected.`;
    await env.page.getByTestId("bulk-summary").getByText(stopped).waitFor(VISIBLE);
    assert.deepEqual(puts, [], "nothing was sent");
    assert.deepEqual(activeAdmins(await allUsers(env)).map((u) => u.id), activeAdmins(before).map((u) => u.id));
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("an import that would demote every admin refuses your own row first, then asks about the others", async () => {
    const before = await allUsers(env);
    const admins = activeAdmins(before);
    const file = ["Email,Role", ...admins.map((u) => `${u.userName},sender`)].join("\n");
    await env.page.goto(`${env.sandbox.url}/users/import`);
    await env.page.locator("#import-file").setInputFiles({ name: "demote.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
    await env.page.locator("[data-testid=import-preview]").waitFor(VISIBLE);
    await env.page.getByLabel("Create new users and update existing ones").check();
    await env.page.locator("[data-testid=import-run]").click();
    const counted = `${admins.length - 1} admins lose the admin role or are deactivated; 1 remains.`;
    await question(env).getByText(counted, { exact: false }).waitFor(VISIBLE);
    const yours = env.page.locator("[data-testid=import-preview] tbody tr", { has: env.page.locator("td", { hasText: new RegExp(`^${ME}$`) }) });
    assert.equal(await yours.getAttribute("data-outcome"), "skipped", "refused before the question");
    assert.match(await yours.textContent(), /another admin must make this change/);
    await question(env).getByRole("button", { name: "Stop: change nobody" }).click();
    await env.page.getByTestId("import-summary").getByText("Stopped before any change: nobody was changed.").waitFor(VISIBLE);
    assert.deepEqual(activeAdmins(await allUsers(env)).map((u) => u.id), admins.map((u) => u.id), "every admin is still one");
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("demoting yourself with another admin: your own row is refused in words, the other is asked about and written", async () => {
    const before = await allUsers(env);
    const me = before.find((u) => u.userName === ME);
    const other = activeAdmins(before).find((u) => u.id !== me.id);
    const remaining = activeAdmins(before).length - 1;
    const puts = [];
    env.page.on("request", (r) => r.method() === "PUT" && puts.push(r.url().split("/").pop()));
    await openUsers(env);
    await select(env, [other.userName, ME]);
    await chooseRole(env, "manager");
    await main(env).getByRole("button", { name: "Make 2 users manager" }).click();
    await question(env).getByText(`1 admin loses the admin role; ${remaining} remain.`, { exact: false }).waitFor(VISIBLE);
    assert.deepEqual(puts, [], "nothing is written before the answer");
    await question(env).getByRole("button", { name: "Go ahead" }).click();
    await env.page.getByTestId("bulk-summary").getByText("Changed 1 of 2 users. 1 user left alone.").waitFor(VISIBLE);
    assert.deepEqual(puts, [other.id], "only the other admin was written");
    const now = await allUsers(env);
    assert.equal(now.find((u) => u.id === other.id).userType, "manager");
    assert.equal(now.find((u) => u.id === me.id).userType, "admin", "you keep the admin role");
    assert.match(await main(env).locator(`li.bulk-result[data-user-id="${me.id}"]`).textContent(), /this is your own account/);
    await put(env, other.id, { userType: "admin" });
    assert.deepEqual(unexpectedErrors(env.page), []);
  });
});

describe("one user's page: no lock-out, and undo for a few seconds", () => {
  const env = consoleFixture();

  async function openUser(id, name) {
    await env.page.goto(`${env.sandbox.url}/users/${id}`);
    await main(env).getByRole("heading", { level: 1, name }).waitFor(VISIBLE);
    await env.page.waitForFunction(() => document.querySelectorAll("#user-team option").length > 2);
  }

  test("your own page says another admin must change your role; a save that demotes you is refused in words", async () => {
    const before = await allUsers(env);
    const me = before.find((u) => u.userName === ME);
    const name = `${me.name.givenName} ${me.name.familyName}`;
    const puts = [];
    env.page.on("request", (r) => r.method() === "PUT" && puts.push(r.url()));
    await openUser(me.id, name);
    await env.page.getByTestId("user-yours-note").getByText("Another admin must make this change.", { exact: false }).waitFor(VISIBLE);
    assert.equal(await main(env).getByRole("button", { name: "Deactivate user" }).count(), 0, "no way to deactivate yourself");
    await main(env).getByLabel("Role").selectOption("manager");
    await main(env).getByRole("button", { name: "Save changes" }).click();
    await env.page.getByTestId("user-outcome").getByText("another admin must make this change", { exact: false }).waitFor(VISIBLE);
    assert.equal(await env.page.getByRole("dialog").count(), 0, "nothing was asked");
    assert.deepEqual(puts, [], "nothing was written");
    assert.equal((await allUsers(env)).find((u) => u.id === me.id).userType, "admin");
    assert.equal(await main(env).getByLabel("Role").inputValue(), "manager", "the form keeps the change");
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("a save offers Undo, which puts the user back", async () => {
    const before = await allUsers(env);
    const [user] = plainUsers(before, "sender");
    const groups = await allGroups(env);
    const team = groups.find((g) => g.name !== user.division).name;
    await openUser(user.id, `${user.name.givenName} ${user.name.familyName}`);
    await main(env).getByLabel("Team").selectOption(team);
    await main(env).getByRole("button", { name: "Save changes" }).click();
    await env.page.getByTestId("user-outcome").getByText("Saved.", { exact: false }).waitFor(VISIBLE);
    assert.equal((await allUsers(env)).find((u) => u.id === user.id).division, team);
    await env.page.getByTestId("user-undo").click();
    await env.page.getByTestId("user-outcome").getByText("Undone:", { exact: false }).waitFor(VISIBLE);
    const now = (await allUsers(env)).find((u) => u.id === user.id);
    assert.deepEqual([now.division, now.userType, now.active], [user.division, user.userType, user.active]);
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("a second save's Undo is offered its own 10 seconds, not the rest of the first's", async () => {
    const before = await allUsers(env);
    const [user] = plainUsers(before, "sender");
    const groups = await allGroups(env);
    const [first, second] = groups.filter((g) => g.name !== user.division).map((g) => g.name);
    // The page's clock, moved by the test instead of waited out.
    await env.page.clock.install();
    try {
      await openUser(user.id, `${user.name.givenName} ${user.name.familyName}`);
      const undo = env.page.getByTestId("user-undo");
      for (const [team, runFor] of [[first, 8_000], [second, 3_000]]) {
        await main(env).getByLabel("Team").selectOption(team);
        await main(env).getByRole("button", { name: "Save changes" }).click();
        await env.page.getByTestId("user-outcome").getByText(`in ${team}.`, { exact: false }).waitFor(VISIBLE);
        await undo.waitFor(VISIBLE);
        await env.page.clock.runFor(runFor);
      }
      // 11 s after the first save, 3 s after the second: the second's offer stands.
      assert.equal(await undo.isVisible(), true, "the second save's Undo is still offered");
      await env.page.clock.runFor(7_500);
      await undo.waitFor({ state: "detached" });
    } finally {
      await put(env, user.id, { division: user.division });
    }
    assert.deepEqual(unexpectedErrors(env.page), []);
  });
});

describe("the platform checks the author's role when a write arrives", () => {
  const env = consoleFixture();

  test("a write whose author lost the admin role meanwhile is refused by the platform and shown as such", async () => {
    const before = await allUsers(env);
    const me = before.find((u) => u.userName === ME);
    const other = activeAdmins(before).find((u) => u.id !== me.id);
    // Another admin's session, to put things back once you are no longer one.
    const second = await signedInPage(env.browser, env.sandbox.url, other.userName);
    const otherToken = await sessionToken(second);
    try {
      await openUsers(env);
      await select(env, [other.userName]);
      await chooseRole(env, "sender");
      await main(env).getByRole("button", { name: "Make 1 user sender" }).click();
      await question(env).getByText("1 admin loses the admin role;", { exact: false }).waitFor(VISIBLE);
      // As the console's write is on its way, another admin takes the role from you.
      await env.page.route(`**${SCIM}/${other.id}`, async (route) => {
        if (route.request().method() === "PUT") await put(env, me.id, { userType: "sender" }, otherToken);
        await route.fallback();
      });
      await question(env).getByRole("button", { name: "Go ahead" }).click();
      // The job ends with the write refused; Users, read again, says why.
      await env.page.getByTestId("jobs-announce").getByText("Changed 0 of 1 user. 1 failed", { exact: false }).waitFor({ state: "attached" });
      await main(env).getByText("An admin account is needed").waitFor(VISIBLE);
      await env.page.unroute(`**${SCIM}/${other.id}`);
      const now = await allUsersAs(env, otherToken);
      assert.equal(now.find((u) => u.id === other.id).userType, "admin", "the platform refused the write of a non-admin");
      assert.equal(now.find((u) => u.id === me.id).userType, "sender");
    } finally {
      await put(env, me.id, { userType: "admin" }, otherToken);
      await second.context().close();
    }
    const refusals = (e) => /\b403\b/.test(e.text);
    assert.deepEqual(unexpectedErrors(env.page).filter((e) => !refusals(e)), []);
  });
});

describe("undo", () => {
  const env = consoleFixture();

  test("a bulk change of every user is undone exactly, a user changed since is listed and left alone", async () => {
    const before = await allUsers(env);
    const target = "Undo Test Team";
    const groups = await allGroups(env);
    const team = groups.find((g) => before.some((u) => u.division !== g.name))?.name ?? target;
    await openUsers(env);
    await main(env).getByLabel("Select all users on this page").check();
    await env.page.getByTestId("bulk-count").getByText(`${before.length} users selected`).waitFor(VISIBLE);
    await main(env).getByLabel("Change", { exact: true }).selectOption("team");
    await main(env).getByLabel("New team").selectOption(team);
    await main(env).getByRole("button", { name: `Move ${before.length} users to ${team}` }).click();
    await env.page.getByTestId("bulk-summary").getByText(`Changed ${before.length} of ${before.length} users.`).waitFor(VISIBLE);
    const moved = await allUsers(env);
    assert.ok(moved.every((u) => u.division === team), "every user moved");

    // Someone else moves one user meanwhile.
    const elsewhere = groups.find((g) => g.name !== team).name;
    const touched = before.find((u) => u.division !== elsewhere);
    await put(env, touched.id, { division: elsewhere });

    await env.page.getByTestId("bulk-undo").click();
    const summary = `Changed ${before.length - 1} of ${before.length} users. 1 user left alone.`;
    await env.page.getByTestId("bulk-summary").getByText(summary).waitFor({ state: "visible", timeout: 120_000 });
    const after = await allUsers(env);
    for (const u of before) {
      const now = after.find((x) => x.id === u.id);
      if (u.id === touched.id) assert.equal(now.division, elsewhere, "the user changed since is left alone");
      else assert.equal(now.division, u.division, `${u.userName} is back in ${u.division}`);
    }
    const line = main(env).locator(`li.bulk-result[data-user-id="${touched.id}"]`);
    assert.equal(await line.getAttribute("data-outcome"), "left alone");
    assert.match(await line.textContent(), /Changed since by someone else/);
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("an import of 40 rows is undone exactly: the created deactivated, the updated put back", async () => {
    const before = await allUsers(env);
    const stamp = Date.now().toString(36);
    const senders = plainUsers(before, "sender")
      .filter((u) => u.userName !== ME)
      .slice(0, 10);
    assert.equal(senders.length, 10);
    const groups = await allGroups(env);
    const teamFor = (u) => groups.find((g) => g.name !== u.division).name;
    const cell = (text) => (/[,"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
    const rows = ["Email,First name,Last name,Role,Team"];
    for (let n = 0; n < 30; n++) rows.push(`undo-${stamp}-${n}@example.org,New,Hire${n},sender,${cell(groups[0].name)}`);
    for (const u of senders) rows.push(`${u.userName},${u.name.givenName},${u.name.familyName},manager,${cell(teamFor(u))}`);
    await env.page.goto(`${env.sandbox.url}/users/import`);
    await env.page.locator("#import-file").setInputFiles({ name: "hires.csv", mimeType: "text/csv", buffer: Buffer.from(rows.join("\n")) });
    await env.page.locator("[data-testid=import-preview]").waitFor(VISIBLE);
    await env.page.getByLabel("Create new users and update existing ones").check();
    await env.page.locator("[data-testid=import-run]").click();
    await env.page.getByTestId("import-summary").getByText(/created 30, updated 10/).waitFor({ state: "visible", timeout: 120_000 });

    // One updated user is changed again elsewhere before the undo.
    const touched = senders[0];
    await put(env, touched.id, { userType: "sender" });

    await env.page.getByTestId("import-undo").click();
    await env.page.getByTestId("import-undo-started").getByRole("link", { name: "Users" }).click();
    await env.page.getByTestId("bulk-summary").getByText("Changed 39 of 40 users. 1 user left alone.").waitFor({ state: "visible", timeout: 120_000 });
    const after = await allUsers(env);
    for (let n = 0; n < 30; n++) {
      const created = after.find((u) => u.userName === `undo-${stamp}-${n}@example.org`);
      assert.equal(created?.active, false, `hire ${n} is deactivated again`);
    }
    for (const u of senders.slice(1)) {
      const now = after.find((x) => x.id === u.id);
      assert.deepEqual([now.userType, now.division, now.active], [u.userType, u.division, u.active], `${u.userName} put back`);
    }
    const kept = after.find((x) => x.id === touched.id);
    assert.equal(kept.division, teamFor(touched), "the user changed since keeps the import's team: left alone");
    await waitFor(async () => (await main(env).locator(`li.bulk-result[data-user-id="${touched.id}"]`).getAttribute("data-outcome")) === "left alone", {
      what: "the user changed since is listed as left alone",
    });
    assert.deepEqual(unexpectedErrors(env.page), []);
  });
});
