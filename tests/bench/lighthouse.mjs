// Lighthouse 13: performance score and cumulative layout shift of the signed-out page,
// /sends and /catalog signed in, desktop preset, no throttling, against the sandbox on loopback.
// Run by `make bench` after the release build; exits 1 when a page scores under 90 or shifts
// more than 0.05.
//
// A tab of its own, whose sessionStorage is empty, is signed out: the console hands no session to
// a tab that cannot prove it belongs to one sign-in (src/auth/tabs.rs). So a tab signed in
// beforehand opens each audited tab itself (window.open, as a link with rel=opener does): the
// browser copies its sessionStorage, the session and the key of the sign-in's tabs, into it, and
// Lighthouse audits that tab, signed in as an admin's would be (the script checks it is).

import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import * as chromeLauncher from "chrome-launcher";
import { chromium } from "playwright-core";
import puppeteer from "puppeteer-core";
import { CHROMIUM, CHROMIUM_ARGS, signIn, startSandbox } from "../e2e/harness.mjs";

const TARGET_SCORE = 90;
const TARGET_CLS = 0.05;

const FLAGS = {
  output: "json",
  logLevel: "error",
  onlyCategories: ["performance"],
  // Loopback as it is: the figures say what the console does, not a simulated network.
  throttlingMethod: "provided",
  // Keep the signed-in tab's session (and the origin's data) between audits.
  disableStorageReset: true,
};

/**
 * Audits `url` in a tab of its own, or in `page` (a puppeteer page) when given; with `api`, checks
 * the page asked the platform for it (so it was signed in).
 */
async function audit(port, url, api, page) {
  const result = await lighthouse(url, { ...FLAGS, port }, desktopConfig, page);
  const { lhr } = result;
  const requested = (lhr.audits["network-requests"]?.details?.items ?? []).map((item) => new URL(item.url).pathname);
  const signedIn = api ? requested.some((path) => path.startsWith(api)) : true;
  const lcp = lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? "";
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    cls: lhr.audits["cumulative-layout-shift"].numericValue,
    lcpMs: lhr.audits["largest-contentful-paint"].numericValue,
    lcp: lcp.slice(0, 60),
    // What moved, biggest first: said on a miss, so the shift can be found.
    shifts: (lhr.audits["layout-shifts"]?.details?.items ?? []).map(
      (item) => `${(item.score ?? 0).toFixed(3)} ${(item.node?.snippet ?? "").slice(0, 100)}`,
    ),
    errors: lhr.runtimeError?.message ?? (signedIn ? undefined : `no request to ${api}: the page was not signed in`),
  };
}

/**
 * A tab that the signed-in playwright page `keeper` opens with window.open (so it holds a copy
 * of the keeper's sessionStorage), as a puppeteer page of `browser` for Lighthouse.
 */
async function openedBy(keeper, browser) {
  const before = new Set(browser.targets());
  const [target] = await Promise.all([
    browser.waitForTarget((t) => t.type() === "page" && !before.has(t)),
    keeper.evaluate(() => {
      window.open("about:blank");
    }),
  ]);
  return target.page();
}

const sandbox = await startSandbox();
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
});
const rows = [];
try {
  rows.push(["signed out", await audit(chrome.port, `${sandbox.url}/`)]);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const keeper = await browser.contexts()[0].newPage();
  await signIn(keeper, sandbox.url);
  const pages = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
  for (const [path, api] of [["/sends", "/api/v3/send"], ["/catalog", "/api/v3/marketplace"]]) {
    const tab = await openedBy(keeper, pages);
    rows.push([`${path} signed in`, await audit(chrome.port, `${sandbox.url}${path}`, api, tab)]);
    await tab.close();
  }
} finally {
  await chrome.kill();
  await sandbox.stop();
}

let failed = false;
console.log(`Lighthouse 13, desktop preset, no throttling (targets: performance >= ${TARGET_SCORE}, CLS <= ${TARGET_CLS})`);
for (const [name, r] of rows) {
  const ok = r.score >= TARGET_SCORE && r.cls <= TARGET_CLS && !r.errors;
  failed ||= !ok;
  console.log(
    `  ${name.padEnd(20)} performance ${String(r.score).padStart(3)}   CLS ${r.cls.toFixed(3)}   ` +
      `LCP ${r.lcpMs.toFixed(0)} ms (${r.lcp})${r.errors ? `   error: ${r.errors}` : ""}   ${ok ? "ok" : "MISSED"}`,
  );
  if (r.cls > TARGET_CLS) for (const shift of r.shifts) console.log(`      shifted: ${shift}`);
}
process.exit(failed ? 1 : 0);
