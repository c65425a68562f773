// Checks a release build before anything serves it: the page loads the
// app through boot.js (no inline script), every local file it names exists,
// and the wasm is a complete, valid module. A broken dist/ would otherwise
// show up only as a blank page in the browser.
//
//   node scripts/check-dist.mjs [DIST]      (default: dist)

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const dist = process.argv[2] ?? "dist";
const problems = [];
const indexPath = path.join(dist, "index.html");

if (!existsSync(indexPath)) {
  console.error(`error: ${indexPath} is missing`);
  process.exit(1);
}
const html = readFileSync(indexPath, "utf8");

for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
  if (!/\bsrc=/.test(tag)) problems.push(`inline script (the CSP blocks it): ${tag}`);
}
const boot = /<script\b[^>]*\bdata-gifting-boot\b[^>]*>/.exec(html)?.[0];
if (!boot) {
  problems.push("no <script data-gifting-boot> loader: check addBootTag in scripts/build-console.mjs");
} else {
  for (const attr of ["src", "data-js", "data-wasm"]) {
    if (!new RegExp(`\\b${attr}="/[^"]+"`).test(boot)) problems.push(`loader tag lacks ${attr}: ${boot}`);
  }
}

// Every root-relative file the page names must be in dist/.
const referenced = new Set();
// Quoted or not: a minifier may drop the quotes it can.
for (const match of html.matchAll(/\b(?:src|href|data-js|data-wasm)=(?:"\/([^"?#]+)"|\/([^\s"'>?#]+))/g)) {
  referenced.add(match[1] ?? match[2]);
}
// A tag's Subresource Integrity must be its file's, or the browser refuses the file (an
// unstyled console, no icon).
for (const tag of html.match(/<link\b[^>]*\bintegrity=[^>]*>/g) ?? []) {
  const file = /\bhref="?\/([^"\s>]+)/.exec(tag)?.[1];
  const [algorithm, digest] = /\bintegrity="?([^"\s>]+)/.exec(tag)[1].split("-");
  const full = path.join(dist, file ?? "-");
  if (!file || !existsSync(full)) continue;
  if (createHash(algorithm).update(readFileSync(full)).digest("base64") !== digest) {
    problems.push(`the integrity of /${file} in index.html is not its content's`);
  }
}

// Preloaded by the page, but written by whoever serves dist/ (the sandbox and the gateway
// answer it themselves), so never part of the build.
referenced.delete("config.json");
for (const file of referenced) {
  const full = path.join(dist, file);
  if (!existsSync(full)) problems.push(`index.html names /${file}, which is not in ${dist}/`);
  else if (statSync(full).size === 0) problems.push(`${full} is empty`);
}

// The split build's chunks sit beside the main wasm; each must be complete too.
const folders = new Set([...referenced].filter((file) => file.includes("/")).map((file) => path.dirname(file)));
for (const folder of folders) {
  for (const file of readdirSync(path.join(dist, folder))) referenced.add(path.join(folder, file));
}
for (const file of referenced) {
  if (!file.endsWith(".wasm") || !existsSync(path.join(dist, file))) continue;
  try {
    new WebAssembly.Module(readFileSync(path.join(dist, file)));
  } catch (error) {
    problems.push(`${path.join(dist, file)} is not a valid wasm module: ${error.message}`);
  }
}
if (![...referenced].some((file) => file.endsWith(".wasm"))) problems.push("index.html names no .wasm");

if (problems.length > 0) {
  for (const problem of problems) console.error(`error: ${problem}`);
  console.error("(if another build ran at the same time in this checkout, run make build again)");
  process.exit(1);
}
console.log(`ok    ${dist}/: loader, ${referenced.size} files, wasm valid`);
