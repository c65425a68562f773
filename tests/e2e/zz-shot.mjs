import { startSandbox, launchBrowser, newPage, signIn } from "./harness.mjs";
const sandbox = await startSandbox(["--world", process.env.WORLD || "demo"]);
const browser = await launchBrowser();
for (const [vw, vh, list] of [[1280, 800, [["sends", "/sends", "table.sends-table tbody tr[data-send-id]"], ["users", "/users", "table.users-table tbody tr"]]], [390, 844, [["campaigns-phone", "/campaigns", "main table tbody tr"], ["sends-phone", "/sends", "table.sends-table tbody tr[data-send-id]"]]]]) {
  const page = await newPage(browser, { viewport: { width: vw, height: vh } });
  await signIn(page, sandbox.url);
  for (const [name, path, sel] of list) {
    await page.goto(sandbox.url + path);
    await page.locator(sel).first().waitFor();
    await new Promise((r) => setTimeout(r, 800));
    const info = await page.evaluate((sel) => {
      const rows = [...document.querySelectorAll(sel)];
      const vis = rows.filter((r) => { const b = r.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }).length;
      const first = rows[0].getBoundingClientRect();
      const wide = [...document.querySelectorAll("main *")].filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest(".table-wrap")).slice(0, 5).map((e) => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right));
      return { rows: rows.length, visible: vis, firstTop: Math.round(first.top), rowH: Math.round(first.height), width: document.documentElement.scrollWidth, wide };
    }, sel);
    console.log(name, JSON.stringify(info));
    await page.screenshot({ path: `/tmp/${name}.png` });
  }
  await page.context().close();
}
await browser.close(); process.exit(0);
