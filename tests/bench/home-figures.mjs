// The home screen's figures at enterprise size, in headless Chromium against the
// release build and the sandbox's large world (100,000 sends over 18 months), at
// `--rate-limit 10`, signed in as an admin. Run by `make bench`. Prints each figure beside its
// budget and exits non-zero when one is over:
//   1. first figures: from the home screen's navigation to the first page's figures on screen,
//      at most 1.5 s;
//   2. the month complete: the walk of this month's and last month's sends (it stops at the
//      first older send) against its floor, the pages it needs ÷ 10 a second, at most 1.1×;
//   3. main-thread work per page read: the page's task time during the walk (DevTools
//      `Performance.getMetrics` TaskDuration) over the pages, at most 20 ms.
// HOME_BENCH_RATE (default 10) changes the rate.

import { installProbes, launchBrowser, newPage, platformGet, sessionToken, signIn, startSandbox } from "../e2e/harness.mjs";

const RATE = Number(process.env.HOME_BENCH_RATE ?? 10);
const BUDGET = { firstMs: 1_500, ratio: 1.1, perPageMs: 20, screens: 4 };

let failed = false;
const line = (ok, text) => {
  failed ||= !ok;
  console.log(`${ok ? "ok  " : "MISS"}  ${text}`);
};

/** The pages the walk needs: up to and including the one holding the first send older than the month before. */
async function pagesNeeded(base, token, offsetMonths) {
  for (let page = 1; ; page += 1) {
    const { body } = await platformGet(base, token, `/api/v3/send?page=${page}&per_page=100`);
    if (body.sends.length < 100 || body.sends.some((s) => s.created_at.slice(0, 7) < offsetMonths)) return page;
  }
}

const sandbox = await startSandbox(["--world", "large", "--rate-limit", String(RATE)]);
const browser = await launchBrowser();
try {
  const page = await newPage(browser, { viewport: { width: 1280, height: 800 } });
  await page.addInitScript(installProbes);
  await signIn(page, sandbox.url);
  const token = await sessionToken(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const taskSeconds = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "TaskDuration").value;

  // A fresh home screen (a reload forgets the walk): its own figures from nothing.
  await page.reload();
  const progress = page.getByTestId("figures-progress");
  const first = await page.waitForFunction(() => /This month:/.test(document.querySelector("[data-testid=figures-progress]")?.textContent ?? "") && performance.now(), null, { timeout: 60_000, polling: "raf" });
  const firstMs = await first.jsonValue();
  line(firstMs <= BUDGET.firstMs, `home: first figures ${firstMs.toFixed(0)} ms after navigation (budget ≤ ${BUDGET.firstMs} ms)`);
  const taskBefore = await taskSeconds();
  const walkStart = await page.evaluate(() => performance.now());
  await progress.getByText(/This month: all [\d,]+ sends read/).waitFor({ timeout: 600_000 });
  await progress.getByText("(reading…)").waitFor({ state: "detached", timeout: 600_000 });
  const walkEnd = await page.evaluate(() => performance.now());
  const taskAfter = await taskSeconds();
  const text = await progress.textContent();

  const { body } = await platformGet(sandbox.url, token, "/api/v3/send?page=1&per_page=1");
  const newest = body.sends[0].created_at;
  const [y, m] = newest.slice(0, 7).split("-").map(Number);
  const before = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, "0")}`;
  const pages = await pagesNeeded(sandbox.url, token, before);
  // The first page was read before the clock started: the rest against its floor.
  const floorMs = (Math.max(pages - 1, 1) / RATE) * 1000;
  const walkMs = walkEnd - walkStart + firstMs;
  const ratio = walkMs / Math.max(floorMs, 1);
  line(ratio <= BUDGET.ratio || walkMs <= 1_000, `home: the two months (${pages} pages of 100) read in ${(walkMs / 1000).toFixed(1)} s, floor ${(floorMs / 1000).toFixed(1)} s at ${RATE}/s: ${ratio.toFixed(2)}× (budget ≤ ${BUDGET.ratio}×) — "${text.trim()}"`);
  // The whole home at enterprise size: at most about four screens of a 1280×800 laptop.
  const tall = await page.evaluate(() => document.documentElement.scrollHeight);
  const screens = tall / (page.viewportSize()?.height ?? 800);
  line(screens <= BUDGET.screens, `home: ${tall} px tall, ${screens.toFixed(1)} screens (budget ≤ ${BUDGET.screens})`);
  const perPage = ((taskAfter - taskBefore) * 1000) / Math.max(pages - 1, 1);
  line(perPage <= BUDGET.perPageMs, `home: main-thread work ${perPage.toFixed(1)} ms per page read (budget ≤ ${BUDGET.perPageMs} ms)`);
} finally {
  await browser.close();
  await sandbox.stop();
}
process.exit(failed ? 1 : 0);
