// One admin's journey through the console, the same in each browser engine admins use
// (Chromium, Firefox ESR, WebKitGTK: Safari's engine), driven through tests/e2e/engines.mjs.
// The other specs go deep in Chromium alone; this one goes wide: sign-in, every screen, paging
// and sorting, a user created and edited, a bulk change, an import, the sends export, the
// catalog, the unsaved-changes guard, a second tab (told it is signed in elsewhere) and
// sign-out, in that order on one signed-in page. Each step is checked against the platform
// itself (the sandbox's API, asked from node with the console's own access token), never
// against counts written here.
//
// The journey runs in German by default (JOURNEY_LANGUAGE=en for English, fr for French):
// then every engine also proves the language's bundle path, fetched by boot.js, started with
// the wasm and shown as live text, and each step finds its elements by the catalog's words
// for that language (catalog.mjs), read by key from locales/.
//
// JOURNEY_ENGINES=firefox (or a comma-separated list) runs only those engines.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { byText, parseCsv, platformGet, startSandbox } from "./harness.mjs";
import { ENGINES, launchEngine } from "./engines.mjs";
import { messages, say as sayIn, sayPattern } from "./catalog.mjs";

const SCIM = "/api/scim/v2/Users";
const SENDS = "/api/v3/send";
const PRODUCTS = "/api/v3/marketplace/products";

// The main navigation, in its order (src/routes.rs, the `nav` screens): the catalog's keys of
// each link's words and of its screen's heading.
const NAV = [
  { label: "nav.users", path: "/users", heading: "users.title" },
  { label: "nav.import_users", path: "/users/import", heading: "import.title" },
  { label: "nav.teams", path: "/teams", heading: "teams.title" },
  { label: "nav.sends", path: "/sends", heading: "sends.title" },
  { label: "nav.campaigns", path: "/campaigns", heading: "campaigns.title" },
  { label: "nav.catalog", path: "/catalog", heading: "catalog.title" },
];

const LANGUAGE = process.env.JOURNEY_LANGUAGE || "de";
if (messages(LANGUAGE).size === 0) throw new Error(`JOURNEY_LANGUAGE: no messages in locales/${LANGUAGE}`);

const engines = process.env.JOURNEY_ENGINES
  ? process.env.JOURNEY_ENGINES.split(",").map((e) => e.trim()).filter(Boolean)
  : ENGINES;
for (const name of engines) {
  if (!ENGINES.includes(name)) throw new Error(`JOURNEY_ENGINES: unknown engine "${name}" (known: ${ENGINES.join(", ")})`);
}

/** Text as the page shows it: spaces collapsed, trimmed (as engines.mjs reads text). */
const norm = (text) => String(text).replace(/\s+/g, " ").trim();


