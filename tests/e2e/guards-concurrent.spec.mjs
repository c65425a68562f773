// The last-admin guard when admins act at once: two tabs, two browsers, a question answered
// minutes later, an import whose new admin could not be created, a user page loaded before
// someone else changed the user. Each ends with at least one active admin, read from the
// platform itself; the sandbox accepts a lock-out (no --protect-last-admin), so what holds is
// the console's guard, counting right before each write.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { consoleFixture, openCopy, signedInPage, unexpectedErrors } from "./harness.mjs";
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
  try {
    await run(me, other);
  } finally {
    for (const u of admins) await put(env, u.id, { userType: "admin", active: true });
  }
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

  test("two tabs: the second run waits for the first, then counts afresh and refuses", async () => {
    await withTwoAdmins(env, async (me, other) => {
      const tab = await openCopy(env.page);
      try {
        // Tab A: demote the other admin; the question stays open.
        await bulkRole(env.page, env.sandbox.url, [other.userName], "sender");
        await question(env.page).getByText("1 admin loses the admin role; 1 remains.", { exact: false }).waitFor(VISIBLE);
        // Tab B: demote yourself on your own page. It waits for tab A's run.
        await openUser(tab, env.sandbox.url, me);
        await main(tab).getByLabel("Role").selectOption("sender");
        await main(tab).getByRole("button", { name: "Save changes" }).click();
        await tab.getByTestId("user-progress").getByText("another run that changes admins is in progress in another tab", { exact: false }).waitFor(VISIBLE);
        // Tab A goes ahead: the other admin is demoted.
        await question(env.page).getByRole("button", { name: "Go ahead" }).click();
        await env.page.getByTestId("bulk-summary").getByText("Changed 1 of 1 user.", { exact: false }).waitFor(VISIBLE);
        // Tab B now counts the admins as they are: you are the last one.
        await tab.getByTestId("user-outcome").getByText("1 admin loses the admin role: you; none remains.", { exact: false }).waitFor(VISIBLE);
        await assertAnAdminRemains(env, [me]);
        assert.deepEqual(unexpectedErrors(tab), []);
      } finally {
        await tab.close();
      }
    });
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("two browsers, both questions open: the one answered last is counted again and refused", async () => {
    await withTwoAdmins(env, async (me, other) => {
      // A second browser (its own storage: no lock is shared), the same admin signed in.
      const second = await signedInPage(env.browser, env.sandbox.url, ME);
      try {
        await bulkRole(env.page, env.sandbox.url, [other.userName], "sender");
        await question(env.page).getByText("1 admin loses the admin role; 1 remains.", { exact: false }).waitFor(VISIBLE);
        await bulkRole(second, env.sandbox.url, [ME], "sender");
        await question(second).getByText("Your own account is next", { exact: false }).waitFor(VISIBLE);
        assert.match(await question(second).textContent(), /1 admin remains then/);
        await question(env.page).getByRole("button", { name: "Go ahead" }).click();
        await env.page.getByTestId("bulk-summary").getByText("Changed 1 of 1 user.", { exact: false }).waitFor(VISIBLE);
        await question(second).getByRole("button", { name: "Change my account too" }).click();
        const line = main(second).locator(`li.bulk-result[data-user-id="${me.id}"]`);
        await line.getByText("none remains", { exact: false }).waitFor(VISIBLE);
        assert.equal(await line.getAttribute("data-outcome"), "failed");
        await assertAnAdminRemains(env, [me]);
        assert.deepEqual(unexpectedErrors(second), []);
      } finally {
        await second.context().close();
      }
    });
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("an import that hands over to a new admin writes no demotion when the new admin is not created", async () => {
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
      try {
        await env.page.goto(`${env.sandbox.url}/users/import`);
        await env.page.locator("#import-file").setInputFiles({ name: "handover.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
        await env.page.locator("[data-testid=import-preview]").waitFor(VISIBLE);
        await env.page.getByLabel("Create new users and update existing ones").check();
        await env.page.locator("[data-testid=import-run]").click();
        await question(env.page).getByText("2 admins lose the admin role or are deactivated, you among them; 1 remains.", { exact: false }).waitFor(VISIBLE);
        await question(env.page).getByRole("button", { name: "Go ahead" }).click();
        const summary = env.page.getByTestId("import-summary");
        await summary.getByText("would now leave the organisation without an admin", { exact: false }).waitFor(VISIBLE);
        const text = await summary.textContent();
        assert.match(text, /2 admins lose the admin role or are deactivated, you among them; none remains\./, text);
        assert.match(text, /3 failed/, text);
        await assertAnAdminRemains(env, [me, other]);
      } finally {
        await env.page.unroute(`**${SCIM}`);
      }
    });
    assert.deepEqual(unexpectedErrors(env.page).filter((e) => !/409/.test(e.text)), []);
  });

  test("your own account's dialog answered after the other admin left: counted again, refused", async () => {
    await withTwoAdmins(env, async (me, other) => {
      await openUser(env.page, env.sandbox.url, me);
      await main(env.page).getByLabel("Role").selectOption("manager");
      await main(env.page).getByRole("button", { name: "Save changes" }).click();
      const dialog = env.page.getByRole("dialog", { name: "Change your own account?" });
      await dialog.getByText("1 admin remains then", { exact: false }).waitFor(VISIBLE);
      // Meanwhile the other admin is demoted elsewhere.
      await put(env, other.id, { userType: "sender" });
      await dialog.getByRole("button", { name: "Change my own account" }).click();
      await env.page.getByTestId("user-outcome").getByText("1 admin loses the admin role: you; none remains.", { exact: false }).waitFor(VISIBLE);
      assert.equal(await main(env.page).getByLabel("Role").inputValue(), "manager", "the form keeps the change");
      await assertAnAdminRemains(env, [me]);
    });
    assert.deepEqual(unexpectedErrors(env.page), []);
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
