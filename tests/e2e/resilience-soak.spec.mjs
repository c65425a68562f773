// A soak against the sandbox's fault injector: a quarter of /api requests answered
// 500, 503, 429 or cut off, each after up to 300 ms. The admin signs in, pages through every
// send and user, creates three users and edits one, pressing "Try again" or resending when
// the console says so, as a person would. Every outcome is checked against what the sandbox
// itself reports over HTTP.

import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { consoleFixture, platformGet, sessionToken, signIn, unexpectedErrors, waitFor } from "./harness.mjs";

const SCIM = "/api/scim/v2/Users";
// How long the soak gives one step (a page, a submit) to get through its faults.
const STEP_MS = 45_000;
// A screen whose main area stays empty longer than this counts as left blank.
const BLANK_MS = 1_000;

async function usersNamed(base, token, email) {
  const filter = encodeURIComponent(`userName eq "${email}"`);
  const { status, body } = await platformGet(base, token, `${SCIM}?filter=${filter}`);
  assert.equal(status, 200);
  return body;
}

/**
 * Reports, through a binding, every stretch longer than BLANK_MS in which the console was
 * mounted but its main area showed nothing at all (no text, no spinner, no error).
 */
async function watchForBlankScreens(page) {
  page.blanks = [];
  await page.exposeBinding("__reportBlank", (_source, blank) => page.blanks.push(blank));
  await page.addInitScript((limit) => {
    let since = null;
    let reported = false;
    setInterval(() => {
      const shell = document.querySelector("header");
      const main = document.querySelector("main#main");
      // Before the console mounts (and on the sandbox's own consent page) there is no shell.
      if (!shell && !main) return;
      const blank = !main || main.innerText.trim() === "";
      if (!blank) {
        since = null;
        reported = false;
        return;
      }
      since ??= Date.now();
      if (!reported && Date.now() - since > limit) {
        reported = true;
        window.__reportBlank({ url: location.href, since: new Date(since).toISOString() });
      }
    }, 100);
  }, BLANK_MS);
}

