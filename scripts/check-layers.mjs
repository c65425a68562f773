#!/usr/bin/env node
// Checks that the layers of each crate point one way: a top-level module may name
// (`crate::x`) only the modules listed before it in its crate's order below, so no module
// imports a layer above it and no two modules import each other, directly or around a circle.
// Comments are ignored (a doc link is not an import). Run: `node scripts/check-layers.mjs`.
// A new top-level module must be added to its crate's order, or the check fails.

import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const CRATES = [
  {
    name: "the console",
    src: "src",
    // browser helpers → the admin's remembered choices → their language (the catalog, Intl) → HTTP (transport, cancel, retry) → auth → the API client → jobs → the
    // screens' route table → shared components → the domain (the organisation's spend, which
    // two screens show) → pages → the command palette (it searches what screens hold) → the shell around them → the app.
    order: ["browser", "prefs", "i18n", "config", "panic", "http", "auth", "api", "jobs", "routes", "components", "spend", "pages", "palette", "shell", "app"],
  },
  {
    name: "the sandbox",
    src: "crates/gifting-sandbox/src",
    // data and stores → the shared state → request parsing and middleware → the handlers of
    // each area → the connection loop.
    order: [
      "config", "data", "host", "html", "stores", "live", "state", "routing", "extract", "api_auth", "faults",
      "cdn", "hooks", "marketplace", "oauth", "v3", "scim", "static_files", "server",
    ],
  },
  {
    name: "the gateway",
    src: "crates/gifting-gateway/src",
    // The tokens' users (memory only) come before the state that holds them; the invitation
    // keys' filter is an area's helper the api area calls.
    order: ["config", "telemetry", "log", "current_user", "state", "upstream", "ops", "oauth", "members", "api"],
  },
];

/** Every .rs file of a top-level module (`x.rs` or the folder `x/`). */
function filesOf(dir, entry) {
  const full = path.join(dir, entry);
  if (statSync(full).isDirectory()) {
    return readdirSync(full).flatMap((child) => filesOf(full, child));
  }
  return entry.endsWith(".rs") ? [full] : [];
}

function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
}

let failures = 0;
for (const krate of CRATES) {
  const dir = path.join(ROOT, krate.src);
  const modules = readdirSync(dir)
    .filter((entry) => !["lib.rs", "main.rs"].includes(entry))
    .filter((entry) => entry.endsWith(".rs") || statSync(path.join(dir, entry)).isDirectory())
    .map((entry) => entry.replace(/\.rs$/, ""));
  for (const module of modules) {
    const rank = krate.order.indexOf(module);
    if (rank < 0) {
      console.log(`${krate.name}: module \`${module}\` is in no layer: add it to scripts/check-layers.mjs`);
      failures += 1;
      continue;
    }
    const entries = readdirSync(dir).filter((e) => e === module || e === `${module}.rs`);
    for (const file of entries.flatMap((entry) => filesOf(dir, entry))) {
      const text = stripComments(readFileSync(file, "utf8"));
      for (const [, used] of text.matchAll(/\bcrate::([a-z_][a-z0-9_]*)/g)) {
        if (used === module) continue;
        const usedRank = krate.order.indexOf(used);
        if (usedRank < 0) continue; // a re-export of the crate root, not a module
        if (usedRank > rank) {
          console.log(`${path.relative(ROOT, file)}: \`${module}\` uses \`crate::${used}\`, a layer above it`);
          failures += 1;
        }
      }
    }
  }
}

// No screen imports another screen's modules: what two screens share moves down a layer.
const PAGES = path.join(ROOT, "src/pages");
for (const screen of readdirSync(PAGES).filter((e) => e !== "mod.rs").map((e) => e.replace(/\.rs$/, ""))) {
  const entries = readdirSync(PAGES).filter((e) => e === screen || e === `${screen}.rs`);
  for (const file of entries.flatMap((entry) => filesOf(PAGES, entry))) {
    const text = stripComments(readFileSync(file, "utf8"));
    for (const [, used] of text.matchAll(/\bcrate::pages::([a-z_][a-z0-9_]*)/g)) {
      if (used !== screen) {
        console.log(`${path.relative(ROOT, file)}: the screen \`${screen}\` uses \`crate::pages::${used}\`, another screen's`);
        failures += 1;
      }
    }
  }
}

// Long work is a job (src/jobs): its work, in `src/jobs/` and every `*job.rs` of the console, is
// started from a plain `fn` with plain data, and may hold only reference-counted reactive
// state (`ArcRwSignal`). A screen's arena-owned state (a signal, memo, callback or stored
// value, disposed when the admin leaves) held there would be touched after the screen is
// gone: the crash the jobs layer exists to make impossible.
const SCREEN_STATE = /\b(RwSignal|ReadSignal|WriteSignal|Signal|Memo|StoredValue|Callback|LocalResource|Resource|use_context|expect_context|on_cleanup|Owner::current)\b/;
function jobFiles(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return jobFiles(full);
    return entry.endsWith("job.rs") ? [full] : [];
  });
}
// The guard runner is job work too: bulk changes, imports and undo run it inside their jobs.
const jobs = [
  ...filesOf(path.join(ROOT, "src"), "jobs"),
  ...jobFiles(path.join(ROOT, "src")).filter((f) => !f.startsWith(path.join(ROOT, "src", "jobs") + path.sep)),
  ...filesOf(path.join(ROOT, "src/pages/users"), "guard"),
];
for (const file of jobs) {
  // A job file's tests may play the screen (a signal disposed while the job runs).
  const source = readFileSync(file, "utf8").split(/#\[cfg\(test\)\]\s*mod tests/)[0];
  const lines = stripComments(source).split("\n");
  lines.forEach((line, i) => {
    const found = line.match(SCREEN_STATE);
    // The registry itself (src/jobs/mod.rs) records the app's owner once, at start-up.
    const registry = file.endsWith(path.join("src", "jobs", "mod.rs")) && found?.[1] === "Owner::current";
    if (found && !registry) {
      console.log(`${path.relative(ROOT, file)}:${i + 1}: job work holds \`${found[1]}\`, a screen's state: only plain data and ArcRwSignal may outlive a screen`);
      failures += 1;
    }
  });
}
if (jobs.length < 5) {
  console.log(`jobs: expected the job files (src/jobs, *job.rs), found ${jobs.length}`);
  failures += 1;
}

if (failures > 0) {
  console.log(`layers: ${failures} upward or screen-to-screen import(s), or screen state in job work`);
  process.exit(1);
}
console.log(`layers: every import points down (${CRATES.map((c) => c.name).join(", ")}); ${jobs.length} job files hold no screen state`);
