// Sends screen speed, in headless Chromium against the release build and the sandbox on
// loopback, signed in (run by `make bench` after the release build):
//   1. navigation → first sends row drawn, at per_page 100 (target ≤ 250 ms)
//   2. page change (Next / Previous) → the new page's rows drawn, at per_page 100
//      (target ≤ 50 ms). The screen fetches the pages next to the one shown ahead of time,
//      so this is the usual case of paging through the list.
//   3. the same for a page that was not fetched ahead (First → Last right after loading),
//      which waits for the platform's answer on loopback (target ≤ 80 ms).
// Each is the median of 10 runs after one warm-up. "Drawn", the figure held to the targets, is
// when the frame that shows the new rows has its style, layout and paint done on the main
// thread (a message posted from that frame's animation callback runs after them): the time an
// admin waits for the pixels. Printed beside it: when the first new row was in the DOM, and
// "visible", the start of that frame. Exits non-zero on a miss.
import os from "node:os";
import { launchBrowser, newPage, signIn, startSandbox, median } from "../e2e/harness.mjs";

const RUNS = 10;
const TARGET_FIRST_ROW_MS = 250;
const TARGET_PAGE_CHANGE_MS = 50;
const TARGET_PAGE_CHANGE_COLD_MS = 80;

const fmt = (ms) => `${ms.toFixed(1)} ms`;

// Runs in the page before any of its scripts. `window.__frameTimes(cb)` calls `cb(painted,
// drawn)`: when the next frame starts and when its style, layout and paint are done. Then it
// notes when the first sends row is in the DOM and those two times, from navigation start.
function installProbes() {
  window.__frameTimes = (cb) =>
    requestAnimationFrame(() => {
      const painted = performance.now();
      const channel = new MessageChannel();
      channel.port1.onmessage = () => cb(painted, performance.now());
      channel.port2.postMessage(0);
    });
  const found = () => document.querySelector("tbody tr[data-send-id]");
  const observer = new MutationObserver(() => {
    if (!found()) return;
    observer.disconnect();
    const inDom = performance.now();
    window.__frameTimes((painted, drawn) => {
      window.__firstRow = { inDom, painted, drawn };
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

// In the page: clicks a pager link (focused first, as a pointer or the keyboard leaves it) and
// resolves with the times until the new first row is in the DOM, painted and drawn.
function timePageChange(linkName) {
  return new Promise((resolve, reject) => {
    const first = () => document.querySelector("tbody tr[data-send-id]");
    const before = first()?.dataset.sendId;
    const link = [...document.querySelectorAll("nav.pager a")].find((a) => a.textContent.trim() === linkName);
    if (!link) return reject(new Error(`no "${linkName}" link`));
    const timer = setTimeout(() => reject(new Error("the page did not change within 10 s")), 10_000);
    const observer = new MutationObserver(() => {
      if (first()?.dataset.sendId === before || !first()) return;
      observer.disconnect();
      const inDom = performance.now();
      window.__frameTimes((painted, drawn) => {
        clearTimeout(timer);
        resolve({ inDom: inDom - start, painted: painted - start, drawn: drawn - start });
      });
    });
    observer.observe(document.querySelector("main"), { childList: true, subtree: true });
    // A click or Enter leaves the focus on the link (it stays there across the page change, the
    // pager being mounted once): whatever that costs is part of the page change.
    link.focus();
    const start = performance.now();
    link.click();
  });
}

const sandbox = await startSandbox();
const browser = await launchBrowser();
let failed = false;
try {
  const page = await newPage(browser);
  await page.addInitScript(installProbes);
  await signIn(page, sandbox.url);
  const url = `${sandbox.url}/sends?per_page=100`;

  const firstRow = [];
  for (let run = 0; run <= RUNS; run++) {
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(() => window.__firstRow, null, { timeout: 15_000 });
    const t = await page.evaluate(() => window.__firstRow);
    if (run > 0) firstRow.push(t); // run 0 warms the HTTP cache and the wasm compile cache
  }
  const rowCount = await page.locator("tbody tr[data-send-id]").count();
  if (rowCount !== 100) throw new Error(`expected 100 rows at per_page 100, saw ${rowCount}`);

  const pageChange = [];
  for (let run = 0; run <= RUNS; run++) {
    // Alternate so every change loads a page that is not on screen.
    const t = await page.evaluate(timePageChange, run % 2 === 0 ? "Next" : "Previous");
    if (run > 0) pageChange.push(t);
    await page.waitForTimeout(150); // reading time: the neighbours are fetched meanwhile
  }
  // Cold: page 1 has just loaded (only page 2 is fetched ahead), then straight to the last page.
  const cold = [];
  for (let run = 0; run <= RUNS; run++) {
    await page.goto(url, { waitUntil: "commit" });
    await page.waitForFunction(() => window.__firstRow, null, { timeout: 15_000 });
    await page.waitForTimeout(150); // let the prefetch of page 2 finish, as a reading admin would
    const t = await page.evaluate(timePageChange, "Last");
    if (run > 0) cold.push(t);
  }
  if (page.errors.length) throw new Error(`page errors: ${JSON.stringify(page.errors)}`);

  const report = (label, samples, target) => {
    const painted = median(samples.map((s) => s.painted));
    const inDom = median(samples.map((s) => s.inDom));
    const drawn = median(samples.map((s) => s.drawn));
    const ok = drawn <= target;
    failed ||= !ok;
    console.log(
      `${ok ? "ok  " : "MISS"}  ${label}: median ${fmt(drawn)} (target ≤ ${target} ms; in the DOM at ${fmt(inDom)}; ` +
        `visible at ${fmt(painted)}; ` +
        `runs ${samples.map((s) => Math.round(s.drawn)).join(", ")})`,
    );
  };
  // Timings on a shared machine depend on what else runs: say so next to the figures.
  const load = os.loadavg().map((l) => l.toFixed(2)).join(" ");
  console.log(`machine: ${os.cpus().length} CPUs, load average ${load} (1/5/15 min)`);
  report("sends, navigation → first of 100 rows drawn", firstRow, TARGET_FIRST_ROW_MS);
  report("sends, page change at 100 rows → new rows drawn (next/previous, fetched ahead)", pageChange, TARGET_PAGE_CHANGE_MS);
  report("sends, page change at 100 rows → new rows drawn (page not fetched ahead)", cold, TARGET_PAGE_CHANGE_COLD_MS);
} finally {
  await browser.close();
  await sandbox.stop();
}
process.exit(failed ? 1 : 0);
