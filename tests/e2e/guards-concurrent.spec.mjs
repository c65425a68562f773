// The last-admin guard when admins act at once: two tabs, two browsers, two admins each
// removing themselves or each other, an import whose new admin could not be created, a user
// page loaded before someone else changed the user. Each ends with at least one active admin,
// read from the platform itself; the sandbox accepts a lock-out (no --protect-last-admin), so
// what holds is the console's guard (no one removes their own admin role; the rest is counted
// right before each write) and the platform's check of the author's role when a write arrives.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { consoleFixture, openCopy, scimUsers, sessionToken, signedInPage, unexpectedErrors } from "./harness.mjs";
import { activeAdmins, allUsers, ME, plainUsers, put, SCIM, usersRow } from "./admins.mjs";

const VISIBLE = { state: "visible", timeout: 30_000 };
/**
 * Leaves exactly two active admins, you and one other, for the duration of `run(me, other)`;
 * every admin demoted for it is an admin again afterwards, whatever the test did.
 */
async function withTwoAdmins(env, run) {
  const before = await allUsers(env);
  const admins = activeAdmins(before);
  const me = admins.find((u) => u.userName === ME);
  const other = admins.find((u) => u.id !== me.id);
  const rest = admins.filter((u) => u.id !== me.id && u.id !== other.id);
  for (const u of rest) await put(env, u.id, { userType: "sender" });
  // A test may leave you without the admin role: the other admin's token puts things back then.
  const tokens = [env.token];
  try {
    await run(me, other, (token) => tokens.push(token));
  } finally {
    const restore = async (u) => {
      for (const token of tokens) {
        const response = await fetch(`${env.sandbox.url}${SCIM}/${u.id}`, {
          method: "PUT",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/scim+json" },
          body: JSON.stringify({ userType: "admin", active: true }),
        });
        if (response.ok) return;
      }
      assert.fail(`${u.userName} could not be made an admin again`);
    };
    // You first, with the other admin's token if yours no longer writes.
    for (const u of [me, ...admins.filter((a) => a.id !== me.id)]) await restore(u);
  }
}

/** Every SCIM user, read with the first of `tokens` whose user is still an admin. */
async function usersWithAnyOf(env, tokens) {
  for (const token of tokens) {
    try {
      return await scimUsers(env.sandbox.url, token);
    } catch {
      // That token's user is no admin any more.
    }
  }
  return assert.fail("no token reads the users");
}

const main = (page) => page.locator("main#main");
const rowOf = usersRow;

/** On Users: selects `emails` and starts "Make N users `role`". */
async function bulkRole(page, url, emails, role) {
  await page.goto(`${url}/users?count=100`);
  await page.locator("table.users-table tbody tr").first().waitFor(VISIBLE);
  for (const email of emails) await rowOf(page, email).getByRole("checkbox").check();
  await main(page).getByLabel("Change", { exact: true }).selectOption("role");
  await main(page).getByLabel("New role").selectOption(role);
  const users = emails.length === 1 ? "1 user" : `${emails.length} users`;
  await main(page).getByRole("button", { name: `Make ${users} ${role}` }).click();
}

const question = (page) => main(page).getByTestId("job-question");

async function openUser(page, url, user) {
  await page.goto(`${url}/users/${user.id}`);
  await main(page).getByRole("heading", { level: 1, name: `${user.name.givenName} ${user.name.familyName}` }).waitFor(VISIBLE);
  await page.waitForFunction(() => document.querySelectorAll("#user-team option").length > 2);
}

/** Fails unless the platform still has an active admin, and names who. */
async function assertAnAdminRemains(env, who) {
  const admins = activeAdmins(await allUsers(env));
  assert.ok(admins.length >= 1, "the organisation keeps an active admin");
  if (who) assert.deepEqual(admins.map((u) => u.id).sort(), who.map((u) => u.id).sort());
}

