// The gateway under slow clients, run by scripts/bench-gateway-slow.sh in `make bench`.
//
// Starts the release sandbox (as the platform) and the release gateway on loopback with short
// timeouts (--header-timeout-secs 4, --body-timeout-secs 5), measures a normal client against
// the idle gateway (one new connection per request, alternating GET /config.json and a relayed
// GET /api/v3/me), then opens 500 connections that trickle a request head (a byte a second,
// never finished) and 500 that trickle a body (POST /api/scim/v2/Users, Content-Length 1000, a
// byte a second), measures the normal client again while they are all open, and waits for the
// gateway to drop them.
//
// Targets (exit 1 when missed): loaded p99 at most 2x the idle p99 (the idle figure floored at
// 1 ms: below that, loopback scheduling noise on two shared cores is the signal); every slow
// connection dropped, the head tricklers no earlier than the header timeout and within it plus
// 2 s, the body tricklers answered 408 within the body timeout plus 2 s; no failed normal request.
// Bounded: 1,000 connections, loopback only, about 20 s in all.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TARGET = path.resolve(ROOT, process.env.CARGO_TARGET_DIR || "target", "release");
const SLOW_HEADERS = 500;
const SLOW_BODIES = 500;
const HEADER_TIMEOUT_S = 4;
const BODY_TIMEOUT_S = 5;
const SAMPLES = 400;
const MAX_RATIO = 2;
const FLOOR_MS = 1;
const GRACE_MS = 2000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts `bin` and resolves with its URL once it prints its "listening on" line. */
function start(bin, args, env = {}) {
  const child = spawn(path.join(TARGET, bin), args, {
    stdio: ["ignore", "pipe", "ignore"],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${bin} did not start`)), 15_000);
    child.once("exit", (code) => reject(new Error(`${bin} exited (${code})`)));
    let seen = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1].replace(/\/$/, "") });
      }
    });
  });
}

/** One GET on a new connection; its latency in ms, or throws. */
function timedGet(url) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get(url, { agent: false, timeout: 5000 }, (res) => {
      res.resume();
      res.on("end", () => {
        if (res.statusCode >= 500) reject(new Error(`HTTP ${res.statusCode}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    });
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.on("error", reject);
  });
}

async function measure(base, count) {
  const latencies = [];
  let failed = 0;
  for (let i = 0; i < count; i++) {
    const pathname = i % 2 === 0 ? "/config.json" : "/api/v3/me";
    try {
      latencies.push(await timedGet(`${base}${pathname}`));
    } catch {
      failed += 1;
    }
  }
  latencies.sort((a, b) => a - b);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor((q / 100) * latencies.length))] ?? NaN;
  return { p50: p(50), p99: p(99), failed, count };
}

/** A connection that sends `head` and then one byte a second until the gateway drops it. */
function slowConnection(addr, head, trickle) {
  return new Promise((resolve) => {
    const opened = Date.now();
    const socket = net.connect(addr.port, addr.host);
    let answer = "";
    let timer;
    let guard;
    const done = (how) => {
      clearInterval(timer);
      clearTimeout(guard);
      socket.destroy();
      resolve({ how, afterMs: Date.now() - opened, answer });
    };
    socket.setEncoding("latin1");
    socket.on("connect", () => {
      socket.write(head);
      timer = setInterval(() => socket.write(trickle), 1000);
    });
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => done("closed"));
    socket.on("error", () => done("reset"));
    // The bench ends by itself even if the gateway never drops the connection.
    guard = setTimeout(() => done("still open"), (BODY_TIMEOUT_S + 10) * 1000);
  });
}

function summary(results, timeoutS, expectStatus) {
  const dropped = results.filter((r) => r.how !== "still open");
  const times = dropped.map((r) => r.afterMs).sort((a, b) => a - b);
  const early = dropped.filter((r) => r.afterMs < timeoutS * 1000 - 500).length;
  const late = dropped.filter((r) => r.afterMs > timeoutS * 1000 + GRACE_MS).length;
  const wrong = expectStatus ? dropped.filter((r) => !r.answer.startsWith(`HTTP/1.1 ${expectStatus}`)).length : 0;
  return {
    dropped: dropped.length,
    total: results.length,
    median: times[Math.floor(times.length / 2)] ?? NaN,
    max: times[times.length - 1] ?? NaN,
    early,
    late,
    wrong,
  };
}

