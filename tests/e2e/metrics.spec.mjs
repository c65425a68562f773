// The gateway scraped by Debian's real Prometheus: the gateway serves its metrics on a
// listener of its own (--metrics-addr), Prometheus scrapes it every second, and after a sign-in
// and a few screens in Chromium the series are read back through Prometheus' HTTP API. No
// label carries what a client sent, and the public address serves no metrics.

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { VISIBLE, consoleFixture, freePort, sessionToken, signIn, waitFor } from "./harness.mjs";
import { startPrometheus } from "./ops.mjs";

// Known before the gateway starts: Prometheus' configuration names it.
const metricsPort = await freePort();

describe("the gateway's metrics, scraped by Prometheus", () => {
  const env = consoleFixture({
    gateway: true,
    signedIn: false,
    gatewayArgs: ["--metrics-addr", `127.0.0.1:${metricsPort}`],
  });
  let prometheus;
  before(async () => {
    prometheus = await startPrometheus([`127.0.0.1:${metricsPort}`]);
  });
  after(() => prometheus?.stop());

  /** The value of `promql` once Prometheus has scraped it and it satisfies `ok`. */
  const scraped = async (promql, ok) => {
    const found = await waitFor(
      async () => {
        const [first] = await prometheus.query(promql);
        // Wrapped: a value of 0 is a fact too.
        return first && ok(first.value) ? { value: first.value } : null;
      },
      { timeout: 20_000, what: () => `${promql} in Prometheus` },
    );
    return found.value;
  };

  test("Prometheus scrapes the metrics listener, not the public one", async () => {
    assert.equal(await scraped('up{job="gateway"}', (v) => v === 1), 1);
    assert.equal(await scraped("gateway_build_info", (v) => v === 1), 1);
    const published = await (await fetch(`${env.gateway.url}/metrics`)).text();
    assert.doesNotMatch(published, /gateway_http_requests_total/);
  });

  test("a sign-in and a few screens show up as series", async () => {
    const page = env.page;
    await signIn(page, env.gateway.url);
    for (const [where, heading] of [["/users", "Users"], ["/sends", "Sends"], ["/campaigns", "Campaigns"]]) {
      await page.goto(`${env.gateway.url}${where}`);
      await page.locator("main#main").getByRole("heading", { level: 1, name: heading, exact: true }).waitFor(VISIBLE);
      await page.locator("main#main table tbody tr").first().waitFor(VISIBLE);
    }
    await scraped('gateway_token_relay_total{operation="code",outcome="relayed"}', (v) => v === 1);
    await scraped('sum(gateway_http_requests_total{route="/api/scim/v2/Users",status="2xx"})', (v) => v >= 1);
    await scraped('gateway_platform_requests_total{outcome="answered"}', (v) => v >= 4);
    await scraped('sum(gateway_http_request_duration_seconds_count{route="static"})', (v) => v >= 1);
    await scraped("gateway_requests_in_flight", (v) => v >= 0);
    assert.equal((await prometheus.query('gateway_platform_requests_total{outcome!="answered"}')).length, 0);
  });

  test("no label carries a path, query, token, address or email", async () => {
    const token = await sessionToken(env.page);
    const series = await prometheus.series('{job="gateway"}');
    assert.ok(series.length > 10, `only ${series.length} series`);
    for (const labels of series) {
      for (const [name, value] of Object.entries(labels)) {
        // Prometheus' own target label is the scraped address; the gateway's labels are not.
        if (name === "instance") continue;
        assert.ok(!value.includes(token.slice(0, 16)), `${name}=${value}`);
        assert.doesNotMatch(value, /[?@=&]|127\.0\.0\.1|\/api\/scim\/v2\/Users\/\d/, `${name}=${value}`);
      }
    }
    const routes = new Set(series.map((s) => s.route).filter(Boolean));
    for (const route of routes) {
      assert.match(route, /^(static|\/config\.json|\/healthz|\/readyz|\/oauth\/[a-z]+|\/oauth \(unknown\)|\/api.*)$/, route);
    }
  });
});
