// The console in the admin's language. In a German browser every screen, dialog and notice is
// German: any visible text, `aria-label`, `title` or `placeholder` that is not a message of the
// German catalog (as dist/ ships it) fails, platform data excepted (marked `translate="no"`,
// or shaped as numbers, amounts, dates and e-mail addresses). The language switches live from
// the navigation, keeps what a form holds and a job's progress, and is remembered; the
// screen for an unusable config.json speaks it too; the pseudo-languages (accented
// and 40 % longer, and right to left) show no clipped control and no sideways scroll at a
// laptop's and a phone's size.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, newPage, platformGet, seriousAxeViolations, sessionToken, signIn, waitFor } from "./harness.mjs";
import { bundle, foreignTexts, patterns } from "./catalog.mjs";

/** The screens, by address, with ids the platform knows (read with `token`). */
async function screens(base, token) {
  const users = (await platformGet(base, token, "/api/scim/v2/Users?startIndex=1&count=1")).body.Resources;
  const groups = (await platformGet(base, token, "/api/v3/groups?page=1&per_page=1")).body.groups;
  const touches = (await platformGet(base, token, "/api/v3/touches?page=1&per_page=1")).body.touches;
  const products = (await platformGet(base, token, "/api/v3/marketplace/products?page=1&per_page=1")).body.products;
  return [
    "/",
    "/users",
    `/users/${users[0].id}`,
    "/users/new",
    "/users/import",
    "/teams",
    `/teams/${groups[0].id}`,
    "/teams/users",
    "/sends",
    "/campaigns",
    `/campaigns/${touches[0].id}`,
    "/catalog",
    `/catalog/${encodeURIComponent(products[0].id)}`,
    "/no/such/screen",
  ];
}

/** Opens `address` and waits until nothing on it is loading. */
async function settled(page, base, address) {
  await page.goto(`${base}${address}`);
  await page.locator("main h1").first().waitFor(VISIBLE);
  await waitFor(async () => (await page.locator("main .loading, main [aria-busy=true]").count()) === 0, {
    what: `${address} to finish loading`,
  });
}

