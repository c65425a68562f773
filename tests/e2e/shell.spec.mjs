// The console loads from the sandbox, renders its shell under the
// strict CSP without errors, and a broken /config.json gets a screen that
// names the offending field instead of a blank page.

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { ROOT, VISIBLE, consoleFixture, errorsOf, newPage } from "./harness.mjs";

/**
 * The attributes of every `<name …>` tag in `html`, as objects. The release build minifies
 * index.html (quotes dropped where they can be, attributes in any order), so the tests read
 * attributes rather than match markup.
 */
function tagsOf(html, name) {
  return [...html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, "gi"))].map(([, attributes]) =>
    Object.fromEntries(
      [...attributes.matchAll(/([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)].map(([, key, a, b, c]) => [
        key.toLowerCase(),
        a ?? b ?? c ?? "",
      ]),
    ),
  );
}

describe("console shell", () => {
  const env = consoleFixture({ page: false });

  /**
   * Opens the console with `body` (and `status`) as its config.json and waits for the
   * config-error screen, which must come with no uncaught error and no CSP violation.
   * Returns what the screen says and its role.
   */
  async function configErrorScreen(body, status = 200) {
    const page = await newPage(env.browser);
    await page.route("**/config.json", (route) =>
      route.fulfill({ status, contentType: "application/json", body }),
    );
    await page.goto(env.sandbox.url);
    const screen = page.locator("[data-testid=config-error]");
    await screen.waitFor(VISIBLE);
    const shown = { text: await screen.innerText(), role: await screen.getAttribute("role") };
    assert.deepEqual(errorsOf(page, ["pageerror", "csp"]), []);
    await page.context().close();
    return shown;
  }

  test("a browser without what the console needs is told so plainly, and nothing starts", async () => {
    const page = await newPage(env.browser);
    // As on a plain-http address other than this machine, where browsers give no Web Crypto.
    await page.addInitScript(() => {
      delete Crypto.prototype.subtle;
    });
    await page.goto(env.sandbox.url);
    const message = page.getByRole("alert");
    await message.waitFor(VISIBLE);
    assert.match(await message.innerText(), /This browser cannot run the Gifting Console: it lacks Web Crypto \(open the console at an https:\/\/ address\)\. Use a current Chrome, Edge or Firefox, or Safari 17 or later\./);
    assert.equal(await page.locator("header").count(), 0, "the app did not start");
    assert.deepEqual(errorsOf(page, ["pageerror", "csp"]), []);
    await page.context().close();
  });

  test("the same sentence in the browser's language, before the console can speak", async () => {
    const page = await newPage(env.browser, { locale: "de-DE" });
    await page.addInitScript(() => {
      delete Crypto.prototype.subtle;
    });
    await page.goto(env.sandbox.url);
    const message = page.getByRole("alert");
    await message.waitFor(VISIBLE);
    assert.match(await message.innerText(), /^Dieser Browser kann die Gifting Console nicht ausführen: Ihm fehlt Web Crypto \(öffnen Sie die Konsole unter einer https:\/\/-Adresse\)\./);
    assert.equal(await page.evaluate(() => document.documentElement.lang), "de");
    await page.context().close();
  });

  test("a signed-out visitor sees the shell with the sign-in screen, no errors", async () => {
    const page = await newPage(env.browser);
    const response = await page.goto(env.sandbox.url);
    assert.equal(response.status(), 200);

    // The header is rendered by the wasm app, not by index.html: seeing it
    // proves the wasm loaded and mounted.
    await page.locator("header", { hasText: "Gifting Console" }).waitFor(VISIBLE);
    await page.locator("main#main").waitFor(VISIBLE);
    await page.locator("main#main").getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    // index.html says "Gifting Console"; the sign-in screen names the tab after itself.
    assert.equal(await page.title(), "Sign in to the Gifting Console");

    assert.deepEqual(errorsOf(page), [], "no console errors, page errors or CSP violations");
    await page.context().close();
  });

  test("config.json is fetched once, while the wasm downloads (index.html preloads it)", async () => {
    const page = await newPage(env.browser);
    let requests = 0;
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/config.json") requests += 1;
    });
    await page.goto(env.sandbox.url);
    await page.locator("main#main").getByRole("button", { name: "Sign in", exact: true }).waitFor(VISIBLE);
    // Two requests would mean the console's own fetch did not take the preloaded answer.
    assert.equal(requests, 1, "requests for /config.json");
    const timing = await page.evaluate(() => {
      const entries = performance.getEntriesByType("resource");
      const config = entries.find((e) => new URL(e.name).pathname === "/config.json");
      const wasm = entries.find((e) => e.name.endsWith("_bg.wasm"));
      return { configStart: config?.startTime, wasmEnd: wasm?.responseEnd };
    });
    assert.ok(timing.configStart !== undefined && timing.wasmEnd !== undefined, JSON.stringify(timing));
    assert.ok(timing.configStart < timing.wasmEnd, `config.json asked for before the wasm arrived: ${JSON.stringify(timing)}`);
    assert.deepEqual(errorsOf(page), []);
    await page.context().close();
  });

  test("the sandbox sends a CSP header that allows no inline script", async () => {
    const response = await fetch(env.sandbox.url);
    assert.equal(response.status, 200);
    const csp = response.headers.get("content-security-policy");
    assert.ok(csp, "Content-Security-Policy header present");
    const scriptSrc = csp
      .split(";")
      .map((directive) => directive.trim())
      .find((directive) => directive.startsWith("script-src "));
    assert.ok(scriptSrc, `script-src in ${csp}`);
    assert.doesNotMatch(scriptSrc, /'unsafe-inline'|'unsafe-eval'/);
    assert.doesNotMatch(await response.text(), /<script(?![^>]*\bsrc=)[^>]*>/, "index.html has no inline <script>");
  });

  test("the wasm is sent as the build's brotli copy, identical once decoded", async () => {
    const html = await (await fetch(env.sandbox.url)).text();
    const wasm = /data-wasm="\/([^"]+)"/.exec(html)?.[1];
    assert.ok(wasm, "index.html names the wasm");
    const copy = await stat(path.join(ROOT, "dist", `${wasm}.br`));
    const response = await fetch(`${env.sandbox.url}/${wasm}`, { headers: { "Accept-Encoding": "br" } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-encoding"), "br");
    assert.equal(Number(response.headers.get("content-length")), copy.size, "the precompressed file, not a fresh compression");
    assert.match(response.headers.get("vary") ?? "", /accept-encoding/i);
    // fetch decodes brotli: what arrives is the wasm itself.
    const decoded = Buffer.from(await response.arrayBuffer());
    assert.deepEqual(decoded, await readFile(path.join(ROOT, "dist", wasm)));
  });

  test("a client route that is no file is served the console (static fallback)", async () => {
    const page = await newPage(env.browser);
    const response = await page.goto(`${env.sandbox.url}/no/such/page`);
    assert.equal(response.status(), 200);
    await page.locator("header", { hasText: "Gifting Console" }).waitFor(VISIBLE);
    // Signed out, every route shows the sign-in screen; signed in, an unknown
    // route shows "Page not found" (covered by the sign-in spec).
    await page
      .getByRole("button", { name: "Sign in", exact: true })
      .or(page.getByRole("heading", { name: "Page not found" }))
      .waitFor(VISIBLE);
    assert.deepEqual(errorsOf(page), []);
    await page.context().close();
  });

  test("index.html carries a no-referrer meta and a meta policy with no plain-http hosts but this machine", async () => {
    const html = await (await fetch(env.sandbox.url)).text();
    const metas = tagsOf(html, "meta");
    assert.ok(
      metas.some((m) => m.name === "referrer" && m.content === "no-referrer"),
      `a no-referrer meta: ${JSON.stringify(metas)}`,
    );
    const policy = metas.find((m) => m["http-equiv"] === "Content-Security-Policy")?.content;
    assert.ok(policy, "a meta policy");
    for (const directive of policy.split(";").map((d) => d.trim())) {
      const [name, ...sources] = directive.split(/\s+/);
      for (const source of sources) {
        assert.ok(!["http:", "*", "'unsafe-inline'"].includes(source), `${name} allows ${source}`);
        if (source.startsWith("http://")) assert.match(source, /^http:\/\/(127\.0\.0\.1|localhost):\*$/, `${name} ${source}`);
      }
      if (name === "form-action") assert.deepEqual(sources, ["'self'"]);
    }
  });

  test("a missing file is a 404, never the console; the page names a favicon that exists", async () => {
    for (const missing of ["/favicon.ico", "/no/such/file.js", "/gifting-console-0123456789abcdef_bg.wasm"]) {
      const response = await fetch(`${env.sandbox.url}${missing}`);
      assert.equal(response.status, 404, missing);
      assert.doesNotMatch(await response.text(), /<html/i, `${missing} is not answered with the console`);
    }
    const html = await (await fetch(env.sandbox.url)).text();
    const icon = tagsOf(html, "link")
      .find((l) => l.rel === "icon" && /^\/[^/].*\.svg$/.test(l.href ?? ""))
      ?.href.slice(1);
    assert.ok(icon, "index.html names an SVG icon");
    const response = await fetch(`${env.sandbox.url}/${icon}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /^image\/svg\+xml/);
  });

  test("a config field of the wrong type is named on the config-error screen", async () => {
    // Start from the sandbox's real config so auth_url is the only fault.
    const good = await (await fetch(`${env.sandbox.url}/config.json`)).json();
    assert.equal(typeof good.auth_url, "string", "the sandbox's config has an auth_url");
    const screen = await configErrorScreen(JSON.stringify({ ...good, auth_url: 5 }));
    assert.equal(screen.role, "alert");
    assert.match(screen.text, /auth_url/);
    assert.doesNotMatch(screen.text, /base_url/, "only the broken field is blamed");
  });

  test("a missing required field is named on the config-error screen", async () => {
    const good = await (await fetch(`${env.sandbox.url}/config.json`)).json();
    const { base_url: _dropped, ...withoutBaseUrl } = good;
    assert.match((await configErrorScreen(JSON.stringify(withoutBaseUrl))).text, /base_url/);
  });

  for (const [what, body, status] of [
    ["a config.json that is not JSON gets the config-error screen, not a blank page", '{"base_url": "http://127.0.0.1:1", ', 200],
    ["a missing config.json gets the config-error screen", '{"error": "not found"}', 404],
  ]) {
    test(what, async () => {
      assert.match((await configErrorScreen(body, status)).text, /config\.json/);
    });
  }
});