describe("the guard counts again right before it writes", () => {
  const env = consoleFixture();

  test("two tabs: the second run waits for the first, then counts afresh", async () => {
    await withTwoAdmins(env, async (me, other) => {
      const tab = await openCopy(env.page);
      try {
        // Tab A: demote the other admin; the question stays open.
        await bulkRole(env.page, env.sandbox.url, [other.userName], "sender");
        await question(env.page).getByText("1 admin loses the admin role; 1 remains.", { exact: false }).waitFor(VISIBLE);
        // Tab B: make the same admin a manager on their page. It waits for tab A's run.
        await openUser(tab, env.sandbox.url, other);
        await main(tab).getByLabel("Role").selectOption("manager");
        await main(tab).getByRole("button", { name: "Save changes" }).click();
        await tab.getByTestId("user-progress").getByText("another run that changes admins is in progress in another tab", { exact: false }).waitFor(VISIBLE);
        // Tab A goes ahead: the other admin is demoted.
        await question(env.page).getByRole("button", { name: "Go ahead" }).click();
        await env.page.getByTestId("bulk-summary").getByText("Changed 1 of 1 user.", { exact: false }).waitFor(VISIBLE);
        // Tab B now counts the admins as they are: no admin is lost, so it writes.
        await tab.getByTestId("user-outcome").getByText("Saved.", { exact: false }).waitFor(VISIBLE);
        assert.equal((await allUsers(env)).find((u) => u.id === other.id).userType, "manager");
        await assertAnAdminRemains(env, [me]);
        assert.deepEqual(unexpectedErrors(tab), []);
      } finally {
        await tab.close();
      }
    });
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("two admins in two browsers each remove their own admin role at the same moment: both refused, both stay", async () => {
    await withTwoAdmins(env, async (me, other, alsoWith) => {
      // The other admin, signed in in a browser of their own (no lock is shared).
      const second = await signedInPage(env.browser, env.sandbox.url, other.userName);
      alsoWith(await sessionToken(second));
      const puts = [];
      for (const page of [env.page, second]) page.on("request", (r) => r.method() === "PUT" && puts.push(r.url()));
      try {
        // You on your own page; the other admin through a bulk change of their own row.
        await openUser(env.page, env.sandbox.url, me);
        await main(env.page).getByLabel("Role").selectOption("sender");
        await second.goto(`${env.sandbox.url}/users?count=100`);
        await rowOf(second, other.userName).getByRole("checkbox").check();
        await main(second).getByLabel("Change", { exact: true }).selectOption("role");
        await main(second).getByLabel("New role").selectOption("sender");
        await Promise.all([
          main(env.page).getByRole("button", { name: "Save changes" }).click(),
          main(second).getByRole("button", { name: "Make 1 user sender" }).click(),
        ]);
        await env.page.getByTestId("user-outcome").getByText("another admin must make this change", { exact: false }).waitFor(VISIBLE);
        const line = main(second).locator(`li.bulk-result[data-user-id="${other.id}"]`);
        await line.getByText("another admin must make this change", { exact: false }).waitFor(VISIBLE);
        assert.equal(await line.getAttribute("data-outcome"), "left alone");
        assert.deepEqual(puts, [], "nothing was written");
        await assertAnAdminRemains(env, [me, other]);
        assert.deepEqual(unexpectedErrors(second), []);
      } finally {
        await second.context().close();
      }
    });
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("two admins in two browsers demote each other, both questions open: the later write is the platform's to refuse", async () => {
    await withTwoAdmins(env, async (me, other, alsoWith) => {
      const second = await signedInPage(env.browser, env.sandbox.url, other.userName);
      alsoWith(await sessionToken(second));
      try {
        await bulkRole(env.page, env.sandbox.url, [other.userName], "sender");
        await question(env.page).getByText("1 admin loses the admin role; 1 remains.", { exact: false }).waitFor(VISIBLE);
        await bulkRole(second, env.sandbox.url, [ME], "sender");
        await question(second).getByText("1 admin loses the admin role; 1 remains.", { exact: false }).waitFor(VISIBLE);
        await Promise.all([
          question(env.page).getByRole("button", { name: "Go ahead" }).click(),
          question(second).getByRole("button", { name: "Go ahead" }).click(),
        ]);
        // One of the two writes lands; the other's author is no longer an admin by then (its
        // screen then says an admin account is needed). Each job's end is announced.
        const ended = (page) => page.getByTestId("jobs-announce").getByText(/^Bulk change: Make 1 user sender (done|failed)/).waitFor({ state: "attached", timeout: 30_000 });
        await Promise.all([ended(env.page), ended(second)]);
        const remaining = activeAdmins(await usersWithAnyOf(env, [env.token, await sessionToken(second)]));
        assert.equal(remaining.length, 1, "exactly one of the two stays an admin");
        assert.ok([me.id, other.id].includes(remaining[0].id));
      } finally {
        await second.context().close();
      }
    });
    const refusals = (e) => /\b403\b/.test(e.text);
    assert.deepEqual(unexpectedErrors(env.page).filter((e) => !refusals(e)), []);
  });

  test("an import that hands over to a new admin whose create fails: your row refused, the other admin's written with you staying", async () => {
    await withTwoAdmins(env, async (me, other) => {
      const boss = `new.boss.${Date.now()}@example.com`;
      const cell = (text) => (/[,"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
      const row = (u, role) => [u.userName, u.name.givenName, u.name.familyName, role, u.division].map(cell).join(",");
      const file = ["Email,First name,Last name,Role,Team", row({ userName: boss, name: { givenName: "New", familyName: "Boss" }, division: me.division }, "admin"), row(other, "sender"), row(me, "sender")].join("\n");
      // The identity provider created the user meanwhile: the platform answers 409.
      await env.page.route(`**${SCIM}`, (route) =>
        route.request().method() === "POST"
          ? route.fulfill({
              status: 409,
              contentType: "application/scim+json",
              body: JSON.stringify({ schemas: ["urn:ietf:params:scim:api:messages:2.0:Error"], status: "409", scimType: "uniqueness", detail: "User already exists." }),
            })
          : route.fallback(),
      );
      const rowFor = (email) => env.page.locator("[data-testid=import-preview] tbody tr", { has: env.page.locator("td", { hasText: new RegExp(`^${email.replace(/[.+]/g, "\\$&")}$`) }) });
      try {
        await env.page.goto(`${env.sandbox.url}/users/import`);
        await env.page.locator("#import-file").setInputFiles({ name: "handover.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
        await env.page.locator("[data-testid=import-preview]").waitFor(VISIBLE);
        await env.page.getByLabel("Create new users and update existing ones").check();
        await env.page.locator("[data-testid=import-run]").click();
        // Counted without you (refused first) and with the new admin as planned.
        await question(env.page).getByText("1 admin loses the admin role or is deactivated; 2 remain.", { exact: false }).waitFor(VISIBLE);
        assert.equal(await rowFor(me.userName).getAttribute("data-outcome"), "skipped");
        await question(env.page).getByRole("button", { name: "Go ahead" }).click();
        await env.page.getByTestId("import-summary").waitFor(VISIBLE);
        await rowFor(other.userName).and(env.page.locator("[data-outcome]")).waitFor(VISIBLE);
        assert.equal(await rowFor(boss).getAttribute("data-outcome"), "failed");
        assert.equal(await rowFor(other.userName).getAttribute("data-outcome"), "updated");
        assert.match(await rowFor(me.userName).textContent(), /another admin must make this change/);
        await assertAnAdminRemains(env, [me]);
      } finally {
        await env.page.unroute(`**${SCIM}`);
      }
    });
    assert.deepEqual(unexpectedErrors(env.page).filter((e) => !/409/.test(e.text)), []);
  });

  test("a user page loaded before a promotion elsewhere sends only the changed name, no role", async () => {
    const before = await allUsers(env);
    const [user] = plainUsers(before, "manager");
    await openUser(env.page, env.sandbox.url, user);
    // Promoted elsewhere after the page loaded.
    await put(env, user.id, { userType: "admin" });
    const bodies = [];
    env.page.on("request", (r) => r.method() === "PUT" && r.url().endsWith(`${SCIM}/${user.id}`) && bodies.push(JSON.parse(r.postData())));
    await main(env.page).getByLabel("First name").fill(`${user.name.givenName}x`);
    await main(env.page).getByRole("button", { name: "Save changes" }).click();
    await env.page.getByTestId("user-outcome").getByText("Saved.", { exact: false }).waitFor(VISIBLE);
    assert.equal(bodies.length, 1, "one PUT");
    assert.deepEqual(Object.keys(bodies[0]), ["name"], "only the name is sent");
    assert.equal(bodies[0].name.givenName, `${user.name.givenName}x`);
    const now = (await allUsers(env)).find((u) => u.id === user.id);
    assert.equal(now.userType, "admin", "the promotion made elsewhere stands");
    assert.equal(await env.page.getByTestId("user-role").textContent(), "admin", "the page shows the platform's answer");
    await put(env, user.id, { userType: "manager", name: user.name });
    assert.deepEqual(unexpectedErrors(env.page), []);
  });
});
