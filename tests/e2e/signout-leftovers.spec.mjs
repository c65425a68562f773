// What the next person on a shared machine could read after an admin signed out: a persistent
// Chromium profile (a real user data directory on disk, as a desktop browser keeps one) signs
// in, opens Users and Sends with a search typed into each, saves one search as a named view,
// and signs out. Then neither storage holds the typed text (but for the view the admin named),
// and once the browser has closed and written its cache to disk, no answer from /api is in
// it. Both ways the console is served: by the sandbox (`make run`, where the platform sends no
// caching headers and only the console's `cache: "no-store"` keeps answers out) and through
// the gateway (which also answers every /api request `no-store`).

import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  VISIBLE,
  assertNoCrash,
  openTab,
  signIn,
  startGatewayTopology,
  startSandbox,
  unexpectedErrors,
} from "./harness.mjs";

/** Every file below `dir`. */
async function filesBelow(dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? filesBelow(path.join(dir, e.name)) : [path.join(dir, e.name)])),
  );
  return nested.flat();
}

/** The files of the profile's HTTP cache that name `needle` (cache keys are the URLs, as text). */
async function cachedNaming(profile, needle) {
  const found = [];
  for (const file of await filesBelow(path.join(profile, "Default", "Cache"))) {
    if ((await readFile(file)).includes(needle)) found.push(path.relative(profile, file));
  }
  return found;
}

/** Both storages of the tab, as plain objects. */
const storages = (page) =>
  page.evaluate(() => ({ session: { ...sessionStorage }, local: { ...localStorage } }));

/** The keys of `store` whose value holds `text`. */
const holding = (store, text) => Object.keys(store).filter((key) => store[key].includes(text));

/** Signs in on a persistent profile, searches Users and Sends, saves a view, signs out. */
async function aSessionOnAProfile(url, profile, typed) {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await openTab(context);
    await signIn(page, url);
    await page.goto(`${url}/users`);
    await page.getByLabel("Search users by name or email").fill(typed.users);
    await page.waitForURL((u) => u.searchParams.get("q") === typed.users);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sends", exact: true }).click();
    await page.locator("tbody tr[data-send-id]").first().waitFor(VISIBLE);
    await page.getByLabel("Recipient name, email or company").fill(typed.sends);
    await page.waitForURL((u) => u.searchParams.get("q") === typed.sends);
    // Named by the admin: a deliberate act, kept on the browser.
    const views = page.getByRole("group", { name: "Saved views" });
    await views.getByRole("button", { name: "Save view" }).click();
    await views.getByLabel("View name").fill("Kept on purpose");
    await views.getByRole("button", { name: "Save", exact: true }).click();
    await views.getByRole("button", { name: "Rename" }).waitFor(VISIBLE);
    // The searches were remembered for the session: the check below can fail.
    const during = await storages(page);
    assert.deepEqual(holding(during.session, typed.users), ["gifting-console.pref.filters.users"]);
    assert.deepEqual(holding(during.local, typed.users), []);

    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByText("You have signed out.").waitFor(VISIBLE);
    const left = await storages(page);
    assert.deepEqual(holding(left.session, typed.users), [], "the Users search is gone from sessionStorage");
    assert.deepEqual(holding(left.local, typed.users), [], "and was never in localStorage");
    assert.deepEqual(holding(left.session, typed.sends), [], "the Sends search is gone from sessionStorage");
    assert.deepEqual(holding(left.local, typed.sends), ["gifting-console.pref.views.sends"], "only in the view the admin named");
    await assertNoCrash();
    assert.deepEqual(unexpectedErrors(page), []);
  } finally {
    // Closing writes the cache's index and entries out.
    await context.close();
  }
}

for (const served of ["the sandbox", "the gateway"]) {
  describe(`after sign-out, served by ${served}`, () => {
    const cleanup = [];
    after(async () => {
      for (const step of cleanup.reverse()) await step();
    });

    test("a persistent profile holds no /api answer in its cache and no typed search in its storage", async () => {
      const profile = await mkdtemp(path.join(tmpdir(), "gifting-profile-"));
      cleanup.push(() => rm(profile, { recursive: true, force: true }));
      let url;
      if (served === "the sandbox") {
        const sandbox = await startSandbox();
        cleanup.push(() => sandbox.stop());
        url = sandbox.url;
      } else {
        const { sandbox, gateway } = await startGatewayTopology();
        cleanup.push(() => sandbox.stop(), () => gateway.stop());
        url = gateway.url;
      }
      const typed = { users: "adm", sends: "inc" };
      await aSessionOnAProfile(url, profile, typed);

      // The console's own files are cached (immutable, by design): the cache was written.
      const files = await filesBelow(path.join(profile, "Default", "Cache"));
      assert.ok((await cachedNaming(profile, "/app-")).length > 0, `the cache holds the console's files (${files.length} files)`);
      assert.deepEqual(await cachedNaming(profile, "/api/"), [], "no answer from /api is cached");
    });
  });
}
