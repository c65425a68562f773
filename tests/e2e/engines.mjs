// The cross-engine driver layer: one small page API over the three browser engines admins
// use, each from Debian's packages and driven without downloading anything.
//
// - chromium: Debian's Chromium through puppeteer-core (DevTools protocol);
// - firefox:  Debian's Firefox ESR through puppeteer-core (WebDriver BiDi);
// - webkit:   WebKitGTK's MiniBrowser (Safari's engine) through WebKitWebDriver (classic
//             WebDriver: plain HTTP and JSON), under Xvfb since it has no headless mode.
//
// Everything a spec does goes through `EnginePage`: addresses, scripts evaluated in the page,
// real clicks and typing, waiting for a fact. Every wait and every action also checks the page
// for the console's crash screen and for errors recorded in the page (uncaught errors, rejected
// promises, console.error, CSP violations), and fails naming the engine, so a crash is found
// even where a spec's own assertions would pass.

import { spawn } from "node:child_process";
import puppeteer from "puppeteer-core";
import { CHROMIUM, CHROMIUM_ARGS, freePort } from "./harness.mjs";

export const ENGINES = ["chromium", "firefox", "webkit"];

const FIREFOX = "/usr/bin/firefox-esr";
const WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver";
const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const WAIT_MS = 15_000;
const POLL_MS = 50;
const VIEWPORT = { width: 1280, height: 800 };

/**
 * Runs in the page (first thing where the driver can say so, else on the first look after a
 * page load): records what a person would see as a failure in the browser's console.
 */
function installRecorder() {
  if (window.__e2e) return;
  const errors = [];
  window.__e2e = { errors };
  // The message and the stack both: WebKit's stack of a top-level error is only "@".
  addEventListener("error", (e) => errors.push(`pageerror: ${e.message}\n${e.error?.stack ?? ""}`.trim()));
  addEventListener("unhandledrejection", (e) => errors.push(`unhandledrejection: ${e.reason?.stack ?? e.reason}`));
  document.addEventListener("securitypolicyviolation", (e) =>
    errors.push(`csp: ${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`),
  );
  const error = console.error;
  console.error = function (...args) {
    errors.push(`console.error: ${args.map(String).join(" ")}`);
    return error.apply(this, args);
  };
}

/**
 * What the page shows of a failure: the crash screen's text and the errors recorded since the
 * last look. Each error is reported once, so it fails the step it happened in and not every
 * step after it; the crash screen stays, as it does for a person.
 */
function pageHealth() {
  const crash = document.querySelector("[data-testid=crash]");
  return {
    // innerText keeps the screen's line breaks, which textContent runs together.
    crash: crash ? crash.innerText.replace(/\s*\n\s*/g, " / ") : null,
    errors: window.__e2e ? window.__e2e.errors.splice(0) : null,
  };
}

/**
 * Marks the first element matching `selector` whose text (trimmed, spaces collapsed) is
 * `text` (any when `text` is null) and visible, so the driver can click it for real; returns
 * the mark's selector or null. The text is also matched without the parts hidden from screen
 * readers (`aria-hidden`), as a person names it: a sort header reads "Email" beside its arrow.
 */
function markElement(selector, text) {
  const norm = (s) => s.replace(/\s+/g, " ").trim();
  const spoken = (el) => {
    const copy = el.cloneNode(true);
    for (const hidden of copy.querySelectorAll("[aria-hidden=true]")) hidden.remove();
    return norm(copy.textContent);
  };
  const found = [...document.querySelectorAll(selector)].find(
    (el) =>
      (text === null || norm(el.textContent) === text || spoken(el) === text || el.getAttribute("aria-label") === text) &&
      el.getClientRects().length > 0,
  );
  if (!found) return null;
  window.__e2eMarks = (window.__e2eMarks ?? 0) + 1;
  found.setAttribute("data-e2e-mark", String(window.__e2eMarks));
  return `[data-e2e-mark="${window.__e2eMarks}"]`;
}

/** A page (tab) of one engine. Subclasses provide the primitives; the rest is shared. */
class EnginePage {
  constructor(engine) {
    this.engine = engine;
    this.name = engine.name;
    /** Errors a spec causes on purpose (patterns of the recorded text): not failures. */
    this.expected = [];
  }

  /**
   * From now on, errors matching `pattern` (recorded in the page, or reported by the driver) are
   * what the spec caused, not a failure.
   */
  expectErrors(pattern) {
    this.expected.push(pattern);
  }

  /** `errors` but those the spec expects. */
  unexpected(errors) {
    return errors.filter((error) => !this.expected.some((pattern) => pattern.test(error)));
  }

  fail(message) {
    return new Error(`[${this.name}] ${message}`);
  }

  /** A failure the page itself shows (crash screen, recorded errors): never retried. */
  unhealthy(message) {
    const error = this.fail(message);
    // Not enumerable: node's report prints an error's own fields after its message.
    Object.defineProperty(error, "unhealthy", { value: true });
    return error;
  }

