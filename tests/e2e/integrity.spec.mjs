// Every file the console runs or shows after index.html is checked against the digest the build
// recorded (README.md, "Integrity of the console's files"): a file whose bytes are not the
// build's (a cache or a proxy serving a stale or altered copy) is refused, never run. One sandbox
// serves a copy of dist/ in which a test changes one byte of one file, in a way that leaves the
// file valid (a letter of a text, of a wasm module's data), so that without the check the
// console would run it:
//
// - in Chromium, Firefox and WebKit: home's pack (the screen says its code could not be
//   downloaded, and Try again brings it once the file is whole again), the glue and the split
//   loader (the start stops with boot.js's message, as when they cannot be fetched);
// - in Chromium: boot.js (the browser runs none of it), the main wasm (the start stops), a
//   screen's chunk (as the pack), a language bundle (the console speaks English, as when the
//   bundle cannot be fetched).

import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DIST, VISIBLE, assertNoCrash, launchBrowser, newPage, signIn, startSandbox } from "./harness.mjs";
import { ENGINES, launchEngine } from "./engines.mjs";

/** Where a wasm module that starts at `start` has its data section: `[from, to]`, or null. */
function dataSection(bytes, start, end) {
  let at = start + 8;
  while (at < end) {
    const id = bytes[at++];
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      size += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    if (id === 11) return [at, at + size];
    at += size;
  }
  return null;
}

/** The wasm modules in `bytes` (a module, or a pack of them: scripts/pack-chunks.mjs). */
function modules(bytes, file) {
  if (!file.endsWith(".pack")) return [[0, bytes.length]];
  const header = bytes.readUInt32LE(0);
  let at = 4 + header;
  return JSON.parse(bytes.subarray(4, at).toString()).map((length) => [at, (at += length)]);
}

/**
 * Where to change one byte of `file` so that it stays valid and would run: a letter in the
 * middle of a text (a run of letters) in a wasm module's data, in a language bundle's messages,
 * or in a string a script only shows.
 */
function letterAt(bytes, file) {
  const run = (from, to) => {
    const found = /[A-Za-z]{8,}/.exec(bytes.subarray(from, to).toString("latin1"));
    return found ? from + found.index + 4 : null;
  };
  if (/\.(wasm|pack)$/.test(file)) {
    for (const [start, end] of modules(bytes, file)) {
      const data = dataSection(bytes, start, end);
      const at = data && run(...data);
      if (at !== null && at !== undefined) return at;
    }
    throw new Error(`${file}: no text in its data to change`);
  }
  if (file.endsWith(".json")) return run(0, bytes.length);
  const shown = SHOWN.find((text) => bytes.includes(text));
  if (!shown) throw new Error(`${file}: none of ${SHOWN.join(", ")} to change`);
  return bytes.indexOf(shown) + 1;
}

/** Texts the scripts only show or log (the case of their second letter changes nothing else). */
const SHOWN = ["Gifting Console", "deprecated parameters", ": HTTP "];

