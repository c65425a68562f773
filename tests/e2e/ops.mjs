// What a platform team runs around the gateway, started for a spec on loopback: Debian's
// Prometheus scraping it, and Debian's HAProxy balancing replicas of it. Each runs from its own
// temporary directory and is stopped by its PID.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, waitFor } from "./harness.mjs";

export const PROMETHEUS = "/usr/bin/prometheus";
export const HAPROXY = "/usr/sbin/haproxy";

/**
 * Starts `bin args` in `dir`, keeping the tail of its output; `stop()` sends SIGTERM (SIGKILL
 * after 5 s) and removes `dir`.
 */
function startDaemon(bin, args, dir, onLine = () => {}) {
  const child = spawn(bin, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  const tail = [];
  let partial = "";
  const keep = (chunk) => {
    const lines = (partial + String(chunk)).split("\n");
    partial = lines.pop();
    lines.forEach(onLine);
    tail.push(...lines);
    if (tail.length > 200) tail.splice(0, tail.length - 200);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    child,
    output: () => tail.join("\n"),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Prometheus scraping `targets` (host:port of metrics listeners) every second as job
 * "gateway"; resolves once it is ready, with `query(promql)` (the result vector of the HTTP
 * API's instant query) and `series(match)` (every series' labels).
 */
export async function startPrometheus(targets) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "e2e-prometheus-"));
  const port = await freePort();
  const config = [
    "global:",
    "  scrape_interval: 1s",
    "  scrape_timeout: 1s",
    "scrape_configs:",
    "  - job_name: gateway",
    "    static_configs:",
    `      - targets: [${targets.map((t) => JSON.stringify(t)).join(", ")}]`,
    "",
  ].join("\n");
  writeFileSync(path.join(dir, "prometheus.yml"), config);
  const daemon = startDaemon(PROMETHEUS, [
    `--config.file=${path.join(dir, "prometheus.yml")}`,
    `--storage.tsdb.path=${path.join(dir, "data")}`,
    `--web.listen-address=127.0.0.1:${port}`,
  ], dir);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/-/ready`)).ok, {
    timeout: 30_000,
    what: () => `Prometheus ready at ${url}\n${daemon.output()}`,
  });
  async function api(pathAndQuery) {
    const body = await (await fetch(`${url}${pathAndQuery}`)).json();
    if (body.status !== "success") throw new Error(`${pathAndQuery}: ${JSON.stringify(body)}`);
    return body.data;
  }
  return {
    url,
    stop: daemon.stop,
    output: daemon.output,
    /** The instant vector of `promql`: [{metric, value: number}]. */
    async query(promql) {
      const data = await api(`/api/v1/query?query=${encodeURIComponent(promql)}`);
      return data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    /** The label sets of every series matching `match`. */
    series: (match) => api(`/api/v1/series?match[]=${encodeURIComponent(match)}`),
  };
}

/**
 * HAProxy on a free loopback port balancing `backends` (`{name, port}`) round robin, checking
 * each on `GET /readyz` every 200 ms (down after 2 failures, up after 1 success), appending
 * `X-Forwarded-For`, and logging one line per request to its stdout; `served()` lists the
 * requests from that log as `{server, method, path, status}` (the log is the test's own: it
 * holds paths with their queries, which never leave this temporary run).
 *
 * A request whose server connection failed (refused: a replica stopped or gone) is sent again
 * to another server, whatever its method, since the replica never saw it; one whose answer
 * never came (the replica died holding it) is sent again only when its method is idempotent
 * (GET, HEAD, PUT: HAProxy would replay any method, so the others are excluded here), so a
 * create or a token request is never sent twice. Every request has a server
 * connection of its own (`http-server-close`), so a replica that drains is never handed a
 * request on a connection it is closing.
 */
export async function startHaproxy(backends, { port } = {}) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "e2e-haproxy-"));
  port ??= await freePort();
  const requests = [];
  const config = [
    "global",
    "  log stdout format raw local0",
    "  maxconn 512",
    "defaults",
    "  mode http",
    "  log global",
    // One line per request: the server that answered, the request line, the status.
    '  log-format "served %s %ST %{+Q}r"',
    "  option forwardfor",
    "  option http-server-close",
    "  option redispatch 1",
    "  retries 3",
    "  retry-on conn-failure empty-response",
    "  timeout connect 2s",
    "  timeout client 60s",
    "  timeout server 30s",
    "frontend console",
    `  bind 127.0.0.1:${port}`,
    "  default_backend gateways",
    "backend gateways",
    "  balance roundrobin",
    "  option httpchk GET /readyz",
    "  http-check expect status 200",
    "  http-request disable-l7-retry unless METH_GET || { method PUT }",
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check inter 200ms fall 2 rise 1`),
    "",
  ].join("\n");
  const file = path.join(dir, "haproxy.cfg");
  writeFileSync(file, config);
  const daemon = startDaemon(HAPROXY, ["-f", file, "-db"], dir, (line) => {
    const match = /served (\S+) (\d+) "(\S+) (\S+) [^"]*"/.exec(line);
    if (match) requests.push({ server: match[1], status: Number(match[2]), method: match[3], path: match[4] });
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/healthz`)).ok, {
    timeout: 15_000,
    what: () => `HAProxy answering at ${url}\n${daemon.output()}`,
  });
  return {
    url,
    port,
    output: daemon.output,
    /** Every request the balancer logged so far: {server, status, method, path}. */
    served: () => [...requests],
    /** How many requests each server answered: {name: count}. */
    servedBy() {
      const counts = {};
      for (const r of requests) counts[r.server] = (counts[r.server] ?? 0) + 1;
      return counts;
    },
    stop: daemon.stop,
  };
}
