#!/usr/bin/env node
// Fails when the console holds a test that no step of `make test` would execute. The console is
// compiled for tests only as wasm32 (`make test-wasm`), where `wasm-bindgen-test-runner` runs
// `#[wasm_bindgen_test]` functions and nothing else: a plain `#[test]` there compiles, is
// counted by nobody and passes by never running. So every console test, in `src/` and in
// `tests/*.rs`, is written `#[wasm_bindgen_test]` (pure logic runs in Node.js, DOM tests in
// Chromium: the `tests/*.rs` files say `run_in_browser`). The other crates are tested natively
// by `make test-native`, where `#[test]` is right.
//
// It also fails on an attribute closure with a comparison left unbraced in `view!`: the macro
// reads `disabled=move || a >= b` as the tag ending at `>`, and the rest of the closure becomes
// text on the page while the attribute and the handlers after it are lost (it compiles). Brace
// it: `disabled={move || a >= b}`.
//
// And it fails on a fixed pause in a browser test (`tests/e2e/*.spec.mjs`, `*.test.mjs`): `sleep(`,
// `setTimeout(` or `waitForTimeout`. A pause is too short on a loaded machine and too long
// everywhere else; a spec waits for the fact it checks instead (a DOM state, a sandbox counter
// read after a request that must come later, a test hook such as /__sandbox/tokens/expire,
// the page's clock), through `waitFor` and the other helpers of tests/e2e/harness.mjs, which
// holds the one polling interval. Run: `node scripts/check-tests.mjs`.

import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function rustFiles(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return rustFiles(full);
    return entry.endsWith(".rs") ? [full] : [];
  });
}

// `#[test]`, also as `#[tokio::test]`-style paths or inside `cfg_attr`; `wasm_bindgen_test(unsupported
// = test)` would make it a plain test off wasm only, which no step compiles: also refused, for plainness.
const PLAIN_TEST = /#\[\s*(?:[a-z_:]*::)?test\s*[\](]|cfg_attr\([^\]]*\btest\s*\)|unsupported\s*=\s*test/;

// `name=move |…| body` (not `name={move …}`, nor a body in braces), then a comparison later on
// the same line.
const UNBRACED = /[\w:-]=move\s*\|[^|]*\|(.*)/;
const COMPARISON = /(>=|<=|\s>\s|\s<\s)/;

function unbracedComparison(line) {
  const closure = UNBRACED.exec(line);
  const body = closure?.[1].trim() ?? "";
  return closure && !body.startsWith("{") && COMPARISON.test(body);
}

const problems = [];
const unbraced = [];
for (const dir of ["src", "tests"]) {
  for (const file of rustFiles(path.join(ROOT, dir))) {
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (line.trim().startsWith("//")) return;
        const at = `${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`;
        if (PLAIN_TEST.test(line)) problems.push(at);
        if (dir === "src" && unbracedComparison(line)) unbraced.push(at);
      });
  }
}

// Fixed pauses in the browser tests' specs (comments aside).
const PAUSE = /\bsleep\(|\bsetTimeout\(|\bwaitForTimeout\b/;
const pauses = [];
const E2E = path.join(ROOT, "tests", "e2e");
for (const entry of readdirSync(E2E).filter((f) => f.endsWith(".spec.mjs") || f.endsWith(".test.mjs"))) {
  readFileSync(path.join(E2E, entry), "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim().startsWith("//")) return;
      if (PAUSE.test(line)) pauses.push(`tests/e2e/${entry}:${i + 1}: ${line.trim()}`);
    });
}

if (problems.length > 0) {
  console.error("Console tests that no runner executes (write them #[wasm_bindgen_test]):");
  for (const p of problems) console.error(`  ${p}`);
}
if (unbraced.length > 0) {
  console.error("Attribute closures with a comparison, unbraced in view! (write attr={move || a >= b}):");
  for (const p of unbraced) console.error(`  ${p}`);
}
if (pauses.length > 0) {
  console.error("Fixed pauses in browser tests (wait for the fact instead: waitFor and the helpers in tests/e2e/harness.mjs):");
  for (const p of pauses) console.error(`  ${p}`);
}
if (problems.length + unbraced.length + pauses.length > 0) process.exit(1);
console.log("ok    every console test is a #[wasm_bindgen_test]; no unbraced comparison in view!; no fixed pause in a browser test");