describe("resilience: a soak against --fault-rate 0.25 --latency-ms 300", () => {
  // Signed in by the first test, through the faults.
  const env = consoleFixture({ sandboxArgs: ["--fault-rate", "0.25", "--latency-ms", "300"], signedIn: false });
  before(() => watchForBlankScreens(env.page));
  let token;
  const created = [];

  const main = () => env.page.locator("main#main");
  const nav = () => env.page.getByRole("navigation", { name: "Main" });

  /**
   * Waits until `done()` holds, pressing "Try again" wherever a request failed for good: what
   * an admin does. Fails the test when the step does not get through within STEP_MS.
   */
  async function until(what, done) {
    const step = async () => {
      if (await done()) return true;
      // A panel can be replaced while it is clicked (its retry already under way): then the
      // click gives up quickly and the next round looks again.
      const retry = env.page.getByRole("button", { name: "Try again", exact: true });
      for (const button of await retry.all()) {
        if (await button.isVisible().catch(() => false)) await button.click({ timeout: 1_000 }).catch(() => {});
      }
      return false;
    };
    try {
      await waitFor(step, { timeout: STEP_MS, what });
    } catch {
      const shown = (await main().innerText().catch(() => "")).replace(/\s+/g, " ").slice(0, 600);
      assert.fail(`${what}: not done within ${STEP_MS} ms (url ${env.page.url()}; the screen says: ${shown})`);
    }
  }

  const visible = (locator) => locator.first().isVisible().catch(() => false);

  /** The screen has a heading and says something: it was not left blank. */
  async function assertScreenShown(heading) {
    await main().getByRole("heading", { level: 1, name: heading }).waitFor({ state: "visible", timeout: STEP_MS });
    assert.notEqual((await main().innerText()).trim(), "");
  }

  /** Marks what the page says now, so a later wait sees only what the next attempt says. */
  function markStale(selector) {
    return env.page.evaluate((sel) => document.querySelectorAll(sel).forEach((el) => el.setAttribute("data-e2e-stale", "")), selector);
  }

  test("sign in", async () => {
    await signIn(env.page, env.sandbox.url);
    token = await sessionToken(env.page);
    // The header's profile comes from /api/v3/me, through the same faults.
    await until("the profile in the header", () => visible(env.page.locator("[data-testid=current-user] .current-user__name")));
  });

  test("page through every send", async () => {
    const { body: first } = await platformGet(env.sandbox.url, token, "/api/v3/send?page=1&per_page=100");
    const total = first.total_count;
    assert.ok(total > 25, `several pages of sends (${total})`);

    await nav().getByRole("link", { name: "Sends", exact: true }).click();
    const rows = env.page.locator("tbody tr[data-send-id]");
    await until("the first page of sends", () => visible(rows));
    await assertScreenShown("Sends");
    await main().locator("nav.pager").getByLabel("Rows per page").selectOption("25");
    await env.page.waitForURL(/per_page=25/);

    const seen = [];
    for (let n = 1; ; n++) {
      const start = (n - 1) * 25 + 1;
      const end = Math.min(start + 24, total);
      const summary = main().locator("nav.pager").getByText(`Showing ${start}–${end} of ${total}`);
      await until(`sends page ${n}`, async () => (await visible(summary)) && (await rows.count()) === end - start + 1);
      seen.push(...(await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.sendId))));
      const next = main().locator("nav.pager").getByRole("link", { name: "Next", exact: true });
      if (end === total) {
        assert.equal(await next.count(), 0, "no next page after the last");
        break;
      }
      await next.click();
    }
    assert.equal(seen.length, total, "every send shown");
    assert.equal(new Set(seen).size, total, "no send twice");
  });

  test("page through every user", async () => {
    const { body } = await platformGet(env.sandbox.url, token, `${SCIM}?count=0`);
    const total = body.totalResults;
    assert.ok(total > 10, `several pages of users (${total})`);

    await nav().getByRole("link", { name: "Users", exact: true }).click();
    const table = main().locator("table.users-table");
    await until("the users list", () => visible(table));
    await assertScreenShown("Users");
    await main().getByLabel("Rows per page").selectOption("10");
    await env.page.waitForURL(/count=10/);

    const seen = [];
    for (let start = 1; start <= total; start += 10) {
      const end = Math.min(start + 9, total);
      const summary = main().getByText(`Showing ${start}\u2013${end} of ${total}`);
      await until(`users ${start}-${end}`, async () => (await visible(summary)) && (await table.locator("tbody tr").count()) === end - start + 1);
      seen.push(...(await table.locator("tbody tr td:nth-child(3)").allTextContents()));
      if (end < total) await main().getByRole("link", { name: "Next", exact: true }).click();
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total, "no user twice");
  });

  /**
   * Creates one user through the form, pressing "Create user" again whenever the console says
   * the attempt did not get through, as it invites the admin to. Returns the new user's id.
   */
  async function createUser(email, given, family) {
    await nav().getByRole("link", { name: "Users", exact: true }).click();
    await until("the Add user link", () => visible(main().getByRole("link", { name: "Add user", exact: true })));
    await main().getByRole("link", { name: "Add user", exact: true }).click();
    await assertScreenShown("Add a user");
    // The teams, not the "Loading teams…" placeholder.
    const teams = env.page.locator('#user-team option:not([value=""])');
    await until("the team choices", async () => (await teams.count()) > 0);
    const team = await teams.first().getAttribute("value");

    await main().getByLabel("Email").fill(email);
    await main().getByLabel("First name").fill(given);
    await main().getByLabel("Last name").fill(family);
    await main().getByLabel("Role").selectOption("sender");
    await main().getByLabel("Team").selectOption(team);

    const banner = main().locator("[data-testid=form-banner]:not([data-e2e-stale])");
    const landed = main().locator("[data-testid=create-landed]:not([data-e2e-stale])");
    const createdUrl = /\/users\/(\d+)$/;
    for (let attempt = 1; attempt <= 12; attempt++) {
      await markStale("[data-testid=form-banner], [data-testid=create-landed]");
      const button = main().getByRole("button", { name: "Create user", exact: true });
      await until("the Create user button", () => button.isEnabled());
      await button.click();
      await until(`create ${email}, attempt ${attempt}`, async () =>
        createdUrl.test(env.page.url()) || (await visible(banner)) || (await visible(landed)) ||
        (await visible(main().locator(".field--invalid"))));
      // A field error here would be a 409 for the user our own earlier attempt created.
      assert.equal(await main().locator(".field--invalid").count(), 0, `no field error: ${await main().innerText()}`);
      if (createdUrl.test(env.page.url())) break;
      if (await visible(landed)) {
        await landed.getByRole("link").click();
        await env.page.waitForURL(/\/users\/\d+$/);
        break;
      }
      // The attempt did not get through: nothing typed is lost.
      assert.equal(await main().getByLabel("Email").inputValue(), email);
      assert.equal(await main().getByLabel("First name").inputValue(), given);
      assert.equal(await main().getByLabel("Last name").inputValue(), family);
      assert.equal(await main().getByLabel("Team").inputValue(), team);
    }
    const id = /\/users\/(\d+)/.exec(env.page.url())?.[1];
    assert.ok(id, `the user was created within 12 attempts (url ${env.page.url()})`);
    await until(`the page of ${email}`, () => visible(main().getByRole("heading", { level: 1, name: `${given} ${family}` })));
    return id;
  }

  test("create three users", async () => {
    const stamp = Date.now();
    for (const n of [1, 2, 3]) {
      const email = `soak.${stamp}.${n}@example.com`;
      created.push({ email, id: await createUser(email, "Soak", `Number${n}`) });
    }
  });

  test("edit one of them", async () => {
    const { id } = created[0];
    await env.page.goto(`${env.sandbox.url}/users/${id}`);
    await until("the user's page", () => visible(main().getByLabel("Last name")));
    await assertScreenShown("Soak Number1");
    await main().getByLabel("Last name").fill("Edited");
    await main().getByLabel("Role").selectOption("manager");
    const outcome = main().locator("[data-testid=user-outcome]:not([data-e2e-stale])");
    for (let attempt = 1; attempt <= 12; attempt++) {
      await markStale("[data-testid=user-outcome]");
      const save = main().getByRole("button", { name: "Save changes", exact: true });
      await until("the Save button", () => save.isEnabled());
      await save.click();
      await until(`save, attempt ${attempt}`, () => visible(outcome));
      if (/^Saved\./.test(await outcome.innerText())) break;
      // A failed save keeps what was typed.
      assert.equal(await main().getByLabel("Last name").inputValue(), "Edited");
      assert.equal(await main().getByLabel("Role").inputValue(), "manager");
    }
    assert.match(await outcome.innerText(), /^Saved\./);
    const { body } = await platformGet(env.sandbox.url, token, `${SCIM}/${id}`);
    assert.equal(body.name.familyName, "Edited");
    assert.equal(body.userType, "manager");
  });

  test("each created user exists exactly once, nothing was blank, nothing uncaught", async () => {
    assert.equal(created.length, 3);
    for (const { email, id } of created) {
      const found = await usersNamed(env.sandbox.url, token, email);
      assert.equal(found.totalResults, 1, `${email} exists exactly once`);
      assert.equal(found.Resources[0].id, id);
    }
    const stats = await env.sandbox.stats();
    assert.ok(stats.faults_injected > 10, `the platform did misbehave (${stats.faults_injected} faults)`);
    assert.deepEqual(env.page.blanks, [], "no screen was left blank");
    assert.deepEqual(unexpectedErrors(env.page), [], "no uncaught error, no CSP violation");
  });
});

