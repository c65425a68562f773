// The gateway as a platform team runs it: three replicas (one secret, one set of flags) behind
// Debian's HAProxy (round robin, health checks on /readyz, X-Forwarded-For appended, read back
// by --client-ip-header), the console driven through the balancer in Chromium. Mid-journey the
// replica that relayed the sign-in's code is killed (SIGKILL, during a bulk change of 20 users)
// and another is rolled (SIGTERM, then started again, during an import of 20 rows): the admin
// is never signed out and never sees an error screen, every write lands exactly once on the
// platform, the refresh lands on a replica other than the code's, and the balancer's log shows
// requests served by all three.

import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  CLIENT_SECRET,
  assertNoCrash,
  assertSilentRefresh,
  freePort,
  launchBrowser,
  newPage,
  platformGet,
  scimUsers,
  sessionToken,
  signIn,
  startGateway,
  startSandbox,
  waitFor,
} from "./harness.mjs";
import { startHaproxy } from "./ops.mjs";

const VISIBLE = { state: "visible", timeout: 20_000 };
const REPLICAS = ["g1", "g2", "g3"];
const N = 20;

describe("three gateway replicas behind HAProxy, one killed and one rolled mid-journey", () => {
  const env = { gateways: {} };
  const stamp = Date.now();
  /** Every address the tab navigated to, to count sign-ins. */
  const visited = [];

  async function startReplica(name) {
    env.gateways[name].process = await startGateway({
      port: env.gateways[name].port,
      platformUrl: env.sandbox.url,
      args: ["--client-ip-header", "X-Forwarded-For", "--trusted-proxy", "127.0.0.1/32"],
    });
  }

  before(async () => {
    const lbPort = await freePort();
    env.url = `http://127.0.0.1:${lbPort}`;
    // Every platform answer takes 150 ms, so writes are in flight at the replicas when one dies.
    env.sandbox = await startSandbox(["--require-client-secret", "--redirect-uri", `${env.url}/auth/callback`, "--latency-ms", "150"]);
    for (const name of REPLICAS) {
      env.gateways[name] = { port: await freePort() };
      await startReplica(name);
    }
    env.lb = await startHaproxy(REPLICAS.map((name) => ({ name, port: env.gateways[name].port })), { port: lbPort });
    env.browser = await launchBrowser();
    env.page = await newPage(env.browser);
    env.page.on("framenavigated", (frame) => {
      if (frame === env.page.mainFrame()) visited.push(frame.url());
    });
  });
  after(async () => {
    await env.browser?.close();
    await env.lb?.stop();
    for (const g of Object.values(env.gateways)) await g.process?.stop();
    await env.sandbox?.stop();
  });
  afterEach(assertNoCrash);
  afterEach(async () => {
    // No error screen and no way back to the sign-in page at any step.
    assert.equal(await env.page.locator("main#main .error-panel").count(), 0, "an error panel");
    if (!env.signedOut) {
      assert.equal(await env.page.getByRole("button", { name: "Sign in", exact: true }).count(), 0, "signed out");
    }
  });

  const main = () => env.page.locator("main#main");
  const api = async (path) => {
    const { status, body } = await platformGet(env.sandbox.url, await sessionToken(env.page), path);
    assert.equal(status, 200, path);
    return body;
  };
  /** The replica that answered the balancer's requests matching `method` and `path`. */
  const servers = (method, path) =>
    env.lb.served().filter((r) => r.method === method && r.path.startsWith(path)).map((r) => r.server);

  /**
   * Holds the eighth `method` request to `pattern` in the browser (the earlier and later ones
   * pass), so a replica is killed or rolled mid-run whatever the machine's speed: `held()`
   * waits until that request is held, `release()` lets it go on.
   */
  async function holdEighth(method, pattern, what) {
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    let seen = 0;
    await env.page.route(pattern, async (route) => {
      if (route.request().method() === method && ++seen === 8) await gate;
      await route.continue();
    });
    return { held: () => waitFor(() => seen >= 8, { timeout: 30_000, what }), release };
  }

  test("sign-in and every screen through the balancer", async () => {
    await signIn(env.page, env.url);
    // The balancer logs a request once it is over; the console may be quicker.
    const [codeServer] = await waitFor(() => servers("POST", "/oauth/token").length && servers("POST", "/oauth/token"), {
      what: "the code exchange in the balancer's log",
    });
    assert.ok(REPLICAS.includes(codeServer), `the code exchange was relayed by ${codeServer}`);
    env.codeServer = codeServer;
    for (const [path, heading, rows] of [
      ["/users", "Users", "table tbody tr"],
      ["/teams", "Teams", "table tbody tr"],
      ["/teams/users", "All active users", "table tbody tr"],
      ["/sends", "Sends", "tbody tr[data-send-id]"],
      ["/campaigns", "Campaigns", "table tbody tr"],
      ["/catalog", "Catalog", "[data-testid=product-grid] img"],
    ]) {
      await env.page.goto(`${env.url}${path}`);
      await main().getByRole("heading", { level: 1, name: heading, exact: true }).waitFor(VISIBLE);
      await env.page.locator(rows).first().waitFor(VISIBLE);
    }
  });

  test(`a bulk change of ${N} users lands once each while the code's replica is killed`, async () => {
    const groups = (await api("/api/v3/groups?page=1&per_page=100")).groups;
    const target = groups[groups.length - 1].name;
    const before = await scimUsers(env.sandbox.url, await sessionToken(env.page));
    const chosen = before.filter((u) => u.active && u.division !== target).slice(0, N);
    assert.equal(chosen.length, N);
    await env.page.goto(`${env.url}/users?count=100`);
    await env.page.locator("table.users-table tbody tr").first().waitFor(VISIBLE);
    for (const user of chosen) {
      const cell = env.page.locator("td", { hasText: new RegExp(`^${user.userName.replace(/[.+]/g, "\\$&")}$`) });
      await env.page.locator("table.users-table tbody tr", { has: cell }).getByRole("checkbox").check();
    }
    await env.page.getByTestId("bulk-count").getByText(`${N} users selected`).waitFor(VISIBLE);
    await main().getByLabel("Change", { exact: true }).selectOption("team");
    await main().getByLabel("New team").selectOption(target);
    // The eighth change is held in the browser until the run is under way, so the kill lands
    // mid-run whatever the machine's speed; released just before it, that change is in flight
    // (to the dying replica or another) when the replica dies.
    const eighth = await holdEighth("PUT", "**/api/scim/v2/Users/*", "the eighth change");
    await main().getByRole("button", { name: `Move ${N} users to ${target}` }).click();
    await eighth.held();
    eighth.release();
    await env.gateways[env.codeServer].process.kill("SIGKILL");
    await env.page.getByTestId("bulk-summary").getByText(`Changed ${N} of ${N} users.`).waitFor({ state: "visible", timeout: 90_000 });
    await env.page.unroute("**/api/scim/v2/Users/*");
    const after = await scimUsers(env.sandbox.url, await sessionToken(env.page));
    assert.equal(after.length, before.length, "no user created or lost");
    for (const user of chosen) {
      assert.equal(after.find((u) => u.id === user.id).division, target, `${user.userName} moved`);
    }
    const afterKill = env.lb.served().filter((r) => r.method === "PUT" && r.path.startsWith("/api/scim/v2/Users/"));
    assert.ok(afterKill.length >= N, `${afterKill.length} changes went through the balancer`);
    assert.deepEqual(afterKill.filter((r) => r.status >= 500), [], "no change failed at the balancer");
  });

  test(`an import of ${N} rows lands once each while another replica is rolled`, async () => {
    const rolled = REPLICAS.find((name) => name !== env.codeServer);
    const team = (await scimUsers(env.sandbox.url, await sessionToken(env.page)))[0].division;
    const emails = Array.from({ length: N }, (_, i) => `replica-${stamp}-${i}@example.org`);
    const csv = `email,first name,last name,role,team\n${emails.map((e) => `${e},Rep,Lica,sender,${team}`).join("\n")}\n`;
    await env.page.goto(`${env.url}/users/import`);
    await env.page.locator("#import-file").setInputFiles({ name: "replicas.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await env.page.locator("[data-testid=import-how]").filter({ hasText: "Compared" }).waitFor(VISIBLE);
    assert.equal(await env.page.locator("[data-testid=import-count-create]").textContent(), String(N));
    const eighth = await holdEighth("POST", "**/api/scim/v2/Users", "the eighth create");
    await env.page.locator("[data-testid=import-run]").click();
    await eighth.held();
    // The roll: SIGTERM (the replica drains what it holds and exits 0), then the same replica
    // started again; the held create goes out as it begins.
    eighth.release();
    await env.gateways[rolled].process.stop();
    await startReplica(rolled);
    const summary = env.page.locator("[data-testid=import-summary]");
    await summary.waitFor({ state: "visible", timeout: 90_000 });
    assert.equal(await summary.textContent(), `Import ended: created ${N}, updated 0, unchanged 0, deactivated 0, skipped 0, failed 0, not run 0.`);
    await env.page.unroute("**/api/scim/v2/Users");
    const users = await scimUsers(env.sandbox.url, await sessionToken(env.page));
    for (const email of emails) {
      assert.equal(users.filter((u) => u.userName.toLowerCase() === email).length, 1, `${email} exactly once`);
    }
    // The rolled replica serves again once the balancer's check finds it ready.
    await waitFor(() => env.lb.served().filter((r) => r.server === rolled).length > 0, { what: `${rolled} serving` });
  });

  test("a token refresh lands on a replica other than the code's", async () => {
    await assertSilentRefresh(env.sandbox, env.page, env.url, VISIBLE);
    const tokenServers = servers("POST", "/oauth/token");
    assert.ok(tokenServers.length >= 2, tokenServers.join(" "));
    assert.notEqual(tokenServers.at(-1), env.codeServer, "the refresh went to another replica");
  });

  test("every replica served, nobody was signed out, and sign-out ends the grant", async () => {
    const counts = env.lb.servedBy();
    for (const name of REPLICAS) assert.ok(counts[name] > 0, `${name} served nothing: ${JSON.stringify(counts)}`);
    assert.equal(visited.filter((u) => u.includes("/oauth/authorize")).length, 1, "one sign-in in the whole journey");
    const refreshToken = await env.page.evaluate(() => JSON.parse(sessionStorage.getItem("gifting-console.session")).refresh_token);
    env.signedOut = true;
    await env.page.getByRole("button", { name: "Sign out", exact: true }).click();
    await env.page.getByText("You have signed out.").waitFor(VISIBLE);
    const body = new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: "gifting-console",
      client_secret: CLIENT_SECRET,
    });
    const refresh = await fetch(`${env.sandbox.url}/oauth/token`, { method: "POST", body });
    assert.equal(refresh.status, 400, "the grant ended");
    assert.equal(await env.page.getByText(/did not confirm/).count(), 0);
  });
});