async function main() {
  const startedAt = Date.now();
  // The console itself is not what is measured: a one-file dist.
  const dist = mkdtempSync(path.join(os.tmpdir(), "bench-gateway-slow-"));
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>bench</title>");
  const sandbox = await start("gifting-sandbox", ["--addr", "127.0.0.1:0", "--require-client-secret"]);
  const gateway = await start(
    "gifting-gateway",
    [
      "--addr", "127.0.0.1:0", "--static", dist, "--platform-url", sandbox.url,
      "--client-id", "gifting-console",
      "--header-timeout-secs", String(HEADER_TIMEOUT_S), "--body-timeout-secs", String(BODY_TIMEOUT_S),
    ],
    { GATEWAY_CLIENT_SECRET: "sandbox-secret" },
  );
  const stop = () => {
    gateway.child.kill("SIGKILL");
    sandbox.child.kill("SIGKILL");
    rmSync(dist, { recursive: true, force: true });
  };
  try {
    const { hostname, port } = new URL(gateway.url);
    const addr = { host: hostname, port: Number(port) };
    await measure(gateway.url, 50); // warm up
    const idle = await measure(gateway.url, SAMPLES);

    const heads = [];
    const bodies = [];
    for (let i = 0; i < SLOW_HEADERS; i += 50) {
      for (let j = 0; j < 50; j++) {
        heads.push(slowConnection(addr, `GET /config.json HTTP/1.1\r\nHost: ${addr.host}\r\nX-Slow: `, "a"));
        bodies.push(
          slowConnection(
            addr,
            `POST /api/scim/v2/Users HTTP/1.1\r\nHost: ${addr.host}\r\nContent-Type: application/scim+json\r\n` +
              "Content-Length: 1000\r\n\r\n{",
            " ",
          ),
        );
      }
      await sleep(20);
    }
    await sleep(500); // all of them open and trickling
    const loaded = await measure(gateway.url, SAMPLES);
    const afterLoad = (Date.now() - startedAt) / 1000;
    const slowHeads = summary(await Promise.all(heads), HEADER_TIMEOUT_S, null);
    const slowBodies = summary(await Promise.all(bodies), BODY_TIMEOUT_S, 408);

    const base = Math.max(idle.p99, FLOOR_MS);
    const ratio = loaded.p99 / base;
    const ms = (v) => `${v.toFixed(2)} ms`;
    console.log(`gateway under slow clients: ${SLOW_HEADERS} slow heads + ${SLOW_BODIES} slow bodies, loopback`);
    console.log(`  normal client, idle gateway:   p50 ${ms(idle.p50)}, p99 ${ms(idle.p99)} (${idle.count} requests, ${idle.failed} failed)`);
    console.log(`  normal client, 1000 slow open: p50 ${ms(loaded.p50)}, p99 ${ms(loaded.p99)} (${loaded.count} requests, ${loaded.failed} failed, done ${afterLoad.toFixed(1)} s in)`);
    console.log(`  p99 under load / max(idle p99, ${FLOOR_MS} ms): ${ratio.toFixed(2)}x   (target <= ${MAX_RATIO}x)`);
    const line = (label, s, timeoutS, extra) =>
      console.log(
        `  ${label}: ${s.dropped}/${s.total} dropped, median ${(s.median / 1000).toFixed(2)} s, last ${(s.max / 1000).toFixed(2)} s` +
          `   (target: all, between ${timeoutS - 0.5} and ${timeoutS + GRACE_MS / 1000} s${extra})`,
      );
    line("slow heads ", slowHeads, HEADER_TIMEOUT_S, "");
    line("slow bodies", slowBodies, BODY_TIMEOUT_S, ", each answered 408");
    console.log(`  bench took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    const problems = [];
    if (idle.failed + loaded.failed > 0) problems.push("normal requests failed");
    if (!(ratio <= MAX_RATIO)) problems.push(`p99 ratio ${ratio.toFixed(2)}x over ${MAX_RATIO}x`);
    for (const [label, s] of [["slow heads", slowHeads], ["slow bodies", slowBodies]]) {
      if (s.dropped < s.total) problems.push(`${label}: ${s.total - s.dropped} never dropped`);
      if (s.early || s.late) problems.push(`${label}: ${s.early} dropped early, ${s.late} late`);
      if (s.wrong) problems.push(`${label}: ${s.wrong} without the 408`);
    }
    if (problems.length) {
      console.log(`  over budget: ${problems.join("; ")}`);
      process.exitCode = 1;
    } else {
      console.log("  within budget");
    }
  } finally {
    stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
