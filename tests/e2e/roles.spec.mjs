// Each role sees what it can do. SCIM (user administration) is for admins only
// (docs/platform.md, "Who may call what"), so the navigation and the home screen offer Users and
// Import users to admins alone, and a sender or a manager who opens one of those addresses
// anyway reads a note that the screen needs the admin role, before anything is asked of SCIM.
// REST reads (teams, sends, campaigns) and the marketplace are for every role.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, laterRequest, painted, signedInPage, unexpectedErrors } from "./harness.mjs";

const ADMIN_SCREENS = ["Users", "Import users"];
const EVERYONE_SCREENS = ["Teams", "Sends", "Campaigns", "Catalog"];
const ADMIN_ADDRESSES = ["/users", "/users/new", "/users/import", "/users/1"];
const ROLES = ["admin", "manager", "sender"];

describe("screens by role", () => {
  const env = consoleFixture({ page: false });

  /** A page signed in as the seeded `role@example.com`, recording its requests to SCIM. */
  async function pageAs(role) {
    const page = await signedInPage(env.browser, env.sandbox.url, `${role}@example.com`);
    page.scimRequests = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/api/scim/")) page.scimRequests.push(request.url());
    });
    return page;
  }

  /** Waits until the home screen shows the role /me gave, so the screens listed follow it. */
  async function homeShowsRole(page, role) {
    await page.locator("main#main [data-testid=you-role]", { hasText: new RegExp(`^${role}$`) }).waitFor(VISIBLE);
    await page.locator("[data-testid=current-user]").getByText(role, { exact: true }).waitFor(VISIBLE);
    await painted(page);
  }

  const nav = (page) => page.locator("nav.main-nav");
  const link = (where, name) => where.getByRole("link", { name, exact: true });

  for (const role of ROLES) {
    const admin = role === "admin";
    test(`${role}: the navigation lists ${admin ? "every screen" : "no user administration"}`, async () => {
      const page = await pageAs(role);
      await homeShowsRole(page, role);
      for (const name of EVERYONE_SCREENS) {
        await link(nav(page), name).waitFor(VISIBLE);
      }
      for (const name of ADMIN_SCREENS) {
        if (admin) {
          await link(nav(page), name).waitFor(VISIBLE);
        } else {
          assert.equal(await link(nav(page), name).count(), 0, `${role}: no "${name}" in the navigation`);
        }
      }
      assert.deepEqual(unexpectedErrors(page), []);
      await page.context().close();
    });
  }

  for (const role of ["manager", "sender"]) {
    test(`${role}: a user administration address opened directly says it needs the admin role, and SCIM is not asked`, async () => {
      const page = await pageAs(role);
      for (const address of ADMIN_ADDRESSES) {
        await page.goto(`${env.sandbox.url}${address}`);
        const note = page.getByTestId("admin-only");
        await note.waitFor(VISIBLE);
        assert.match(await note.innerText(), /admin role/, address);
        assert.match(await note.innerText(), new RegExp(`signed in as an? ${role}`), address);
        // A way back.
        await link(note, "Back to the home screen").waitFor(VISIBLE);
        const main = page.locator("main#main");
        assert.equal(await main.locator("input[type=file]").count(), 0, `${address}: no file picker`);
        assert.equal(await main.locator("form, input, select, textarea, table").count(), 0, `${address}: nothing to fill in or select`);
        assert.equal(await page.getByTestId("scim-forbidden").count(), 0, `${address}: not the after-the-fact 403`);
      }
      await link(page.getByTestId("admin-only"), "Back to the home screen").click();
      await homeShowsRole(page, role);
      // Every request the page made is seen by now.
      await laterRequest(page);
      assert.deepEqual(page.scimRequests, [], `${role}: no request to SCIM`);
      assert.deepEqual(unexpectedErrors(page), []);
      await page.context().close();
    });
  }

  test("admin: the same addresses open the screens themselves", async () => {
    const page = await pageAs("admin");
    await page.goto(`${env.sandbox.url}/users/import`);
    await page.locator("main#main input[type=file]").waitFor({ state: "attached", timeout: 15_000 });
    await page.goto(`${env.sandbox.url}/users`);
    await page.locator("main#main table").waitFor(VISIBLE);
    assert.ok(page.scimRequests.length > 0, "the list asked SCIM");
    assert.equal(await page.getByTestId("admin-only").count(), 0);
    assert.deepEqual(unexpectedErrors(page), []);
    await page.context().close();
  });

  test("sender: while /me is still on its way, the import shows neither its file picker nor the note", async () => {
    const page = await pageAs("sender");
    let release;
    const released = new Promise((resolve) => (release = resolve));
    let held;
    const heldSeen = new Promise((resolve) => (held = resolve));
    await page.route("**/api/v3/me", async (route) => {
      held();
      await released;
      await route.continue();
    });
    await page.goto(`${env.sandbox.url}/users/import`);
    await heldSeen;
    await link(nav(page), "Teams").waitFor(VISIBLE);
    // The screen's place shows something: its heading, or a "Loading…" while the role is unknown.
    await page.locator("main#main :is(h1, [role=status])").first().waitFor(VISIBLE);
    await painted(page);
    assert.equal(await page.locator("main#main input[type=file]").count(), 0, "no file picker while the role is unknown");
    for (const name of ADMIN_SCREENS) assert.equal(await link(nav(page), name).count(), 0, `no "${name}" while the role is unknown`);
    release();
    await page.getByTestId("admin-only").waitFor(VISIBLE);
    assert.equal(await page.locator("main#main input[type=file]").count(), 0);
    await laterRequest(page);
    assert.deepEqual(page.scimRequests, []);
    assert.deepEqual(unexpectedErrors(page), []);
    await page.context().close();
  });

  test("a role the console does not know is let through, and SCIM's 403 explains", async () => {
    const page = await pageAs("sender");
    // The platform adds a role: the console cannot tell, so the platform decides.
    await page.route("**/api/v3/me", async (route) => {
      const response = await route.fetch();
      const user = await response.json();
      await route.fulfill({ response, json: { ...user, role: "auditor" } });
    });
    await page.goto(`${env.sandbox.url}/users`);
    await link(nav(page), "Users").waitFor(VISIBLE);
    const panel = page.getByTestId("scim-forbidden");
    await panel.waitFor(VISIBLE);
    assert.match(await panel.innerText(), /admin account is needed/);
    assert.equal(await page.getByTestId("admin-only").count(), 0);
    assert.deepEqual(unexpectedErrors(page), []);
    await page.context().close();
  });

  test("when /me fails, every screen stays listed and SCIM's 403 explains", async () => {
    const page = await pageAs("sender");
    await page.route("**/api/v3/me", (route) =>
      route.fulfill({ status: 404, contentType: "application/json", body: JSON.stringify({ message: "Not found" }) }),
    );
    await page.goto(`${env.sandbox.url}/users/import`);
    await page.locator("[data-testid=current-user]").getByText("Profile unavailable", { exact: false }).waitFor(VISIBLE);
    for (const name of ADMIN_SCREENS) await link(nav(page), name).waitFor(VISIBLE);
    await page.locator("main#main input[type=file]").waitFor({ state: "attached", timeout: 15_000 });
    await page.goto(`${env.sandbox.url}/users`);
    await page.getByTestId("scim-forbidden").waitFor(VISIBLE);
    assert.deepEqual(unexpectedErrors(page), []);
    await page.context().close();
  });
});
