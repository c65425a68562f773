// Users imported from a CSV file, driven in a real Chromium against the real
// sandbox, with hand-written files. Every expectation about what was written is checked
// against the platform's own state (platformGet), never against the screen alone.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { consoleFixture, parseCsv, platformGet, scimUsers, seriousAxeViolations, unexpectedErrors } from "./harness.mjs";

const VISIBLE = { state: "visible", timeout: 20_000 };

const allUsers = (env) => scimUsers(env.sandbox.url, env.token);

/** How many users the platform holds per lower-case email. */
async function emailCounts(env) {
  const counts = new Map();
  for (const u of await allUsers(env)) counts.set(u.userName.toLowerCase(), (counts.get(u.userName.toLowerCase()) ?? 0) + 1);
  return counts;
}

async function openImport(env) {
  await env.page.goto(`${env.sandbox.url}/users/import`);
  await env.page.getByLabel("CSV file (UTF-8, comma or semicolon separated)").waitFor({ state: "attached", timeout: 20_000 });
}

async function choose(env, name, content) {
  const buffer = Buffer.isBuffer(content) ? content : Buffer.from(content, "utf8");
  await env.page.locator("#import-file").setInputFiles({ name, mimeType: "text/csv", buffer });
}

const count = (env, key) => env.page.locator(`[data-testid=import-count-${key}]`).textContent().then((t) => Number(t.replace(/\D/g, "")));

async function previewReady(env) {
  await env.page.locator("[data-testid=import-how]").filter({ hasText: "Compared" }).waitFor(VISIBLE);
  await env.page.locator("[data-testid=import-preview]").waitFor(VISIBLE);
}

async function runAndWait(env) {
  await env.page.locator("[data-testid=import-run]").click();
  await env.page.locator("[data-testid=import-summary]").waitFor({ state: "visible", timeout: 120_000 });
  return env.page.locator("[data-testid=import-summary]").textContent();
}

