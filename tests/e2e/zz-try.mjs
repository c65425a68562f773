import { startSandbox, launchBrowser, newPage, signIn, VISIBLE } from "./harness.mjs";
const sandbox = await startSandbox();
const browser = await launchBrowser();
try {
  for (const [w, h, name] of [[1280, 800, "wide"], [390, 844, "phone"]]) {
    const page = await newPage(browser, { viewport: { width: w, height: h } });
    await signIn(page, sandbox.url);
    for (const path of ["/sends", "/users"]) {
      await page.goto(`${sandbox.url}${path}`);
      await page.locator("main table tbody tr").first().waitFor(VISIBLE);
      await page.screenshot({ path: `/tmp/${name}${path.replace("/", "-")}.png` });
    }
    await page.context().close();
  }
} finally {
  await browser.close();
  await sandbox.stop();
}