  /** Throws when the page shows the crash screen or recorded an error. */
  async check() {
    const health = await this.eval(pageHealth);
    if (health.crash !== null) throw this.unhealthy(`the console crashed: ${health.crash}`);
    if (health.errors === null) {
      await this.eval(installRecorder);
      return;
    }
    const errors = this.unexpected(health.errors);
    if (errors.length > 0) throw this.unhealthy(`errors in the page:\n${errors.join("\n")}`);
  }

  /**
   * `check()` right after an action that may replace the page (a click on a link to another
   * site, a form that redirects): a page being replaced answers no script for a moment
   * ("execution context was destroyed"), which is no failure; the next wait checks again.
   */
  async checkAfterAction() {
    try {
      await this.check();
    } catch (error) {
      if (error.unhealthy) throw error;
    }
  }

  /**
   * Polls `fn(...args)` in the page until it returns something truthy, and returns that.
   * Fails on a crash or page error at once, and after `timeout` with `what` in the message.
   */
  async waitFor(what, fn, ...args) {
    const timeout = typeof args.at(-1) === "object" && args.at(-1)?.timeout ? args.pop().timeout : WAIT_MS;
    const deadline = Date.now() + timeout;
    let last;
    for (;;) {
      try {
        await this.check();
        last = await this.eval(fn, ...args);
        if (last) return last;
      } catch (error) {
        if (error.unhealthy) throw error;
        // A page being replaced (sign-in's redirects) answers nothing for a moment.
        last = error.message;
      }
      if (Date.now() > deadline) throw this.fail(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Waits for an element matching `selector` (with `text`, if given) to be visible. */
  waitForElement(selector, text = null, options = {}) {
    const what = text === null ? selector : `${selector} "${text}"`;
    // The same match as a click's (markElement); the mark it leaves is harmless.
    return this.waitFor(what, markElement, selector, text, options);
  }

  /** Waits until the address's path and query end with `pathAndQuery` (a string or RegExp). */
  waitForUrl(pattern) {
    const source = pattern instanceof RegExp ? pattern.source : null;
    const plain = pattern instanceof RegExp ? null : pattern;
    return this.waitFor(
      `the address ${pattern}`,
      (src, str) => {
        const here = location.pathname + location.search;
        return src === null ? here === str : new RegExp(src).test(here);
      },
      source,
      plain,
    );
  }

  /** Clicks (a real click) the visible element matching `selector` whose text is `text`. */
  async click(selector, text = null) {
    const what = text === null ? selector : `${selector} "${text}"`;
    const mark = await this.waitFor(`${what} to click`, markElement, selector, text);
    await this.clickMarked(mark);
    await this.checkAfterAction();
  }

  /** Replaces the text of the field matching `selector` by typing `text` (real key events). */
  async fill(selector, text) {
    const mark = await this.waitFor(`${selector} to fill`, markElement, selector, null);
    await this.fillMarked(mark, text);
    await this.check();
  }

  /** Chooses `value` in the select matching `selector`, as a person would (input, change). */
  async select(selector, value) {
    await this.waitForElement(selector);
    await this.eval(
      (sel, val) => {
        const select = document.querySelector(sel);
        select.value = val;
        select.dispatchEvent(new Event("input", { bubbles: true }));
        select.dispatchEvent(new Event("change", { bubbles: true }));
      },
      selector,
      value,
    );
    await this.check();
  }

  /** The visible text of every element matching `selector`. */
  texts(selector) {
    return this.eval((sel) => [...document.querySelectorAll(sel)].map((el) => el.textContent.replace(/\s+/g, " ").trim()), selector);
  }

  /** The console's session in this tab's sessionStorage (null when signed out). */
  session() {
    return this.eval(() => JSON.parse(sessionStorage.getItem("gifting-console.session") ?? "null"));
  }
}

// --- Chromium and Firefox: puppeteer-core -------------------------------------------------

class PuppeteerPage extends EnginePage {
  constructor(engine, page) {
    super(engine);
    this.page = page;
    this.driverErrors = [];
    page.on("pageerror", (error) => this.driverErrors.push(String(error?.stack ?? error)));
    page.on("dialog", (dialog) => dialog.accept().catch(() => {}));
  }

  static async open(engine, page) {
    const tab = new PuppeteerPage(engine, page);
    await page.setViewport(VIEWPORT);
    await page.evaluateOnNewDocument(installRecorder);
    return tab;
  }

  async check() {
    // Reported once, as the page's own record is (see pageHealth).
    const errors = this.unexpected(this.driverErrors.splice(0));
    if (errors.length > 0) throw this.unhealthy(`uncaught errors:\n${errors.join("\n")}`);
    await super.check();
  }

  async goto(url) {
    await this.page.goto(url, { waitUntil: "load" });
    await this.check();
  }

  url() {
    return this.page.url();
  }

  eval(fn, ...args) {
    return this.page.evaluate(fn, ...args);
  }

  clickMarked(mark) {
    return this.page.click(mark);
  }

  async fillMarked(mark, text) {
    await this.page.$eval(mark, (el) => {
      el.focus();
      el.select?.();
    });
    await this.page.keyboard.press("Backspace");
    await this.page.type(mark, text);
  }

  press(key) {
    return this.page.keyboard.press(key);
  }

  /** A key pressed with a modifier held (`Control`, `k`). */
  async chord(modifier, key) {
    await this.page.keyboard.down(modifier);
    await this.page.keyboard.press(key);
    await this.page.keyboard.up(modifier);
  }

  async back() {
    await this.page.goBack();
  }

  close() {
    return this.page.close();
  }
}

async function launchPuppeteer(name) {
  const browser =
    name === "chromium"
      ? await puppeteer.launch({
          browser: "chrome",
          executablePath: CHROMIUM,
          headless: true,
          args: CHROMIUM_ARGS.filter((a) => !a.startsWith("--headless")),
        })
      : await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true });
  const engine = {
    name,
    version: await browser.version(),
    async newPage() {
      return PuppeteerPage.open(engine, await browser.newPage());
    },
    close: () => browser.close(),
  };
  return engine;
}

// --- WebKit: classic WebDriver over HTTP --------------------------------------------------

const ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf";
const KEYS = { Escape: "\uE00C", Enter: "\uE007", Tab: "\uE004", ArrowDown: "\uE015", Control: "\uE009" };

class WebDriverPage extends EnginePage {
  constructor(engine, handle) {
    super(engine);
    this.handle = handle;
  }

