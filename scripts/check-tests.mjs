#!/usr/bin/env node
// Fails when the console holds a test that no step of `make test` would execute. The console is
// compiled for tests only as wasm32 (`make test-wasm`), where `wasm-bindgen-test-runner` runs
// `#[wasm_bindgen_test]` functions and nothing else: a plain `#[test]` there compiles, is
// counted by nobody and passes by never running. So every console test, in `src/` and in
// `tests/*.rs`, is written `#[wasm_bindgen_test]` (pure logic runs in Node.js, DOM tests in
// Chromium: the `tests/*.rs` files say `run_in_browser`). The other crates are tested natively
// by `make test-native`, where `#[test]` is right. Run: `node scripts/check-tests.mjs`.

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

const problems = [];
for (const dir of ["src", "tests"]) {
  for (const file of rustFiles(path.join(ROOT, dir))) {
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (!line.trim().startsWith("//") && PLAIN_TEST.test(line)) {
          problems.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
        }
      });
  }
}

if (problems.length > 0) {
  console.error("Console tests that no runner executes (write them #[wasm_bindgen_test]):");
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log("ok    every console test is a #[wasm_bindgen_test]");
