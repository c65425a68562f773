// The gateway's image (Containerfile, built by `make image-build` before this runs): what
// `podman image inspect` says about it (user, entrypoint, stop signal, labels, size), what its
// filesystem holds (the gateway and the console, no shell), and the entrypoint run from the
// exported filesystem, as the image's user on a read-only root, against the sandbox: /readyz
// answers 200 and a sign-in in Chromium relays through it. No container runtime can start a
// container on this machine kind (its setrlimit is refused), hence the export.

import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  assertNoCrash,
  freePort,
  launchBrowser,
  newPage,
  platformGet,
  sessionToken,
  signIn,
  startSandbox,
  waitFor,
} from "./harness.mjs";

const IMAGE = process.env.IMAGE || "gifting-gateway:0.1.0";
const MAX_IMAGE_BYTES = 25 * 1000 * 1000;

const podman = (...args) => execFileSync("podman", args, { encoding: "utf8", maxBuffer: 1 << 26 });

/** Every file under `dir`, as paths from the image's root. */
function filesUnder(dir, prefix = "") {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    const rel = `${prefix}/${name}`;
    return statSync(full).isDirectory() ? [`${rel}/`, ...filesUnder(full, rel)] : [rel];
  });
}

describe("the gateway's image", () => {
  let inspected;
  let root;
  let sandbox;
  let gateway;
  let browser;

  before(() => {
    [inspected] = JSON.parse(podman("image", "inspect", IMAGE));
    root = mkdtempSync(path.join(os.tmpdir(), "gifting-image-"));
    const name = `gifting-image-test-${process.pid}`;
    podman("create", "--name", name, IMAGE);
    try {
      const tar = path.join(root, "..", `${path.basename(root)}.tar`);
      podman("export", "--output", tar, name);
      execFileSync("tar", ["-xf", tar, "-C", root]);
      rmSync(tar);
      // The image's root directory as a runtime makes it (a temporary directory is 0700).
      chmodSync(root, 0o755);
    } finally {
      podman("rm", name);
    }
  });

  after(async () => {
    await browser?.close();
    if (gateway && gateway.exitCode === null) {
      const exited = new Promise((resolve) => gateway.once("exit", resolve));
      gateway.kill("SIGTERM");
      await exited;
    }
    await sandbox?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  afterEach(assertNoCrash);

  test("runs the gateway as no one, stops on SIGTERM, is labelled and small", () => {
    const config = inspected.Config;
    assert.equal(config.User, "65532:65532");
    assert.deepEqual(config.Entrypoint, ["/gifting-gateway"]);
    assert.equal(config.StopSignal, "SIGTERM");
    assert.ok(!config.Cmd?.length, `no command: ${config.Cmd}`);
    for (const label of ["title", "description", "version", "revision", "created", "licenses", "base.name"]) {
      assert.ok(config.Labels?.[`org.opencontainers.image.${label}`], `label ${label}`);
    }
    assert.ok(config.Env.includes("GATEWAY_STATIC=/console"), config.Env.join(" "));
    assert.ok(inspected.Size <= MAX_IMAGE_BYTES, `${inspected.Size} bytes`);
  });

  test("holds the gateway and the console, and no shell", () => {
    const files = filesUnder(root);
    const outside = files.filter((f) => f !== "/gifting-gateway" && !f.startsWith("/console/"));
    assert.deepEqual(outside, [], "only the gateway and the console");
    assert.ok(files.includes("/console/index.html"));
    assert.ok(!files.some((f) => /\/(sh|bash|dash|busybox|ash)$/.test(f)), "a shell");
    const gatewayFile = statSync(path.join(root, "gifting-gateway"));
    assert.equal(gatewayFile.uid, 0);
    assert.equal(gatewayFile.mode & 0o222, 0, "the gateway's binary is not writable");
  });

  test("its entrypoint, run from the exported filesystem, serves /readyz and a sign-in", async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    sandbox = await startSandbox(["--require-client-secret", "--redirect-uri", `${url}/auth/callback`]);
    const imageEnv = Object.fromEntries(inspected.Config.Env.map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
    const env = {
      ...imageEnv,
      // The image listens on 0.0.0.0 (with --public-url in a cluster); here, loopback.
      GATEWAY_ADDR: `127.0.0.1:${port}`,
      GATEWAY_METRICS_ADDR: `127.0.0.1:${await freePort()}`,
      GATEWAY_PLATFORM_URL: sandbox.url,
      GATEWAY_IMAGE_ORIGINS: sandbox.url,
      GATEWAY_CLIENT_ID: "gifting-console",
      GATEWAY_CLIENT_SECRET: "sandbox-secret",
      PATH: "/usr/sbin:/usr/bin:/sbin:/bin",
    };
    // A private mount namespace: the exported root bound read-only, then chroot into it as
    // the image's user, as a runtime with readOnlyRootFilesystem would run it.
    const [uid, gid] = inspected.Config.User.split(":");
    const script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec chroot --userspec="$2" "$1" "$3"';
    gateway = spawn(
      "unshare",
      ["--mount", "--propagation", "private", "sh", "-c", script, "sh", root, `${uid}:${gid}`, inspected.Config.Entrypoint[0]],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    gateway.stdout.on("data", (chunk) => (output += chunk));
    gateway.stderr.on("data", (chunk) => (output += chunk));
    await waitFor(() => {
      if (gateway.exitCode !== null) throw new Error(`exited with ${gateway.exitCode}`);
      return output.includes(`gifting-gateway listening on ${url}`);
    }, {
      timeout: 20_000,
      what: () => `the image's gateway listening\n${output}`,
    });
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, { what: "/readyz 200" });
    browser = await launchBrowser();
    const page = await newPage(browser);
    await signIn(page, url);
    const token = await sessionToken(page);
    assert.equal((await platformGet(sandbox.url, token, "/api/v3/me")).status, 200);
    assert.equal((await sandbox.stats()).authorization_codes_exchanged, 1);
    // Its files cannot be changed by the gateway's user: the root is read-only.
    assert.doesNotMatch(output, /read-only|permission denied/i);
  });
});
