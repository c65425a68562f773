// Shared helpers for the browser tests (node --test, ESM).
//
// Each spec file starts its own sandbox (fresh state) on a free loopback port
// and drives Debian's Chromium through playwright-core. Nothing here mocks the
// console or the sandbox: a spec talks to the real release build in dist/.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { after, afterEach, before } from "node:test";
import { chromium } from "playwright-core";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// Honours CARGO_TARGET_DIR like cargo and the Makefile do.
export const SANDBOX_BIN = path.resolve(ROOT, process.env.CARGO_TARGET_DIR || "target", "release/gifting-sandbox");
export const CHROMIUM = "/usr/bin/chromium";

// As root, Chromium needs --no-sandbox; the rest keeps it quiet and offline.
export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

// The release build the servers serve (E2E_DIST: another copy, e.g. while dist/ is rebuilt).
export const DIST = process.env.E2E_DIST || "dist";

export const GATEWAY_BIN = path.resolve(ROOT, process.env.CARGO_TARGET_DIR || "target", "release/gifting-gateway");
// The sandbox's client secret: the one the gateway holds and the browser must never see.
export const CLIENT_SECRET = "sandbox-secret";

const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;
const STDERR_KEEP = 200;

/**
 * Starts one of the release binaries, resolves once it printed its
 * "NAME listening on URL" line, and returns `{url, port, stop}`.
 * `logEnv` names the environment variable that shows its stderr.
 */
async function startServer(bin, args, { env = {}, logEnv } = {}) {
  const name = path.basename(bin);
  if (!existsSync(bin)) {
    throw new Error(`${bin} is missing: run \`make build\` first`);
  }
  const listening = new RegExp(`^${name} listening on (http:\\/\\/\\S+?)\\/?$`);
  const child = spawn(bin, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });

  // Keep the tail of stderr to explain a failed start; always drain both
  // pipes so the server never blocks on a full pipe.
  const stderrTail = [];
  let stderrPartial = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    if (process.env[logEnv]) process.stderr.write(chunk);
    const lines = (stderrPartial + chunk).split("\n");
    stderrPartial = lines.pop();
    stderrTail.push(...lines);
    if (stderrTail.length > STDERR_KEEP) stderrTail.splice(0, stderrTail.length - STDERR_KEEP);
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));

  const url = await new Promise((resolve, reject) => {
    let stdoutPartial = "";
    let found = false;
    const fail = (why) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${name} ${args.join(" ")}: ${why}\n${stderrTail.join("\n")}`));
    };
    const timer = setTimeout(() => fail(`no "listening on" line within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once("error", (err) => fail(`could not start: ${err.message}`));
    child.once("exit", (code, signal) => {
      if (!found) fail(`exited before listening (code ${code}, signal ${signal})`);
    });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      if (found) return;
      const lines = (stdoutPartial + chunk).split("\n");
      stdoutPartial = lines.pop();
      for (const line of lines) {
        const match = listening.exec(line.trim());
        if (match) {
          found = true;
          clearTimeout(timer);
          resolve(match[1]);
          return;
        }
      }
    });
  });

  let stopping;
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid,
    /** The lines the server wrote to stderr (the last 200). */
    stderr: () => [...stderrTail],
    /** Sends `signal` (SIGKILL: a crash, no drain) and resolves once the process exited. */
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
    /** Stops the server (SIGTERM, then SIGKILL after a grace period). */
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}

/**
 * Starts target/release/gifting-sandbox on 127.0.0.1:0 serving dist/ (or the build in `dist`)
 * with the test hooks on, and resolves once it printed its "listening on" line.
 * Set E2E_SANDBOX_LOG=1 to see the sandbox's request log.
 * @returns {Promise<{url: string, port: number, stop: () => Promise<void>, stats: () => Promise<object>}>}
 */