describe("languages", () => {
  const env = consoleFixture({ page: false });

  test("German: the screen for a config.json the console cannot use says what is wrong in German", async () => {
    const german = patterns(bundle("de"));
    const page = await newPage(env.browser, { locale: "de-DE" });
    const good = await (await fetch(`${env.sandbox.url}/config.json`)).json();
    await page.route("**/config.json", (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ...good, auth_url: 5 }) }),
    );
    await page.goto(env.sandbox.url);
    const screen = page.locator("[data-testid=config-error]");
    await screen.waitFor(VISIBLE);
    assert.match(await screen.innerText(), /config\.json: `auth_url` muss ein Text sein, ist aber eine Zahl/);
    assert.deepEqual(await foreignTexts(page, german), []);
    await page.context().close();
  });

  test("German: every screen's words come from the German catalog", async () => {
    const german = patterns(bundle("de"));
    const page = await newPage(env.browser, { locale: "de-DE" });
    await signIn(page, env.sandbox.url);
    assert.equal(await page.evaluate(() => document.documentElement.lang), "de");
    const token = await sessionToken(page);
    const problems = [];
    for (const address of await screens(env.sandbox.url, token)) {
      await settled(page, env.sandbox.url, address);
      for (const text of await foreignTexts(page, german)) problems.push(`${address}: ${JSON.stringify(text)}`);
    }
    // The palette, the preferences and a list's column chooser.
    await settled(page, env.sandbox.url, "/users");
    await page.keyboard.press("Control+k");
    await page.getByRole("dialog").waitFor(VISIBLE);
    for (const text of await foreignTexts(page, german)) problems.push(`palette: ${JSON.stringify(text)}`);
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.locator(".nav-tools__menu ~ button[aria-haspopup=dialog]").click();
    await page.getByRole("dialog").waitFor(VISIBLE);
    for (const text of await foreignTexts(page, german)) problems.push(`preferences: ${JSON.stringify(text)}`);
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    await page.locator(".column-chooser summary").click();
    await page.locator(".column-chooser__panel").waitFor(VISIBLE);
    for (const text of await foreignTexts(page, german)) problems.push(`columns: ${JSON.stringify(text)}`);
    assert.deepEqual(problems, [], `texts not in the German catalog:\n${problems.join("\n")}`);
    assert.deepEqual(await seriousAxeViolations(page), []);
    await page.context().close();
  });

  test("switched live from the navigation: the form keeps its input, the choice is remembered", async () => {
    const page = await newPage(env.browser, { locale: "en-US" });
    await signIn(page, env.sandbox.url);
    await page.goto(`${env.sandbox.url}/users/new`);
    const heading = page.locator("main h1");
    await heading.waitFor(VISIBLE);
    const english = await heading.textContent();
    // The German check can fail: this English screen is full of texts it refuses.
    assert.ok((await foreignTexts(page, patterns(bundle("de")))).length > 5, "English is not German");
    const field = page.locator("main form input").first();
    await field.fill("Grace");
    await page.locator(".nav-tools__language select").selectOption("fr");
    await page.waitForFunction(() => document.documentElement.lang === "fr");
    await waitFor(async () => (await heading.textContent()) !== english, { what: "the heading in French" });
    assert.equal(await field.inputValue(), "Grace", "what was typed stays");
    assert.equal(await page.evaluate(() => localStorage.getItem("gifting-console.pref.language")), "fr");
    await page.reload();
    await page.waitForFunction(() => document.documentElement.lang === "fr");
    assert.notEqual(await page.locator("main h1").textContent(), english);
    await page.locator(".nav-tools__language select").selectOption("en");
    await page.waitForFunction(() => document.documentElement.lang === "en");
    assert.equal(await page.locator("main h1").textContent(), english);
    await page.context().close();
  });

  test("switched mid-job: home's read of the sends goes on where it was, no page read twice, and ends in the new language", async () => {
    const german = patterns(bundle("de"));
    const page = await newPage(env.browser, { locale: "en-US" });
    // The walk behind home's figures reads the sends 100 at a time; its first page is held
    // until the language has changed, so the switch lands in the middle of the job.
    let release;
    const switched = new Promise((resolve) => (release = resolve));
    const walked = [];
    await page.route(/\/api\/v3\/send\?/, async (route) => {
      const url = new URL(route.request().url());
      if (url.searchParams.get("per_page") !== "100") return route.continue();
      walked.push(url.searchParams.get("page"));
      if (walked.length === 1) await switched;
      return route.continue();
    });
    await signIn(page, env.sandbox.url);
    await waitFor(() => walked.length === 1, { what: "the walk's first page asked for" });
    const download = page.getByTestId("figures-download");
    await download.waitFor(VISIBLE);
    await page.locator(".nav-tools__menu ~ button[aria-haspopup=dialog]").click();
    await page.locator("#preferences-language").selectOption("de");
    await page.waitForFunction(() => document.documentElement.lang === "de");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    assert.ok(await download.isDisabled(), "the walk is still reading when the language has changed");
    release();
    await waitFor(() => download.isEnabled(), { what: "the walk to end" });
    assert.deepEqual(walked, [...new Set(walked)], `every page once (not started again): ${walked.join(", ")}`);
    assert.deepEqual(await foreignTexts(page, german), [], "home and its figures in German");
    await page.context().close();
  });

  for (const [language, size] of [
    ["en-XA", { width: 1280, height: 800 }],
    ["en-XA", { width: 390, height: 844 }],
    ["ar-XB", { width: 1280, height: 800 }],
    ["ar-XB", { width: 390, height: 844 }],
  ]) {
    test(`${language} at ${size.width}×${size.height}: no control clipped, no sideways scroll`, async () => {
      const page = await newPage(env.browser, { locale: language, viewport: size });
      await signIn(page, env.sandbox.url);
      assert.equal(await page.evaluate(() => document.documentElement.lang), language);
      if (language === "ar-XB") assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
      const token = await sessionToken(page);
      const problems = [];
      for (const address of await screens(env.sandbox.url, token)) {
        await settled(page, env.sandbox.url, address);
        for (const problem of await page.evaluate(layoutProblems)) problems.push(`${address}: ${problem}`);
      }
      assert.deepEqual(problems, [], problems.join("\n"));
      await page.context().close();
    });
  }
});

/** In the page: a sideways scroll of the page, and controls whose words do not fit their box. */
function layoutProblems() {
  const found = [];
  const root = document.scrollingElement;
  if (root.scrollWidth > root.clientWidth + 1) {
    const wide = [...document.body.querySelectorAll("*")]
      .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 1 && !e.closest(".table-wrap"))
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
      .slice(-3);
    found.push(`the page scrolls sideways (${root.scrollWidth} > ${root.clientWidth}): ${wide.join(", ")}`);
  }
  for (const control of document.querySelectorAll("button, a.button, select, summary, label, th, .badge")) {
    if (control.getClientRects().length === 0) continue;
    if (control.closest(".table-wrap")) continue; // a table scrolls inside its own box by design
    if (control.closest(".visually-hidden")) continue; // read out, never shown
    const clipped = control.scrollWidth > control.clientWidth + 1 && control.clientWidth > 0;
    const style = getComputedStyle(control);
    if (clipped && style.overflowX !== "visible") {
      found.push(`${control.tagName.toLowerCase()} "${control.textContent.trim().slice(0, 40)}" is clipped`);
    }
  }
  return found;
}