const summaryCount = (summary, word) => Number(new RegExp(`${word} (\\d+)`).exec(summary)?.[1]);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A cell of a semicolon-separated file, quoted when it must be. */
const cell = (text) => (/[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

describe("import users from CSV", () => {
  const env = consoleFixture();
  const stamp = Date.now().toString(36);
  const email = (n) => `imp-${stamp}-${n}@example.org`;

  test("every fate is previewed before anything is written; a second run changes nothing", async () => {
    const before = await allUsers(env);
    // A seeded user with plain names (the seed also holds hostile ones, refused as too long).
    const plain = /^[A-Za-z' -]{1,40}$/;
    const seeded = before.find((u) => u.active && u.userType === "sender" && !u.userName.startsWith("sender@") && plain.test(u.name.givenName) && plain.test(u.name.familyName));
    assert.ok(seeded, "a seeded sender with plain names");
    const team = seeded.division;
    // Semicolons, a byte order mark, CRLF, quoted cells holding the separator, quotes and a line break.
    const rows = [
      "\ufeffE-mail address;First name;Last name;Role;Department",
      `${email(1)};"Ann; ""the"" first";One;sender;${cell(team)}`,
      `${email(2)};"Two\nLines";=HYPERLINK("http://x");Manager;${cell(team)}`,
      `${seeded.userName.toUpperCase()};${seeded.name.givenName};Changed-${stamp};${seeded.userType};${cell(team)}`,
      `${seeded.userName};${seeded.name.givenName};Changed-${stamp};;`,
      `not-an-email;A;B;sender;${cell(team)}`,
      `${email(3)};A;B;owner;${cell(team)}`,
      `${email(4)};A;B;sender;${cell(team.slice(0, -1))}`,
      `${email(5)};A;;sender;${cell(team)}`,
      `admin@example.com;;;;`,
    ];
    await openImport(env);
    await choose(env, "people.csv", rows.join("\r\n") + "\r\n");
    await previewReady(env);
    assert.equal(await count(env, "create"), 2);
    assert.equal(await count(env, "update"), 0);
    assert.equal(await count(env, "unchanged"), 1, "admin@example.com with blank cells keeps everything");
    assert.equal(await count(env, "error"), 6);
    const preview = env.page.locator("[data-testid=import-preview]");
    assert.match(await preview.textContent(), /is also on row/);
    assert.match(await preview.textContent(), /Invalid email/);
    assert.match(await preview.textContent(), /Unknown role/);
    assert.match(await preview.textContent(), new RegExp(`Did you mean \u201c${escape(team)}\u201d`));
    assert.match(await preview.textContent(), /Missing last name/);
    assert.match(await env.page.locator("[data-testid=import-how]").textContent(), /reading all its \d+ users \(1 request\)/);
    // Filter by fate: only errors.
    await env.page.locator("[data-fate=error] input").check();
    assert.equal(await preview.locator("tbody tr").count(), 6);
    await env.page.locator("[data-fate=all] input").check();
    assert.equal((await allUsers(env)).length, before.length, "nothing written by the preview");

    // Drop the duplicate row: the seeded user then becomes an update.
    const fixed = rows.filter((_, i) => i !== 4);
    await choose(env, "people.csv", fixed.join("\r\n") + "\r\n");
    await previewReady(env);
    assert.equal(await count(env, "update"), 1);
    assert.match(await preview.textContent(), new RegExp(`Last name: ${escape(seeded.name.familyName)} \u2192 Changed-${stamp}`));
    const summary = await runAndWait(env);
    assert.equal(summaryCount(summary, "created"), 2, summary);
    assert.equal(summaryCount(summary, "updated"), 1, summary);
    assert.equal(summaryCount(summary, "failed"), 0, summary);
    const counts = await emailCounts(env);
    assert.equal(counts.get(email(1)), 1);
    assert.equal(counts.get(email(2)), 1);
    for (const n of [3, 4, 5]) assert.equal(counts.get(email(n)), undefined, `error row ${n} not written`);
    const after = await allUsers(env);
    const two = after.find((u) => u.userName === email(2));
    assert.equal(two.name.familyName, '=HYPERLINK("http://x")');
    assert.equal(two.userType, "manager");
    assert.equal(after.find((u) => u.id === seeded.id).name.familyName, `Changed-${stamp}`);

    // The results file: original columns, outcome and message, formulas neutralised.
    const [download] = await Promise.all([env.page.waitForEvent("download"), env.page.locator("[data-testid=import-download]").click()]);
    const text = fs.readFileSync(await download.path(), "utf8");
    assert.ok(text.startsWith("\ufeffE-mail address,First name,Last name,Role,Department,outcome,message,before,after\r\n"), text.slice(0, 100));
    // The seeded user updated: as the platform had them before, and after.
    const updated = parseCsv(text.slice(1)).find((r) => r[0] === seeded.userName.toUpperCase());
    assert.deepEqual(updated.slice(-2), [`${seeded.userType} · ${team} · active`, `${seeded.userType} · ${team} · active`], String(updated));
    assert.match(text, /'=HYPERLINK\(""http:\/\/x""\)/);
    assert.match(text, /,created,Created\./);

    // The same file again: everything unchanged, and a run writes nothing.
    await env.page.getByRole("button", { name: "Compare the file again" }).click();
    await previewReady(env);
    assert.equal(await count(env, "create"), 0);
    assert.equal(await count(env, "update"), 0);
    assert.equal(await count(env, "unchanged"), 4);
    const again = await runAndWait(env);
    assert.equal(summaryCount(again, "created"), 0, again);
    assert.equal(summaryCount(again, "updated"), 0, again);
    assert.equal((await allUsers(env)).length, before.length + 2);
    assert.deepEqual(env.page.dialogs, [], "hostile text never ran");
    assert.deepEqual(unexpectedErrors(env.page), []);
  });

  test("bad files get a clear message, nothing is written and the page stays responsive", async () => {
    const before = (await allUsers(env)).length;
    await openImport(env);
    const big = path.join(os.tmpdir(), `import-50mb-${stamp}.csv`);
    fs.writeFileSync(big, Buffer.alloc(50_000_000, "a"));
    const cases = [
      ["empty.csv", "", /empty/],
      ["photo.csv", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), /PNG image/],
      ["wide.csv", `${Array.from({ length: 500 }, (_, i) => `c${i}`).join(",")}\nx\n`, /500 columns/],
      ["latin1.csv", Buffer.from("email,first name\nj\xe9r\xf4me@example.org,J\xe9r\xf4me\n", "latin1"), /not UTF-8/],
      ["header-only.csv", "email,team\n", /no users/],
    ];
    for (const [name, content, message] of cases) {
      await choose(env, name, content);
      const error = env.page.locator("[data-testid=import-file-error]");
      await error.filter({ hasText: message }).waitFor(VISIBLE);
      assert.match(await error.textContent(), /Nothing was written/);
    }
    await env.page.locator("#import-file").setInputFiles(big);
    await env.page.locator("[data-testid=import-file-error]").filter({ hasText: "50.0 MB" }).waitFor(VISIBLE);
    fs.unlinkSync(big);
    // No email column: said so, and Run stays disabled.
    await choose(env, "no-email.csv", "Name,Team\n<img src=x onerror=alert(1)>,=1+1\n");
    await env.page.locator("[data-testid=import-no-email]").waitFor(VISIBLE);
    assert.equal(await env.page.locator("[data-testid=import-run]").isDisabled(), true);
    // Responsive: a script answers at once.
    const started = Date.now();
    await env.page.evaluate(() => 1);
    assert.ok(Date.now() - started < 1000);
    assert.equal((await allUsers(env)).length, before);
    assert.deepEqual(env.page.dialogs, []);
  });

  test("a run cancelled halfway finishes the rest when run again, nobody twice", async () => {
    const n = 40;
    const team = (await allUsers(env))[0].division;
    const lines = ["email,first name,last name,role,team"];
    for (let i = 0; i < n; i++) lines.push(`${email(`c${i}`)},C${i},Cancel,sender,${team}`);
    await openImport(env);
    await choose(env, "cancel.csv", lines.join("\n"));
    await previewReady(env);
    assert.equal(await count(env, "create"), n);
    // The creates after the eighth are held until Cancel is pressed, so it lands mid-run.
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    let posts = 0;
    await env.page.route("**/api/scim/v2/Users", async (route) => {
      if (route.request().method() === "POST" && ++posts > 8) await gate;
      await route.continue();
    });
    await env.page.locator("[data-testid=import-run]").click();
    const progress = env.page.locator("[data-testid=import-progress]");
    await progress.filter({ hasText: /^[5-8] of 40/ }).waitFor(VISIBLE);
    await progress.getByRole("button", { name: "Cancel" }).click();
    release();
    const summary = await env.page.locator("[data-testid=import-summary]").textContent({ timeout: 20_000 });
    await env.page.unroute("**/api/scim/v2/Users");
    const created = summaryCount(summary, "created");
    assert.ok(created > 0 && created < n, summary);
    assert.equal(summaryCount(summary, "not run"), n - created, summary);
    let counts = await emailCounts(env);
    assert.equal(lines.slice(1).filter((l) => counts.get(l.split(",")[0]) === 1).length, created);

    await env.page.getByRole("button", { name: "Compare the file again" }).click();
    await previewReady(env);
    assert.equal(await count(env, "create"), n - created);
    assert.equal(await count(env, "unchanged"), created);
    const rest = await runAndWait(env);
    assert.equal(summaryCount(rest, "created"), n - created, rest);
    counts = await emailCounts(env);
    for (let i = 0; i < n; i++) assert.equal(counts.get(email(`c${i}`)), 1, email(`c${i}`));
  });

  test("the preview pages through a 400-row file to its last row", async () => {
    await openImport(env);
    const emails = Array.from({ length: 400 }, (_, i) => email(`p${i}`));
    await choose(env, "many.csv", `email,first name,last name,role\n${emails.map((e) => `${e},Page,Row,sender`).join("\n")}\n`);
    await previewReady(env);
    const range = env.page.locator("[data-testid=import-range]");
    const next = env.page.getByRole("button", { name: "Next rows", exact: true });
    const seen = [];
    for (;;) {
      const shown = await range.textContent();
      const cells = await env.page.locator("[data-testid=import-preview] tbody tr td:nth-child(2)").allTextContents();
      seen.push(...cells.map((c) => c.trim()));
      if (await next.isDisabled()) break;
      await next.click();
      await range.filter({ hasNotText: shown }).waitFor(VISIBLE);
    }
    assert.match(await range.textContent(), /of 400$/);
    assert.deepEqual(seen, emails, "every row once, in the file's order");
    const body = await env.page.locator("body").innerText();
    assert.ok(!/move \||on:click/.test(body), "no view! source shown as text");
  });

  test("axe finds nothing serious on the import screen", async () => {
    await openImport(env);
    await choose(env, "a.csv", `email,first name,last name,role,team\n${email("axe")},A,B,sender,Nowhere\n`);
    await previewReady(env);
    assert.deepEqual(await seriousAxeViolations(env.page), []);
  });
});

// A slow platform (a second an answer) at its rate limit: a comparison and a run both take long
// enough for the admin to do something else meanwhile. 400 users: a file of a few emails is
// compared by looking each one up (fewer requests than reading every user).
describe("import users at the platform's pace (--rate-limit 10 --latency-ms 1000)", () => {
  const env = consoleFixture({
    sandboxArgs: ["--world", "large", "--users", "400", "--groups", "8", "--campaigns", "10", "--sends", "100", "--products", "20", "--rate-limit", "10", "--latency-ms", "1000"],
  });
  const stamp = Date.now().toString(36);

  /** A file of new users with every field a new user needs, in a team of the platform's. */
  async function hires(emails, name) {
    const { body } = await platformGet(env.sandbox.url, env.token, "/api/v3/groups?page=1&per_page=100");
    const team = body.groups.map((g) => g.name).find((n) => /^[A-Za-z0-9 &'-]+$/.test(n));
    assert.ok(team, "a team group with a plain name");
    return `email,first name,last name,role,team\n${emails.map((e) => `${e},${name},Hire,sender,${team}`).join("\n")}\n`;
  }

  /**
   * Imports `count` new users (`${prefix}-…@example.org`, first name `name`) from a file named
   * `file`: previewed, run, and under way (some written) when it returns their emails.
   */
  async function startHiring(file, prefix, name, count) {
    const emails = Array.from({ length: count }, (_, i) => `${prefix}-${stamp}-${i}@example.org`);
    await openImport(env);
    await choose(env, file, await hires(emails, name));
    await previewReady(env);
    await env.page.locator("[data-testid=import-run]").click();
    const underWay = new RegExp(`^[1-9]\\d* of ${count}`);
    await env.page.locator("[data-testid=import-progress]").filter({ hasText: underWay }).waitFor(VISIBLE);
    return emails;
  }

  test("a new file chosen while the last one is compared gets its own preview", async () => {
    const first = [1, 2].map((i) => `slow-${stamp}-${i}@example.org`);
    const second = [1, 2, 3].map((i) => `next-${stamp}-${i}@example.org`);
    const [firstFile, secondFile] = [await hires(first, "Slow"), await hires(second, "Next")];
    await openImport(env);
    await choose(env, "first.csv", firstFile);
    await env.page.locator("[data-testid=import-comparing]").waitFor(VISIBLE);
    await choose(env, "second.csv", secondFile);
    await previewReady(env);
    const emails = env.page.locator("[data-testid=import-preview] tbody tr td:nth-child(2)");
    await env.page.waitForFunction((n) => document.querySelectorAll("[data-testid=import-preview] tbody tr").length === n, second.length);
    assert.deepEqual((await emails.allTextContents()).map((t) => t.trim()), second);
    assert.equal(await count(env, "create"), 3);
  });

  test("a column cannot be changed while the import runs; the run ends whole", async () => {
    const emails = await startHiring("hires.csv", "mid", "Mid", 40);
    const last = env.page.locator("fieldset.import-columns select").last();
    assert.ok(await last.isDisabled(), "the column selects are disabled while it runs");
    assert.ok(await env.page.locator("#import-file").isDisabled(), "so is the file input");
    // What the disabled select would have done: the store refuses it while the run writes.
    await last.evaluate((select) => {
      select.value = "";
      select.dispatchEvent(new Event("change", { bubbles: true }));
    });
    const summary = await env.page.locator("[data-testid=import-summary]").textContent({ timeout: 120_000 });
    assert.equal(summaryCount(summary, "created"), 40, summary);
    const counts = await emailCounts(env);
    for (const e of emails) assert.equal(counts.get(e), 1, e);
    assert.ok(!(await last.isDisabled()), "the columns can be changed again once it ended");
  });

  test("an import runs on as a job while the admin is elsewhere; back on Import, its results are there", async () => {
    const emails = await startHiring("away.csv", "away", "Away", 30);
    const nav = env.page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Teams", exact: true }).click();
    await env.page.locator("main#main table tbody tr").first().waitFor(VISIBLE);
    // The header shows the job running, on this screen too.
    await env.page.getByTestId("jobs-toggle").getByText("Jobs: 1 running").waitFor(VISIBLE);
    await env.page.getByTestId("jobs-announce").getByText(/Import of away\.csv: 30 writes done: 30 created\./).waitFor({ state: "attached", timeout: 120_000 });
    await nav.getByRole("link", { name: "Import users", exact: true }).click();
    const summary = await env.page.locator("[data-testid=import-summary]").textContent({ timeout: 20_000 });
    assert.equal(summaryCount(summary, "created"), 30, summary);
    const counts = await emailCounts(env);
    for (const e of emails) assert.equal(counts.get(e), 1, e);
    const [download] = await Promise.all([env.page.waitForEvent("download"), env.page.locator("[data-testid=import-download]").click()]);
    const rows = fs.readFileSync(await download.path(), "utf8").split("\r\n").filter((l) => l.includes("away-"));
    assert.equal(rows.length, 30, "every row of the file is in the results");
    assert.ok(rows.every((l) => l.includes(",created,")), "each says created");
  });
});

describe("import users under --fault-rate 0.25", () => {
  const env = consoleFixture({ sandboxArgs: ["--fault-rate", "0.25", "--seed", "29"] });

  test("every row ends created once or reported failed; runs again until done, no duplicates", async () => {
    const n = 20;
    const stamp = Date.now().toString(36);
    const team = (await allUsers(env))[0].division;
    const emails = Array.from({ length: n }, (_, i) => `fault-${stamp}-${i}@example.org`);
    const csv = ["email,first name,last name,role,team", ...emails.map((e, i) => `${e},F${i},Fault,sender,${team}`)].join("\n");
    await openImport(env);
    for (let run = 1; run <= 4; run++) {
      await choose(env, "fault.csv", csv);
      await previewReady(env);
      const toCreate = await count(env, "create");
      if (toCreate === 0) break;
      const summary = await runAndWait(env);
      const created = summaryCount(summary, "created");
      const failed = summaryCount(summary, "failed");
      assert.equal(created + failed, toCreate, `run ${run}: every row created or reported failed (${summary})`);
      const failedRows = await env.page.locator("[data-testid=import-preview] tbody tr[data-outcome=failed]").count();
      assert.equal(failedRows, Math.min(failed, 100), "each failure shown on its row");
      const counts = await emailCounts(env);
      assert.ok(emails.every((e) => (counts.get(e) ?? 0) <= 1), `run ${run}: nobody twice`);
    }
    const counts = await emailCounts(env);
    for (const e of emails) assert.equal(counts.get(e), 1, e);
  });
});