describe("files whose bytes are not the build's", () => {
  let copy;
  let app;
  let sandbox;
  let browser;

  before(async () => {
    copy = mkdtempSync(path.join(tmpdir(), "gifting-integrity-"));
    // Without the .br and .gz copies: the sandbox sends the file the test changed.
    cpSync(DIST, copy, { recursive: true, filter: (source) => !/\.(br|gz)$/.test(source) });
    app = readdirSync(copy).find((name) => name.startsWith("app-"));
    sandbox = await startSandbox([], { dist: copy });
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await sandbox?.stop();
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  /** What puts back each file changed by the test running now. */
  const restores = [];
  afterEach(() => restores.splice(0).forEach((restore) => restore()));

  /**
   * Changes one byte of `file` (in the code's folder, or boot.js at the top); returns what puts
   * it back (also done after the test).
   */
  function tamper(file) {
    const full = path.join(copy, file === "boot.js" ? "" : app, file);
    const whole = readFileSync(full);
    const changed = Buffer.from(whole);
    changed[letterAt(changed, file)] ^= 0x20;
    writeFileSync(full, changed);
    const restore = () => writeFileSync(full, whole);
    restores.push(restore);
    return restore;
  }

  /** A tab in a browser context of its own: its own cache, so nothing is known from before. */
  const freshTab = (options) => newPage(browser, options);

  describe("in Chromium", () => {
    // A crash screen or an uncaught error fails a test, whatever it expected.
    afterEach(assertNoCrash);

    test("boot.js with a changed byte is refused by the browser: none of it runs", async () => {
      tamper("boot.js");
      const tab = await freshTab();
      const refused = tab.waitForEvent("console", (message) => /integrity/i.test(message.text()) && /boot\.js/.test(message.text()));
      await tab.goto(sandbox.url);
      await refused;
      assert.equal(await tab.evaluate(() => typeof globalThis.giftingCatalog), "undefined", "boot.js did not run");
      assert.equal(await tab.locator("[data-testid=sign-in]").count(), 0);
      await tab.context().close();
    });

    test("the main wasm with a changed byte is refused: the start stops with its message", async () => {
      tamper("gifting-console_bg.wasm");
      const tab = await freshTab();
      await tab.goto(sandbox.url);
      await tab.getByRole("alert").filter({ hasText: "could not start" }).waitFor(VISIBLE);
      assert.equal(await tab.locator("[data-testid=sign-in]").count(), 0, "the console did not start");
      await tab.context().close();
    });

    test("a chunk with a changed byte is refused: its screen could not be downloaded, Try again brings it", async () => {
      const restore = tamper("split_campaigns.wasm");
      const tab = await freshTab();
      await signIn(tab, sandbox.url);
      await tab.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" }).click();
      const panel = tab.locator("main#main").getByTestId("screen-download-failed");
      await panel.waitFor(VISIBLE);
      // Whole again on the server; the browser's cache still holds the copy it refused.
      restore();
      await panel.getByRole("button", { name: "Try again" }).click();
      await tab.getByRole("heading", { level: 1, name: "Campaigns" }).waitFor(VISIBLE);
      await tab.context().close();
    });

    test("a language bundle with a changed byte is not used: the console speaks English", async () => {
      tamper("i18n-de.json");
      const tab = await freshTab({ locale: "de-DE" });
      await tab.goto(sandbox.url);
      await tab.locator("[data-testid=sign-in]", { hasText: "Sign in" }).waitFor(VISIBLE);
      assert.equal(await tab.evaluate(() => document.documentElement.lang), "en");
      await tab.context().close();
    });
  });

  /**
   * `run(page)` in a fresh start of engine `name` (a cache of its own: what a test refused is not
   * kept for the next), with the errors a refused `file` causes expected: Firefox's report of
   * it, which WebDriver BiDi hands over as a page error, and what the console logs of it.
   */
  async function inEngine(name, file, logged, run) {
    const engine = await launchEngine(name);
    try {
      const page = await engine.newPage();
      page.expectErrors(new RegExp(`hashes in the integrity attribute match the content of the subresource at .*/${file.replace(".", "\\.")}`));
      page.expectErrors(logged);
      await run(page);
    } finally {
      await engine.close();
    }
  }

  for (const name of ENGINES) {
    // The glue and the split loader: checked by their modulepreloads, and again by boot.js before
    // it imports the glue (WebKit runs a module its modulepreload refused).
    for (const file of ["gifting-console.js", "__wasm_split.js"]) {
      test(`[${name}] ${file} with a changed byte is refused: the start stops with its message`, async () => {
        tamper(file);
        await inEngine(name, file, /^console\.error: Gifting Console failed to start/, async (page) => {
          await page.goto(sandbox.url);
          await page.waitFor("the start to stop with its message", () =>
            [...document.querySelectorAll("main [role=alert]")].some((alert) => alert.textContent.includes("could not start")),
          );
          assert.equal(await page.eval(() => document.querySelector("[data-testid=sign-in]")), null, `[${name}] the console did not start`);
        });
      });
    }

    // Home's pack: refused at the sign-in's return (it carries it), then taken once whole, past
    // the browser's cache. The split loader logs the refused fetch (a TypeError).
    test(`[${name}] home's pack with a changed byte is refused: could not be downloaded, then Try again signs in`, async () => {
      const restore = tamper("home.pack");
      await inEngine(name, "home.pack", /^console\.error: TypeError/, async (page) => {
        await page.goto(sandbox.url);
        await page.click("[data-testid=sign-in]");
        await page.waitForUrl(/^\/oauth\/authorize\?/);
        await page.click('input[type=radio][name=user][value="admin@example.com"]');
        await page.click("button", "Allow");
        await page.waitForElement("main#main [data-testid=screen-download-failed]");
        restore();
        await page.click("main#main [data-testid=screen-download-failed] button", "Try again");
        await page.waitForElement("[data-testid=summary]");
        await page.waitForElement("[data-testid=current-user] .current-user__name");
      });
    });
  }
});
