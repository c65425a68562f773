// Lighthouse 13 (issue 16): performance score and cumulative layout shift of the signed-out page,
// /sends and /catalog signed in, desktop preset, no throttling, against the sandbox on loopback.
// Run by `make bench` after the release build; exits 1 when a page scores under 90 or shifts
// more than 0.05.
//
// Lighthouse opens each page in a tab of its own, whose sessionStorage is empty. A tab signed in
// beforehand stays open beside it, and a new tab of the console joins the session of an open
// one (BroadcastChannel, issue 15): so the audited tabs are signed in as an admin's would be.

import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import * as chromeLauncher from "chrome-launcher";
import { chromium } from "playwright-core";
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

/** Audits `url`; with `api`, checks the page asked the platform for it (so it was signed in). */
async function audit(port, url, api) {
  const result = await lighthouse(url, { ...FLAGS, port }, desktopConfig);
  const { lhr } = result;
  const requested = (lhr.audits["network-requests"]?.details?.items ?? []).map((item) => new URL(item.url).pathname);
  const signedIn = api ? requested.some((path) => path.startsWith(api)) : true;
  const lcp = lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? "";
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    cls: lhr.audits["cumulative-layout-shift"].numericValue,
    lcpMs: lhr.audits["largest-contentful-paint"].numericValue,
    lcp: lcp.slice(0, 60),
    errors: lhr.runtimeError?.message ?? (signedIn ? undefined : `no request to ${api}: the page was not signed in`),
  };
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
  for (const [path, api] of [["/sends", "/api/v3/send"], ["/catalog", "/api/v3/marketplace"]]) {
    rows.push([`${path} signed in`, await audit(chrome.port, `${sandbox.url}${path}`, api)]);
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
}
process.exit(failed ? 1 : 0);