export async function startSandbox(extraArgs = [], { dist = DIST } = {}) {
  const args = ["--addr", "127.0.0.1:0", "--static", dist, "--test-hooks", ...extraArgs];
  const server = await startServer(SANDBOX_BIN, args, { logEnv: "E2E_SANDBOX_LOG" });
  /** A POST to a test hook; its JSON answer, if any. */
  async function hook(path, body) {
    const init = { method: "POST", headers: { ...TEST_HOOKS } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(`${server.url}/__sandbox${path}`, init);
    if (!response.ok) throw new Error(`POST /__sandbox${path}: HTTP ${response.status} ${await response.text()}`);
    return response.status === 204 ? null : response.json();
  }
  return {
    ...server,
    /** The sandbox's test counters (GET /__sandbox/stats, needs --test-hooks). */
    async stats() {
      const response = await fetch(`${server.url}/__sandbox/stats`, { headers: TEST_HOOKS });
      if (!response.ok) throw new Error(`GET /__sandbox/stats: HTTP ${response.status}`);
      return response.json();
    },
    /**
     * Ends access tokens now, as their lifetime running out would (refresh tokens live on):
     * every live one, or only `token`. Resolves to how many ended.
     */
    async expireTokens(token) {
      return (await hook("/tokens/expire", token === undefined ? undefined : { token })).expired;
    },
    /** Every token has its whole `--rate-limit` allowance again, now; ends `exhaustRateLimit`. */
    resetRateLimit: () => hook("/rate-limit/reset"),
    /** Every /api request is refused 429, as over `--rate-limit`, until `resetRateLimit`. */
    exhaustRateLimit: () => hook("/rate-limit/exhaust"),
  };
}

/** The header the sandbox's test hooks need (a cross-site form cannot send it). */
export const TEST_HOOKS = { "X-Sandbox-Test": "1" };

/** A loopback port nothing listens on right now (for a server whose address must be known first). */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * target/release/gifting-gateway on 127.0.0.1:`port` serving dist/ in front of the platform at
 * `platformUrl`, with the sandbox's client secret in its environment and `args` after the usual
 * flags; resolves once it listens. Set E2E_GATEWAY_LOG=1 to see its log.
 */
export function startGateway({ port, platformUrl, args = [], env = {} }) {
  return startServer(
    GATEWAY_BIN,
    [
      "--addr", `127.0.0.1:${port}`,
      "--static", DIST,
      "--platform-url", platformUrl,
      "--client-id", "gifting-console",
      "--image-origin", platformUrl,
      ...args,
    ],
    { env: { GATEWAY_CLIENT_SECRET: CLIENT_SECRET, ...env }, logEnv: "E2E_GATEWAY_LOG" },
  );
}

/**
 * The production topology of `make run-gateway`: the sandbox as a platform that demands the
 * client secret and sends no CORS headers, and target/release/gifting-gateway serving dist/
 * in front of it with the secret in its environment. `sandboxArgs` go to the sandbox,
 * `gatewayArgs` to the gateway.
 * Set E2E_GATEWAY_LOG=1 to see the gateway's log.
 */
export async function startGatewayTopology(sandboxArgs = [], gatewayArgs = []) {
  const port = await freePort();
  const consoleUrl = `http://127.0.0.1:${port}`;
  const sandbox = await startSandbox([
    "--require-client-secret",
    "--redirect-uri",
    `${consoleUrl}/auth/callback`,
    ...sandboxArgs,
  ]);
  const gateway = await startGateway({ port, platformUrl: sandbox.url, args: gatewayArgs }).catch(async (error) => {
    await sandbox.stop();
    throw error;
  });
  return { sandbox, gateway };
}

// How often `waitFor` asks again: the one polling interval of the specs.
const POLL_MS = 50;

// How long a spec waits for a fact unless it says otherwise.
const WAIT_MS = 15_000;

/** The options of a locator's `waitFor` for an element to show, within the specs' usual wait. */
export const VISIBLE = Object.freeze({ state: "visible", timeout: WAIT_MS });

/**
 * Waits for a fact instead of a fixed time: calls `check` until it returns something truthy
 * (and returns that), asking again every POLL_MS; a check that throws (an assertion not yet
 * true) counts as not yet. Fails after `timeout` ms, naming `what` (text, or a function giving
 * it) and the last error.
 */
export async function waitFor(check, { timeout = WAIT_MS, what = "the condition" } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    let last;
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const named = typeof what === "function" ? what() : what;
      throw new Error(`timed out after ${timeout} ms waiting for ${named}${last ? `: ${last.message}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Resolves once `page` has drawn two animation frames and run a task after this call: what
 * it was about to paint (an answer just taken in, the second frame of a long table) is painted.
 */
export function painted(page) {
  return page.evaluate(
    () =>
      new Promise((done) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const channel = new MessageChannel();
            channel.port1.onmessage = () => done();
            channel.port2.postMessage(null);
          }),
        ),
      ),
  );
}