/** A team name safe to put in a CSV cell and a button's text as it is. */
const plainName = (name) => /^[A-Za-z0-9][A-Za-z0-9 &'-]*$/.test(name);

for (const name of engines) {
  describe(`journey in ${name} (${LANGUAGE})`, () => {
    let sandbox;
    let engine;
    let page;
    // Kept from step to step: the journey is one admin's session.
    let created;
    const stamp = `${name}-${Date.now().toString(36)}`;
    /** An assertion message naming the engine. */
    const say = (message) => `[${name}] ${message}`;
    // The browser's own locale (navigator.language): the console writes counts in it when it
    // speaks the chosen language, else in the language's (catalog.mjs consoleLocale).
    let browser;
    /** Message `key` as the console shows it with `args`, spaces collapsed as texts are read. */
    const words = (key, args) => norm(sayIn(LANGUAGE, key, args, { browser }));
    /** Message `key` as a pattern: `args` as shown, any other argument any text. */
    const wordsLike = (key, args) => sayPattern(LANGUAGE, key, args, { browser });
    /** The main navigation, by its name in the language. */
    const mainNav = () => `nav[aria-label="${words("shell.main_nav")}"]`;

    before(async () => {
      sandbox = await startSandbox();
      engine = await launchEngine(name);
      page = await engine.newPage();
    });
    after(async () => {
      await engine?.close();
      await sandbox?.stop();
    });

    // --- Helpers over the platform (node) ------------------------------------------------

    /** The console's access token, as it keeps it in this tab. */
    async function token() {
      const session = await page.session();
      assert.ok(session?.access_token, say("the console keeps a session in sessionStorage"));
      return session.access_token;
    }

    /** A GET to the platform as the signed-in admin; the body of its 200. */
    async function api(path) {
      const { status, body } = await platformGet(sandbox.url, await token(), path);
      assert.equal(status, 200, say(`GET ${path}: HTTP ${status} ${JSON.stringify(body)}`));
      return body;
    }

    /** The platform's users with this email (SCIM filter), as it lists them. */
    async function usersNamed(email) {
      return (await api(`${SCIM}?filter=${encodeURIComponent(`userName eq "${email}"`)}`)).Resources;
    }

    async function scimUser(id) {
      return api(`${SCIM}/${id}`);
    }

    /** Every team group (the sandbox has fewer than a page of 100). */
    async function groups() {
      const body = await api("/api/v3/groups?page=1&per_page=100");
      assert.equal(body.groups.length, body.total_groups, say("every team group on one page of 100"));
      return body.groups;
    }

    /** Every product, following the platform's cursor to the end. */
    async function allProducts() {
      const products = [];
      let after = null;
      for (let pages = 0; pages < 200; pages++) {
        const body = await api(`${PRODUCTS}${after ? `?after=${encodeURIComponent(after)}` : ""}`);
        products.push(...body.products);
        after = body.pagination.after;
        if (!after) return products;
      }
      throw new Error(say("the platform's product cursor never ended"));
    }

    /** Every send, page by page, in the platform's order. */
    async function allSends() {
      const first = await api(`${SENDS}?page=1&per_page=100`);
      const sends = [...first.sends];
      for (let n = 2; sends.length < first.total_count; n++) {
        const next = await api(`${SENDS}?page=${n}&per_page=100`);
        assert.ok(next.sends.length > 0, say("the platform's pages add up to its total_count"));
        sends.push(...next.sends);
      }
      return { total: first.total_count, sends };
    }

    // --- Helpers over the page -------------------------------------------------------------

    /** Waits for the screen's main heading. */
    function heading(text) {
      return page.waitForElement("main#main h1", text);
    }

    /** Waits until the address is `path` with these query parameters (any order; null: absent). */
    function waitForAddress(path, params = {}) {
      const query = Object.entries(params)
        .map(([k, v]) => `${k}=${v}`)
        .join("&");
      return page.waitFor(
        `the address ${path}${query ? `?${query}` : ""}`,
        (p, want) => {
          const here = new URLSearchParams(location.search);
          return location.pathname === p && Object.entries(want).every(([k, v]) => here.get(k) === v);
        },
        path,
        params,
      );
    }

    /** What the elements matching `selector` hold: their text, or attribute `attr`. */
    function readList(selector, attr, on = page) {
      return on.eval(
        (sel, a) =>
          [...document.querySelectorAll(sel)].map((el) => (a ? el.getAttribute(a) : el.textContent.replace(/\s+/g, " ").trim())),
        selector,
        attr,
      );
    }

    /**
     * Waits until the elements matching `selector` hold exactly `expected` (texts, or attribute
     * `attr`), in order, in the page `on`; on a timeout, says what differs.
     */
    async function waitForList(what, selector, expected, attr = null, on = page) {
      const want = attr ? expected.map(String) : expected.map(norm);
      try {
        await on.waitFor(
          what,
          (sel, a, w) => {
            const got = [...document.querySelectorAll(sel)].map((el) =>
              a ? el.getAttribute(a) : el.textContent.replace(/\s+/g, " ").trim(),
            );
            return JSON.stringify(got) === JSON.stringify(w);
          },
          selector,
          attr,
          want,
        );
      } catch (error) {
        assert.deepEqual(await readList(selector, attr, on), want, `${error.message}\n${say(what)}`);
        throw error;
      }
    }

    /** Waits until the element matching `selector` has text matching `pattern`; its text. */
    async function waitForText(selector, pattern) {
      return page.waitFor(
        `${selector} to read ${pattern}`,
        (sel, source) => {
          const text = document.querySelector(sel)?.textContent.replace(/\s+/g, " ").trim();
          return text !== undefined && new RegExp(source).test(text) ? text : null;
        },
        selector,
        pattern.source,
      );
    }

    /** Chooses `value` in a select once the select offers it (options may still be loading). */
    async function choose(selector, value) {
      await page.waitFor(
        `${selector} to offer "${value}"`,
        (sel, v) => [...(document.querySelector(sel)?.options ?? [])].some((o) => o.value === v),
        selector,
        value,
      );
      await page.select(selector, value);
    }

    /** The values of the user form's fields. */
    function formValues() {
      return page.eval(() =>
        Object.fromEntries(
          ["user-email", "user-given-name", "user-family-name", "user-role", "user-team"].map((id) => [id, document.getElementById(id)?.value]),
        ),
      );
    }

    /**
     * Clicks, for real, the checkbox of the users list's row whose email is `email`, scrolled to
     * the middle of the window first as a person would: when a page scrolls sideways,
     * WebKitGTK's scrollbar lies over the window's bottom strip and takes a click there.
     */
    async function pickUser(email) {
      const mark = await page.waitFor(
        `the row of ${email}`,
        (e) => {
          const row = [...document.querySelectorAll("table.users-table tbody tr")].find(
            (tr) => tr.querySelector("td:nth-of-type(2)")?.textContent === e,
          );
          const box = row?.querySelector("input[type=checkbox]");
          if (!box) return null;
          box.scrollIntoView({ block: "center" });
          box.setAttribute("data-journey-pick", e);
          return `input[data-journey-pick="${e}"]`;
        },
        email,
      );
      await page.click(mark);
    }

    /** Clicks a link of the main navigation (`key`: its words in the catalog). */
    function navTo(key) {
      return page.click(`${mainNav()} a`, words(key));
    }

    // --- The journey -----------------------------------------------------------------------

    test(`[${name}] 1. signs in through the consent page and lands on a clean address`, async () => {
      // The language as the console keeps the admin's choice: boot.js reads it at load.
      await page.goto(sandbox.url);
      browser = await page.eval(() => navigator.language);
      await page.eval((lang) => localStorage.setItem("gifting-console.pref.language", lang), LANGUAGE);
      await page.goto(sandbox.url);
      await page.waitForElement("main#main button", words("signin.sign_in"));
      assert.equal(await page.eval(() => document.documentElement.lang), LANGUAGE, say("the console in the chosen language"));
      await page.click("main#main button", words("signin.sign_in"));
      await page.waitForUrl(/^\/oauth\/authorize\?/);
      await page.click('input[type=radio][name=user][value="admin@example.com"]');
      await page.click("button", "Allow");
      await page.waitForElement("[data-testid=current-user] .current-user__name");
      assert.equal(await page.eval(() => document.documentElement.lang), LANGUAGE, say("still the chosen language after sign-in"));
      // The console came back to where sign-in started, with the code and state gone.
      await waitForAddress("/");
      const address = new URL(await page.url());
      assert.notEqual(address.pathname, "/auth/callback", say("not left on the callback"));
      assert.equal(address.searchParams.get("code"), null, say(`no code in ${address}`));
      assert.equal(address.searchParams.get("state"), null, say(`no state in ${address}`));
      // The header names the user the token belongs to, as the platform reports them.
      const me = await api("/api/v3/me");
      assert.equal(me.email, "admin@example.com", say("signed in as the admin chosen"));
      const shown = await page.texts("[data-testid=current-user] .current-user__name");
      assert.deepEqual(shown, [norm(`${me.first_name} ${me.last_name}`)], say("the header's name"));
      assert.equal((await sandbox.stats()).authorization_codes_exchanged, 1, say("one code exchanged"));
      await page.check();
    });

    test(`[${name}] 2. every screen of the main navigation shows its heading and its data`, async () => {
      const links = await page.eval(
        (nav) => [...document.querySelectorAll(`${nav} a`)].map((a) => [a.textContent.trim(), a.getAttribute("href")]),
        mainNav(),
      );
      assert.deepEqual(links, NAV.map((s) => [words(s.label), s.path]), say("the main navigation"));
      const users = (await api(`${SCIM}?startIndex=1&count=25`)).Resources;
      const teams = (await api("/api/v3/groups?page=1&per_page=25")).groups;
      const sends = (await api(`${SENDS}?page=1&per_page=25`)).sends;
      const campaigns = (await api("/api/v3/touches?page=1&per_page=25")).touches;
      const products = (await api(PRODUCTS)).products;
      // What each screen must show once loaded: the platform's first page, in its order.
      const data = {
        "/users": () => waitForList("the users' emails", "table.users-table tbody tr td:nth-of-type(2)", users.map((u) => u.userName)),
        "/users/import": () => page.waitForElement("input#import-file[type=file]"),
        "/teams": () => waitForList("the team groups' names", "main#main table tbody tr th", teams.map((g) => g.name)),
        "/sends": () => waitForList("the sends", "table.sends-table tbody tr[data-send-id]", sends.map((s) => s.id), "data-send-id"),
        "/campaigns": () => waitForList("the campaigns", "tbody tr[data-campaign-id]", campaigns.map((t) => t.id), "data-campaign-id"),
        "/catalog": () => waitForList("the first page of products", "[data-testid=product-grid] > li.product-card", products.map((p) => p.id), "data-product-id"),
      };
      for (const screen of NAV) {
        try {
          await navTo(screen.label);
          await waitForAddress(screen.path);
          await heading(words(screen.heading));
          await data[screen.path]();
          await page.check();
        } catch (error) {
          // Say which screen: a crash screen looks the same on each.
          error.message = `[${name}] on the ${screen.path} screen: ${error.message.replace(/^\[\w+\] /, "")}`;
          throw error;
        }
      }
      // Home, from the header's brand link: who is signed in, and the answer first.
      const me = await api("/api/v3/me");
      await page.click("header a.brand");
      await waitForAddress("/");
      await heading(words("home.title"));
      await waitForText("main#main", new RegExp(wordsLike("home.signed_in_as", { email: me.email })));
      await waitForText("main#main [data-testid=summary]", new RegExp(wordsLike("home.attention_this_month")));
      await page.check();
    });

    test(`[${name}] 3. pages to the next page of users and sorts it by a column`, async () => {
      const total = (await api(`${SCIM}?count=0`)).totalResults;
      assert.ok(total > 20, say(`more than two pages of 10 users (${total})`));
      await page.goto(`${sandbox.url}/users?count=10`);
      await page.waitForElement("nav.pager .pager__summary", words("users.showing", { start: 1, end: 10, total }));
      await page.click("nav.pager a[data-pager=Next]", words("pager.next"));
      await waitForAddress("/users", { startIndex: "11", count: "10" });
      await page.waitForElement("nav.pager .pager__summary", words("users.showing", { start: 11, end: 20, total }));
      const emails = (await api(`${SCIM}?startIndex=11&count=10`)).Resources.map((u) => u.userName);
      const cells = "table.users-table tbody tr td:nth-of-type(2)";
      await waitForList("the second page's emails", cells, emails);

      // A click on "Email" sorts the page shown, ascending, then descending; the address says so.
      const header = "table.users-table thead th";
      const email = words("users.email");
      await page.click(`${header} a.sort-link`, email);
      await waitForAddress("/users", { startIndex: "11", count: "10", sort: "email", dir: null });
      await page.waitForElement(`${header}[aria-sort=ascending] a`, email);
      await waitForList("the page sorted by email", cells, [...emails].sort(byText));
      await page.click(`${header} a.sort-link`, email);
      await waitForAddress("/users", { startIndex: "11", count: "10", sort: "email", dir: "desc" });
      await page.waitForElement(`${header}[aria-sort=descending] a`, email);
      await waitForList("the page sorted by email, descending", cells, [...emails].sort(byText).reverse());
      // Name, Email, Role, Team, Status: only the column clicked says it sorts.
      await waitForList("each header's aria-sort", `${header}[aria-sort]`, ["none", "descending", "none", "none", "none"], "aria-sort");
      // A third click: the platform's order again (the list would otherwise keep the sort).
      await page.click(`${header} a.sort-link`, email);
      await waitForAddress("/users", { startIndex: "11", count: "10", sort: null, dir: null });
      await waitForList("the page in the platform's order", cells, emails);
      await page.check();
    });

    test(`[${name}] 4. a user is created, a refused submit keeps the input, then the user is edited`, async () => {
      const teams = (await groups()).filter((g) => plainName(g.name));
      assert.ok(teams.length >= 2, say("two team groups with plain names"));
      await page.goto(`${sandbox.url}/users`);
      await page.click("main#main a", words("users.add"));
      await waitForAddress("/users/new");
      await heading(words("users.new_title"));

      // An email that exists already: the platform refuses it, the form keeps every field.
      await page.fill("#user-email", "admin@example.com");
      await page.fill("#user-given-name", "Journey");
      await page.fill("#user-family-name", `Taker-${name}`);
      await choose("#user-role", "manager");
      await choose("#user-team", teams[0].name);
      const typed = await formValues();
      await page.click("main#main form button[type=submit]", words("users.create"));
      await waitForText("#user-email-error", new RegExp(wordsLike("users.email_taken")));
      assert.deepEqual(await formValues(), typed, say("a refused submit keeps what was typed"));
      assert.equal(await page.eval(() => document.getElementById("user-email").getAttribute("aria-invalid")), "true", say("the email is marked invalid"));
      assert.equal((await usersNamed("admin@example.com")).length, 1, say("the platform still has one admin@example.com"));

      // A new email: created once, as typed.
      const email = `journey.${stamp}@example.com`;
      await page.fill("#user-email", email);
      await page.click("main#main form button[type=submit]", words("users.create"));
      await page.waitForUrl(/^\/users\/\d+$/);
      await heading(`Journey Taker-${name}`);
      const found = await usersNamed(email);
      assert.equal(found.length, 1, say(`the platform has ${email} once`));
      created = found[0];
      assert.equal(new URL(await page.url()).pathname, `/users/${created.id}`, say("the new user's page"));
      assert.deepEqual(
        [created.name.givenName, created.name.familyName, created.userType, created.division, created.active],
        ["Journey", `Taker-${name}`, "manager", teams[0].name, true],
        say("the user as created"),
      );

      // Edited on their page: last name, role and team, saved and read back from the platform.
      await page.waitFor("the form to hold the user", (family) => document.getElementById("user-family-name")?.value === family, `Taker-${name}`);
      await page.fill("#user-family-name", `Edited-${name}`);
      await choose("#user-role", "admin");
      await choose("#user-team", teams[1].name);
      await page.click("main#main form button[type=submit]", words("users.save_changes"));
      // The platform's answer in the sentence: the user's name, role and team as it words them.
      const saved = { name: `Journey Edited-${name}`, role: "admin", team: teams[1].name };
      await waitForText("[data-testid=user-outcome]", new RegExp(`^${wordsLike("users.saved_now", saved)}`));
      await heading(`Journey Edited-${name}`);
      const edited = await scimUser(created.id);
      assert.deepEqual(
        [edited.userName, edited.name.familyName, edited.userType, edited.division],
        [email, `Edited-${name}`, "admin", teams[1].name],
        say("the user as edited"),
      );
      created = edited;
      await page.check();
    });

    test(`[${name}] 5. a bulk change moves three selected users to another team`, async () => {
      const target = (await groups()).filter((g) => plainName(g.name)).at(-1).name;
      const list = await api(`${SCIM}?startIndex=1&count=100`);
      const everyone = list.Resources;
      assert.equal(everyone.length, list.totalResults, say("every user on one page of 100"));
      // Seeded users other than the named ones (admin, manager, sender) and the one just made.
      const three = everyone.filter((u) => Number(u.id) > 1003 && u.active && u.division !== target && u.id !== created?.id).slice(0, 3);
      assert.equal(three.length, 3, say("three users outside the target team"));
      await page.goto(`${sandbox.url}/users?count=100`);
      await waitForList("every user", "table.users-table tbody tr td:nth-of-type(2)", everyone.map((u) => u.userName));
      for (const user of three) await pickUser(user.userName);
      await page.waitForElement("[data-testid=bulk-count]", words("users.selected", { count: 3 }));
      await choose("#bulk-action", "team");
      await choose("#bulk-team", target);
      await page.click(".bulk__form button[type=submit]", words("users.move_to_team", { count: 3, team: target }));
      await page.waitForElement("[data-testid=bulk-summary]", words("users.summary_changed", { done: 3, count: 3 }), { timeout: 30_000 });
      for (const user of three) {
        assert.equal((await scimUser(user.id)).division, target, say(`${user.userName} moved to ${target}`));
      }
      // The list is read again after the run: the rows say the new team.
      await page.waitFor(
        "the moved users' rows to show the new team",
        (emails, team) =>
          emails.every((e) =>
            [...document.querySelectorAll("table.users-table tbody tr")].some(
              (tr) => tr.querySelector("td:nth-of-type(2)")?.textContent === e && tr.querySelector("td:nth-of-type(4)")?.textContent === team,
            ),
          ),
        three.map((u) => u.userName),
        target,
      );
      await page.waitForElement("[data-testid=bulk-count]", words("users.selected", { count: 0 }));
      await page.check();
    });

    test(`[${name}] 6. an import of a few rows is previewed, run, and lands on the platform`, async () => {
      const team = (await groups()).find((g) => plainName(g.name)).name;
      const rows = [1, 2, 3].map((n) => ({ email: `journey-import-${stamp}-${n}@example.org`, given: `Imported${n}`, family: `Row-${name}` }));
      const csv = ["email,first name,last name,role,team", ...rows.map((r) => `${r.email},${r.given},${r.family},sender,${team}`)].join("\r\n") + "\r\n";
      await page.goto(`${sandbox.url}/users`);
      await page.click("main#main a", words("users.import"));
      await waitForAddress("/users/import");
      await heading(words("import.title"));
      // A file chosen as the file input would get it: the same `change` the picker sends.
      await page.waitForElement("input#import-file");
      await page.eval(
        (fileName, text) => {
          const input = document.getElementById("import-file");
          const files = new DataTransfer();
          files.items.add(new File([text], fileName, { type: "text/csv" }));
          input.files = files.files;
          input.dispatchEvent(new Event("change", { bubbles: true }));
        },
        `journey-${name}.csv`,
        csv,
      );
      await waitForText("[data-testid=import-how]", new RegExp(`^(?:${wordsLike("import.how_listed")}|${wordsLike("import.how_looked_up")})$`));
      await page.waitForElement("[data-testid=import-count-create]", "3");
      await waitForList("the rows to create", "[data-testid=import-preview] tbody tr[data-fate=create] td:nth-of-type(1)", rows.map((r) => r.email));
      assert.equal((await usersNamed(rows[0].email)).length, 0, say("the preview wrote nothing"));

      await page.click("[data-testid=import-run]");
      const summary = await waitForText("[data-testid=import-summary]", new RegExp(`^${wordsLike("import.ended")}`));
      const ended = { created: 3, updated: 0, unchanged: 0, deactivated: 0, skipped: 0, failed: 0, not_run: 0 };
      assert.equal(summary, words("import.ended", ended), say("the import's summary"));
      await waitForList("each row's outcome", "[data-testid=import-preview] tbody tr", ["created", "created", "created"], "data-outcome");
      for (const row of rows) {
        const found = await usersNamed(row.email);
        assert.equal(found.length, 1, say(`${row.email} exists once`));
        assert.deepEqual(
          [found[0].name.givenName, found[0].name.familyName, found[0].userType, found[0].division],
          [row.given, row.family, "sender", team],
          say(`${row.email} as the file says`),
        );
      }
      await page.check();
    });

    test(`[${name}] 7. sends: every page loaded, then the CSV export holds a line per send`, async () => {
      const { total, sends } = await allSends();
      assert.ok(total > 100, say(`more than one page of 100 sends (${total})`));
      // Opened by its address, as every step from here does: step 2 went through the
      // navigation, and a screen that fails there then fails only its own steps.
      await page.goto(`${sandbox.url}/sends`);
      await heading(words("sends.title"));
      await page.waitForElement("table.sends-table tbody tr[data-send-id]");
      // The export hands the browser a Blob through an object URL and clicks a download link:
      // keep the Blob to read, and keep the file itself out of the engine's downloads folder.
      await page.eval(() => {
        window.__journeyBlobs = [];
        window.__journeyDownloads = [];
        const create = URL.createObjectURL;
        URL.createObjectURL = function (object) {
          if (object instanceof Blob) window.__journeyBlobs.push(object);
          return create.call(URL, object);
        };
        document.addEventListener(
          "click",
          (event) => {
            const link = event.target.closest?.("a[download]");
            if (!link) return;
            window.__journeyDownloads.push({ name: link.download, href: link.href });
            event.preventDefault();
          },
          true,
        );
      });
      await page.click("[data-testid=load-all] button", words("sends.load_all"));
      // The counts as the console writes them in its locale (Intl.NumberFormat).
      await waitForText("[data-testid=load-all-status]", new RegExp(`^${wordsLike("sends.walk_all_loaded", { held: total, total })}`));
      await waitForText("[data-testid=export-csv]", new RegExp(`^${wordsLike("sends.export_loaded", { count: total })}$`));
      await page.click("[data-testid=export-csv]");
      const download = await page.waitFor("the export's download", () => window.__journeyDownloads[0]);
      assert.match(download.name, /^sends-\d{4}-\d{2}-\d{2}\.csv$/, say("the file's name"));
      assert.match(download.href, /^blob:/, say("the file is the Blob made in the page"));
      const file = await page.eval(async () => {
        const blob = window.__journeyBlobs.at(-1);
        // text() decodes UTF-8 and drops a byte order mark: read the first bytes apart.
        const head = [...new Uint8Array(await blob.slice(0, 3).arrayBuffer())];
        return { type: blob.type, head, text: await blob.text(), count: window.__journeyBlobs.length };
      });
      assert.equal(file.count, 1, say("one file made"));
      assert.match(file.type, /^text\/csv/, say("a CSV file"));
      assert.deepEqual(file.head, [0xef, 0xbb, 0xbf], say("a UTF-8 byte order mark for spreadsheets"));
      const lines = parseCsv(file.text);
      const header = lines[0];
      assert.ok(header.includes("send_id") && header.includes("current_total_cost"), say(`a header: ${header.join(",")}`));
      assert.equal(lines.length, total + 1, say("the header and one line per send"));
      assert.ok(lines.every((l) => l.length === header.length), say("every line has every column"));
      const id = header.indexOf("send_id");
      assert.deepEqual(lines.slice(1).map((l) => l[id]), sends.map((s) => String(s.id)), say("every send once, in the platform's order"));
      await page.check();
    });

    test(`[${name}] 8. catalog: scrolling loads more cards, thumbnails load, a product opens and Escape closes it`, async () => {
      const products = await allProducts();
      const byId = new Map(products.map((p, i) => [p.id, { ...p, position: i + 1 }]));
      await page.goto(`${sandbox.url}/catalog`);
      await heading(words("catalog.title"));
      // "48 products shown, more to come.": the count (the pattern's one group that matched),
      // once more than `before`.
      const shownPast = (before, source) => {
        const text = document.querySelector("[data-testid=catalog-summary]")?.textContent.replace(/\s+/g, " ").trim() ?? "";
        const found = new RegExp(`^${source}$`).exec(text);
        const n = Number(found?.slice(1).find((group) => group !== undefined).replace(/\D/g, "") ?? 0);
        return n > before ? n : null;
      };
      const shown = wordsLike("catalog.shown");
      const first = await page.waitFor("the first products", shownPast, 0, shown);
      await page.eval(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const more = await page.waitFor(`more than ${first} products after scrolling`, shownPast, first, shown);
      assert.ok(more <= products.length, say(`${more} shown of the platform's ${products.length}`));
      // Down to the cards that came: each in view is the platform's product at its place, with
      // its thumbnail loaded (lazily, once near the view).
      await page.eval(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const inView = await page.waitFor(
        "the thumbnails in view, past the first page, to load",
        () => {
          const cards = [...document.querySelectorAll("[data-testid=product-grid] > li.product-card")].filter((li) => {
            const box = li.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= innerHeight;
          });
          const shown = cards.map((li) => {
            const img = li.querySelector("img");
            return { id: li.dataset.productId, position: Number(li.getAttribute("aria-posinset")), src: img?.getAttribute("src"), loaded: Boolean(img?.complete && img.naturalWidth > 0) };
          });
          return shown.some((c) => c.position > 24) && shown.every((c) => c.loaded) ? shown : null;
        },
        { timeout: 20_000 },
      );
      for (const card of inView) {
        const product = byId.get(card.id);
        assert.equal(product?.position, card.position, say(`card ${card.id} at the platform's place`));
        assert.equal(card.src, product.variants[0].images[0].cdn_thumbnail.url, say(`card ${card.id} shows its thumbnail`));
      }

      // A product in view opens in the dialog, at its own address; Escape closes it.
      const product = byId.get(inView[0].id);
      await page.click(`li.product-card[data-product-id="${product.id}"] h3 a`);
      await page.waitFor("the product's address", (id) => location.pathname === `/catalog/${encodeURIComponent(id)}`, product.id);
      await page.waitForElement("dialog[data-testid=product-dialog][open] #product-dialog-title", norm(product.name));
      await page.waitFor("the focus in the dialog", () => document.querySelector("dialog[open]")?.contains(document.activeElement));
      await page.press("Escape");
      await page.waitFor("the dialog to close", () => !document.querySelector("dialog[open]") && location.pathname === "/catalog");
      await page.waitForElement(`li.product-card[data-product-id="${product.id}"]`);
      await page.check();
    });

    test(`[${name}] 9. leaving a form with unsaved edits asks first: Cancel keeps them, Leave leaves`, async () => {
      await page.goto(`${sandbox.url}/users/new`);
      await heading(words("users.new_title"));
      await page.fill("#user-given-name", "Half");
      const dialog = "dialog.confirm-dialog[open]";
      await navTo("nav.users");
      await page.waitForElement(`${dialog} h2`, words("leave.title"));
      await page.click(`${dialog} button`, words("common.cancel"));
      await page.waitFor("the dialog to close", (sel) => !document.querySelector(sel), dialog);
      await waitForAddress("/users/new");
      assert.equal((await formValues())["user-given-name"], "Half", say("Cancel keeps the edits"));

      await navTo("nav.users");
      await page.waitForElement(`${dialog} h2`, words("leave.title"));
      await page.click(`${dialog} button`, words("leave.confirm"));
      await waitForAddress("/users");
      await heading(words("users.title"));
      await page.check();
    });

    test(`[${name}] 10. a second tab opened by its address is told the console is signed in in another tab`, async () => {
      // Its sessionStorage is empty: the tabs' channel hands no session to such a tab (any page
      // of the origin could be asking), so it says so and offers sign-in (src/auth/tabs.rs).
      const exchanged = (await sandbox.stats()).authorization_codes_exchanged;
      const tab = await engine.newPage();
      try {
        await tab.goto(`${sandbox.url}/teams`);
        await tab.waitForElement("main#main p.notice", words("signin.elsewhere"));
        await tab.waitForElement("main#main button", words("signin.sign_in"));
        assert.equal(new URL(await tab.url()).pathname, "/teams", say("still on /teams"));
        assert.equal((await sandbox.stats()).authorization_codes_exchanged, exchanged, say("no sign-in of its own yet"));
        await tab.check();
      } finally {
        await tab.close();
      }
      await page.check();
    });

    test(`[${name}] 11. the command palette goes to a team group by keyboard alone`, async () => {
      const groups = (await api("/api/v3/groups?page=1&per_page=100")).groups;
      const group = groups.find((g) => plainName(g.name)) ?? groups[0];
      await page.chord("Control", "k");
      await page.waitFor("the palette's box to have the focus", () => document.activeElement?.id === "palette-input");
      await page.fill("#palette-input", group.name);
      const option = await page.waitFor(
        "the team group among the results",
        (want) => [...document.querySelectorAll("[data-testid=palette] [role=option]")].find((o) => o.textContent.includes(want))?.id ?? null,
        group.name,
      );
      for (let i = 0; i < 30; i++) {
        const active = await page.eval(() => document.getElementById("palette-input").getAttribute("aria-activedescendant"));
        if (active === option) break;
        await page.press("ArrowDown");
      }
      await page.press("Enter");
      await waitForAddress(`/teams/${group.id}`);
      await page.check();
    });

    test(`[${name}] 12. sign-out shows Sign in and leaves no session`, async () => {
      const old = await token();
      await page.click("header button", words("shell.sign_out"));
      await page.waitForElement("main#main button", words("signin.sign_in"));
      await waitForText("main#main", new RegExp(wordsLike("signin.signed_out")));
      assert.equal(await page.session(), null, say("no session in sessionStorage"));
      assert.deepEqual(await readList("[data-testid=current-user]"), [], say("no signed-in user in the header"));
      assert.deepEqual(await readList(`${mainNav()} a, ${mainNav()} button`), [], say("no screens or tools in the navigation"));
      assert.equal((await platformGet(sandbox.url, old, "/api/v3/me")).status, 401, say("the platform refuses the old token"));
      await page.check();
    });
  });
}