  /** A command on this tab: the session is switched to it first when another was current. */
  async command(method, path, body) {
    if (this.engine.current !== this.handle) {
      await this.engine.send("POST", "/window", { handle: this.handle });
      this.engine.current = this.handle;
    }
    return this.engine.send(method, path, body);
  }

  async goto(url) {
    await this.command("POST", "/url", { url });
    await this.check();
  }

  url() {
    return this.command("GET", "/url");
  }

  eval(fn, ...args) {
    return this.command("POST", "/execute/sync", { script: `return (${fn}).apply(null, arguments)`, args });
  }

  async element(selector) {
    const found = await this.command("POST", "/element", { using: "css selector", value: selector });
    return found[ELEMENT_KEY];
  }

  async clickMarked(mark) {
    await this.command("POST", `/element/${await this.element(mark)}/click`, {});
  }

  async fillMarked(mark, text) {
    const id = await this.element(mark);
    await this.command("POST", `/element/${id}/clear`, {});
    await this.command("POST", `/element/${id}/value`, { text });
  }

  press(key) {
    const value = KEYS[key] ?? key;
    return this.command("POST", "/actions", {
      actions: [{ type: "key", id: "keyboard", actions: [{ type: "keyDown", value }, { type: "keyUp", value }] }],
    });
  }

  chord(modifier, key) {
    const [held, value] = [KEYS[modifier] ?? modifier, KEYS[key] ?? key];
    const actions = [
      { type: "keyDown", value: held },
      { type: "keyDown", value },
      { type: "keyUp", value },
      { type: "keyUp", value: held },
    ];
    return this.command("POST", "/actions", { actions: [{ type: "key", id: "keyboard", actions }] });
  }

  back() {
    return this.command("POST", "/back", {});
  }

  async close() {
    await this.command("DELETE", "/window");
    this.engine.current = null;
  }
}

async function launchWebKit() {
  const port = await freePort();
  // xvfb-run starts Xvfb and the driver; its own process group, so both stop together.
  const child = spawn("xvfb-run", ["-a", "-s", "-screen 0 1280x900x24", WEBKIT_DRIVER, `--port=${port}`], {
    detached: true,
    stdio: "ignore",
  });
  const kill = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const ready = await fetch(`${base}/status`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      kill();
      throw new Error("[webkit] WebKitWebDriver did not start within 20 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const created = await fetch(`${base}/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      capabilities: {
        alwaysMatch: {
          browserName: "MiniBrowser",
          unhandledPromptBehavior: "accept",
          "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
        },
      },
    }),
  }).then((r) => r.json());
  if (!created.value?.sessionId) {
    kill();
    throw new Error(`[webkit] no WebDriver session: ${JSON.stringify(created)}`);
  }
  const session = `${base}/session/${created.value.sessionId}`;
  const engine = {
    name: "webkit",
    version: created.value.capabilities.browserVersion,
    current: null,
    async send(method, path, body) {
      const response = await fetch(`${session}${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(`[webkit] ${method} ${path}: ${answer.value?.error}: ${answer.value?.message}`);
      return answer.value;
    },
    first: true,
    async newPage() {
      let handle;
      if (engine.first) {
        engine.first = false;
        handle = await engine.send("GET", "/window");
      } else {
        handle = (await engine.send("POST", "/window/new", { type: "tab" })).handle;
      }
      engine.current = null;
      const page = new WebDriverPage(engine, handle);
      await page.command("POST", "/window/rect", VIEWPORT);
      return page;
    },
    async close() {
      await fetch(session, { method: "DELETE" }).catch(() => {});
      kill();
    },
  };
  return engine;
}

/** Starts `name` (one of ENGINES); `close()` it when done. */
export function launchEngine(name) {
  if (name === "webkit") return launchWebKit();
  return launchPuppeteer(name);
}