/**
 * Follows `page`'s requests from now on. `quiet()` then waits until none is in flight, and
 * none started or ended while the page painted twice: every answer the page asked for so far
 * has come and been painted, late ones included.
 */
export function watchRequests(page) {
  const inFlight = new Set();
  let changes = 0;
  page.on("request", (request) => {
    inFlight.add(request);
    changes++;
  });
  const end = (request) => {
    inFlight.delete(request);
    changes++;
  };
  page.on("requestfinished", end);
  page.on("requestfailed", end);
  return {
    quiet: ({ timeout = 15_000 } = {}) =>
      waitFor(
        async () => {
          if (inFlight.size > 0) return false;
          const before = changes;
          await painted(page);
          return inFlight.size === 0 && changes === before;
        },
        { timeout, what: () => `no request in flight (still out: ${[...inFlight].map((r) => r.url()).join(", ")})` },
      ),
  };
}

/** Resolves once `request` has its whole answer, or failed (the page aborted it, say). */
export async function requestDone(request) {
  const response = await request.response();
  if (response) await response.finished();
}

let laterRequests = 0;

/**
 * Has `page` make a request now and resolves once it was seen here. Every request the page
 * made before it was seen too (its `request` event, and its route handler called), so a
 * "nothing was sent" check reads its record after this rather than after a pause.
 */
export async function laterRequest(page) {
  const marker = `/config.json?e2e-later=${++laterRequests}`;
  const seen = page.waitForRequest((request) => request.url().endsWith(marker));
  try {
    await page.evaluate((url) => fetch(url, { cache: "no-store" }).then((r) => r.arrayBuffer()), marker);
  } catch (error) {
    seen.catch(() => {});
    throw error;
  }
  await seen;
}

/** Launches Debian's headless Chromium. */
export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Opens a page in a fresh context (own cookies and sessionStorage) that
 * records every browser console error, uncaught page error and CSP violation
 * in `page.errors` as `{kind: "console" | "pageerror" | "csp", text}`.
 */
export async function newPage(browser, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  return openTab(context);
}

/**
 * Another tab in the same browser context (shared cookies, separate sessionStorage), recording
 * errors as `newPage` does.
 */
export async function openTab(context) {
  return watchTab(await context.newPage());
}

/**
 * A tab that `page` opens itself (`window.open`, as a link with `rel=opener` would): the browser
 * copies `page`'s sessionStorage into it, so it holds the same session and the key that tabs of
 * one sign-in share (src/auth/tabs.rs). It starts blank; `goto` it. A tab opened any other way
 * (a middle click, `target=_blank`, `openTab`) starts with empty sessionStorage, signed out.
 */
export async function openCopy(page) {
  const [tab] = await Promise.all([
    page.context().waitForEvent("page"),
    page.evaluate(() => {
      window.open("about:blank");
    }),
  ]);
  return watchTab(tab);
}

