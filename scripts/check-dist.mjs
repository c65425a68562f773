// Checks a release build before anything serves it: the page loads the
// app through boot.js (no inline script), every local file it names exists,
// the wasm is a complete, valid module, and every file the page runs or shows
// has a recorded digest that is its content's. A broken dist/ would otherwise
// show up only as a blank page in the browser.
//
//   node scripts/check-dist.mjs [DIST]      (default: dist)

import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

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
  if (!/\bintegrity="sha/.test(boot)) problems.push(`loader tag lacks integrity: ${boot}`);
}

// Every root-relative file the page names must be in dist/.
const referenced = new Set();
// Quoted or not: a minifier may drop the quotes it can.
for (const match of html.matchAll(/\b(?:src|href|data-js|data-wasm)=(?:"\/([^"?#]+)"|\/([^\s"'>?#]+))/g)) {
  referenced.add(match[1] ?? match[2]);
}
// A tag's Subresource Integrity must be its file's, or the browser refuses the file (an
// unstyled console, no icon, a console that does not start).
/** Files (by path in dist/) whose digest something the browser already checked carries. */
const covered = new Set();
/**
 * Whether `digest` (`sha256-<base64>`) is the content of `file` in dist/, and of its .br and
 * .gz copies once decoded (a server sends those in its place); `where` names whoever records it.
 */
function checkDigest(file, digest, where) {
  const full = path.join(dist, file);
  covered.add(file);
  if (!existsSync(full)) return problems.push(`${where} has a digest of /${file}, which is not in ${dist}/`);
  const [algorithm, expected] = digest.split(/-(.*)/s);
  const copies = [[full, (bytes) => bytes], [`${full}.br`, brotliDecompressSync], [`${full}.gz`, gunzipSync]];
  for (const [copy, decode] of copies) {
    if (!existsSync(copy)) continue;
    if (createHash(algorithm).update(decode(readFileSync(copy))).digest("base64") !== expected) {
      problems.push(`the digest of /${file} in ${where} is not the content of ${copy}`);
    }
  }
}
for (const tag of html.match(/<(?:link|script)\b[^>]*\bintegrity=[^>]*>/g) ?? []) {
  const file = /\b(?:href|src)="?\/([^"\s>]+)/.exec(tag)?.[1];
  if (file) checkDigest(file, /\bintegrity="?([^"\s>]+)/.exec(tag)[1], "index.html");
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

// What the page fetches after boot carries its digest from something already checked: the glue,
// the split loader, the wasm and the language bundles from the boot tag's data-integrity
// (boot.js checks or fetches them), the packs and digests.json from the split loader, the other
// chunks from digests.json (scripts/pack-chunks.mjs). Every file of the code's folder must have
// one, and each must be its file's.
const app = /\bdata-js="\/([^"]+)\//.exec(boot ?? "")?.[1];
const recorded = /\bdata-integrity='([^']*)'/.exec(boot ?? "")?.[1];
if (app && recorded !== undefined) {
  let fromBoot = {};
  try {
    fromBoot = JSON.parse(recorded);
  } catch {
    problems.push(`the boot tag's data-integrity is not JSON: ${recorded}`);
  }
  for (const [file, digest] of Object.entries(fromBoot)) checkDigest(path.join(app, file), digest, "the boot tag");
  // The loader's map as terser leaves it (the map renamed, its `"file":"digest"` pairs as
  // written), and digests.json, whose digest is in it.
  const DIGEST = /"([\w.-]+\.(?:wasm|pack|json))":"(sha256-[A-Za-z0-9+/]+=*)"/g;
  for (const holder of ["__wasm_split.js", "digests.json"]) {
    const full = path.join(dist, app, holder);
    const source = existsSync(full) ? readFileSync(full, "utf8") : "";
    const found = [...source.matchAll(DIGEST)];
    if (found.length === 0) problems.push(`/${app}/${holder} records no digest`);
    for (const [, file, digest] of found) checkDigest(path.join(app, file), digest, holder);
  }
  for (const file of readdirSync(path.join(dist, app))) {
    if (!/\.(br|gz)$/.test(file) && !covered.has(path.join(app, file))) problems.push(`/${app}/${file} has no recorded digest`);
  }
} else {
  problems.push(`the boot tag lacks data-js or data-integrity='…': ${boot}`);
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`error: ${problem}`);
  console.error("(if another build ran at the same time in this checkout, run make build again)");
  process.exit(1);
}
console.log(`ok    ${dist}/: loader, ${referenced.size} files, wasm valid, ${covered.size} digests`);