async function watchTab(page) {
  openPages.add(page);
  page.once("close", () => openPages.delete(page));
  page.errors = [];
  page.on("console", (message) => {
    if (message.type() === "error") page.errors.push({ kind: "console", text: message.text() });
  });
  page.on("pageerror", (error) => {
    page.errors.push({ kind: "pageerror", text: String(error?.stack ?? error) });
  });
  // Reported through a binding: the init script runs before any page script
  // and is not itself subject to the page's CSP.
  await page.exposeBinding("__reportCspViolation", (_source, violation) => {
    page.errors.push({ kind: "csp", text: JSON.stringify(violation) });
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__reportCspViolation({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: event.sourceFile,
        line: event.lineNumber,
        sample: event.sample,
      });
    });
  });
  return page;
}

/** Every page `openTab` opened and nobody closed yet: each is checked after every test. */
const openPages = new Set();

/**
 * Fails when any open page shows the console's crash screen or recorded an uncaught error,
 * whatever the test itself asserted: a crash is a failure even where the test's own facts held.
 * Run after every test of a `consoleFixture`.
 */
export async function assertNoCrash() {
  const problems = [];
  for (const page of openPages) {
    const uncaught = errorsOf(page, ["pageerror"]).map((e) => e.text);
    const crash = await page
      .locator("[data-testid=crash]")
      .textContent({ timeout: 1 })
      .catch(() => null);
    if (crash !== null) problems.push(`${page.url()}: the console crashed: ${crash}`);
    if (uncaught.length > 0) problems.push(`${page.url()}: uncaught errors:\n${uncaught.join("\n")}`);
    // Reported once: the next test starts from a clean record.
    page.errors = page.errors.filter((e) => e.kind !== "pageerror");
  }
  if (problems.length > 0) throw new Error(problems.join("\n"));
}

/** The recorded errors of the given kinds (default: all). */
export function errorsOf(page, kinds = ["console", "pageerror", "csp"]) {
  return page.errors.filter((error) => kinds.includes(error.kind));
}

/**
 * Signs in through the sandbox's consent page and waits until the console
 * shows the signed-in user.
 */
export async function signIn(page, url, email = "admin@example.com") {
  await allowSignIn(page, url, email);
  await page.locator("[data-testid=current-user]").waitFor({ state: "visible" });
}

/** The steps of [`signIn`] up to the consent page's Allow, without waiting for the console. */
export async function allowSignIn(page, url, email = "admin@example.com") {
  await page.goto(url);
  // By its test id: the button's words are in the browser's language.
  await page.locator("[data-testid=sign-in]").click();
  await page.waitForURL(/\/oauth\/authorize/);
  await page.locator(`input[type=radio][name=user][value="${email}"]`).check();
  await page.getByRole("button", { name: "Allow", exact: true }).click();
}

export const SESSION_KEY = "gifting-console.session";

/**
 * Home has read this month's sends for its figures (a page not on home is taken as read). Home
 * starts that walk at sign-in and it goes on as a job when the admin leaves home: a test that
 * counts the sends requests of another screen, or the platform's allowance, waits for it first.
 */
export async function homeFiguresRead(page, timeout = 30_000) {
  await page.waitForFunction(() => {
    if (location.pathname !== "/") return true;
    const progress = document.querySelector("[data-testid=figures-progress]")?.textContent ?? "";
    return progress.includes("This month:") && !progress.includes("reading…");
  }, null, { timeout });
}

/**
 * The access tokens' lifetime runs out now, as waiting it out would have it: the sandbox ends
 * every live access token (refresh tokens live on), and the session each of `pages` keeps in
 * sessionStorage says it expired now, so the console finds it expired when it next reads it
 * (a reload, a new document).
 */
export async function expireSession(sandbox, pages = []) {
  // A request of home's walk still out when the platform expires the tokens would start a
  // refresh of its own in the middle of the test's steps.
  for (const page of pages) await homeFiguresRead(page);
  await sandbox.expireTokens();
  for (const page of pages) {
    await page.evaluate((key) => {
      const session = JSON.parse(sessionStorage.getItem(key) ?? "null");
      if (!session) return;
      const now = Date.now();
      session.expires_at_ms = Math.min(session.expires_at_ms, now);
      session.refresh_at_ms = Math.min(session.refresh_at_ms, now);
      sessionStorage.setItem(key, JSON.stringify(session));
    }, SESSION_KEY);
  }
}

/** The access token the signed-in console keeps in sessionStorage. */
export async function sessionToken(page) {
  const token = await page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? "null")?.access_token, SESSION_KEY);
  if (!token) throw new Error("the console keeps no session in sessionStorage");
  return token;
}

/**
 * A GET to the sandbox's API from node as the signed-in user, returning `{status, body}`.
 * Under `--fault-rate` the injector hits node's requests too, so a 5xx, a 429 or a cut
 * connection is asked again (up to 30 times); any other answer is returned as it is.
 */
export async function platformGet(base, token, path) {
  let last;
  for (let attempt = 0; attempt < 30; attempt++) {
    try {
      const response = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
      if (response.status !== 429 && response.status < 500) {
        return { status: response.status, body: await response.json() };
      }
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`GET ${path} kept failing: ${last}`);
}

/**
 * The console renews an expired access token by itself: the platform ends `page`'s tokens (as
 * if their lifetime ran out), `page` opens `${url}/teams`, and the teams table shows with a new
 * access token, after a refresh that did not fail and without a second sign-in. `visible` is
 * the spec's wait for the table.
 */
export async function assertSilentRefresh(sandbox, page, url, visible) {
  const before = await sessionToken(page);
  const refreshesBefore = (await sandbox.stats()).token_refreshes;
  await expireSession(sandbox, [page]);
  assert.equal((await platformGet(sandbox.url, before, "/api/v3/me")).status, 401, "the old token expired");
  await page.goto(`${url}/teams`);
  await page.locator("main#main table tbody tr").first().waitFor(visible);
  assert.notEqual(await sessionToken(page), before, "a new access token");
  const stats = await sandbox.stats();
  assert.ok(stats.token_refreshes > refreshesBefore, "the console refreshed");
  assert.equal(stats.token_refresh_failures, 0);
  assert.equal(stats.authorization_codes_exchanged, 1, "no second sign-in");
}

/**
 * Money as the console must show it in `page`'s browser locale: `Intl.NumberFormat`'s currency
 * style over the exact decimal text (a string, so nothing goes through a float).
 */
export function localMoney(page, currency, decimalText) {
  return page.evaluate(
    ([code, text]) => new Intl.NumberFormat(navigator.language, { style: "currency", currency: code }).format(text),
    [currency, String(decimalText)],
  );
}

/** Browser errors other than failed loads (which tests cause on purpose with bad answers). */
export function unexpectedErrors(page) {
  return errorsOf(page).filter((e) => !(e.kind === "console" && /Failed to load resource/.test(e.text)));
}

/**
 * Signs in as `email` (admin@example.com by default) in a page of a fresh context (own
 * cookies and sessionStorage): for a test that needs a session of its own beside, or
 * instead of, the fixture's page.
 */
export async function signedInPage(browser, url, email) {
  const page = await newPage(browser);
  await signIn(page, url, email);
  return page;
}

/**
 * The usual setup of a spec, as `before`/`after` hooks of the calling `describe`: a fresh
 * sandbox (started with `sandboxArgs`), a browser, and a page (in a context made with
 * `contextOptions`) that records every dialog in `page.dialogs` (a script that ran from
 * platform text would open one; the browser's leave-page question is counted in
 * `page.beforeUnloads` and accepted), signed in as admin@example.com unless `signedIn` is false.
 * Read its fields inside hooks and tests: `const env = consoleFixture();` then `env.page`,
 * `env.sandbox.url`, and `env.token`, the access token the sign-in got (for node's own
 * calls to the platform).
 *
 * Variants: `page: false` for specs whose tests each open their own pages (`env.browser`);
 * `gateway: true` for the topology of `make run-gateway` (`startGatewayTopology`, the gateway
 * started with `gatewayArgs` too), where the console is served at `env.gateway.url` (and
 * signed in there) and the platform is at `env.sandbox.url`.
 */
export function consoleFixture({ sandboxArgs = [], gatewayArgs = [], signedIn = true, page = true, gateway = false, contextOptions = {} } = {}) {
  const env = {};
  before(async () => {
    if (gateway) Object.assign(env, await startGatewayTopology(sandboxArgs, gatewayArgs));
    else env.sandbox = await startSandbox(sandboxArgs);
    env.browser = await launchBrowser();
    if (!page) return;
    env.page = await newPage(env.browser, contextOptions);
    env.page.dialogs = [];
    env.page.beforeUnloads = 0;
    env.page.on("dialog", (dialog) => {
      // The browser's "leave this page?" (a form with unsaved changes) is the console asking,
      // not a script: it is counted apart and accepted, so the navigation goes on.
      if (dialog.type() === "beforeunload") {
        env.page.beforeUnloads += 1;
        dialog.accept().catch(() => {});
        return;
      }
      env.page.dialogs.push(dialog.message());
      dialog.dismiss().catch(() => {});
    });
    if (signedIn) {
      await signIn(env.page, (env.gateway ?? env.sandbox).url);
      env.token = await sessionToken(env.page);
    }
  });
  afterEach(assertNoCrash);
  after(async () => {
    await env.browser?.close();
    await env.gateway?.stop();
    await env.sandbox?.stop();
  });
  return env;
}

/** Every SCIM user of the platform, a page of 100 at a time, read with `token`. */
export async function scimUsers(base, token) {
  const users = [];
  for (let start = 1; ; start += 100) {
    const { status, body } = await platformGet(base, token, `/api/scim/v2/Users?startIndex=${start}&count=100`);
    if (status !== 200) throw new Error(`SCIM list: ${status}`);
    users.push(...body.Resources);
    if (body.Resources.length === 0 || users.length >= body.totalResults) return users;
  }
}

/**
 * The console's order of text a list sorts by (src/components/sort.rs `by_text`): the
 * language's collation with numbers by value, letters alone (case and accents apart), then
 * exactly.
 */
const COLLATOR = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
export function byText(a, b) {
  return COLLATOR.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The median of a list of numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** axe-core's serious and critical findings on the page as it is now, one line each. */
export async function seriousAxeViolations(page) {
  const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  return page.evaluate(async () => {
    const result = await globalThis.axe.run(document, { resultTypes: ["violations"] });
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/**
 * For benches, passed to `page.addInitScript`: runs before the page's scripts, keeps the wasm
 * memories the glue instantiates (`window.__wasmMemories`) and records Chromium's long tasks
 * (`window.__longTasks`) and Event Timing entries of 16 ms or more (`window.__events`).
 */
export function installProbes() {
  window.__wasmMemories = [];
  const keep = (result) => {
    const instance = result.instance ?? result;
    for (const value of Object.values(instance.exports ?? {})) {
      if (value instanceof WebAssembly.Memory && !window.__wasmMemories.includes(value)) window.__wasmMemories.push(value);
    }
    return result;
  };
  for (const name of ["instantiate", "instantiateStreaming"]) {
    const original = WebAssembly[name];
    WebAssembly[name] = (...args) => original.apply(WebAssembly, args).then(keep);
  }
  window.__longTasks = [];
  window.__events = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__events.push({ name: e.name, start: e.startTime, duration: e.duration });
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
}

/**
 * The page's memory after a garbage collection, in bytes: its wasm memories (recorded by
 * `installProbes`) and the JS heap in use (DevTools `Performance.getMetrics`), and its DOM nodes.
 */
export async function pageMemory(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("Performance.enable");
  const metrics = Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  const wasm = await page.evaluate(() => window.__wasmMemories.reduce((s, m) => s + m.buffer.byteLength, 0));
  return { wasm, js: metrics.JSHeapUsedSize, nodes: metrics.Nodes };
}

/**
 * The rows of a CSV file as the console writes it (RFC 4180: CRLF rows, quoted fields with
 * doubled quotes and line breaks); fails unless the file ends with CRLF.
 */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field + row.join("") !== "") throw new Error("the CSV file does not end with CRLF");
  return rows;
}
