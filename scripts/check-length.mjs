#!/usr/bin/env node
// Lists every Rust function (components are functions) longer than the limit, counted from the
// line of `fn` to its closing brace, in the console's `src/` and each crate's `src/`. A function
// that long mixes jobs; split it (a view-model, a sub-component, a helper). Tests are not counted:
// a table-driven test may be long and still plain. Run: `node scripts/check-length.mjs`; exits 1
// when a function is over the limit. `--all N` lists the N longest whatever their length.
//
// Why not clippy's `too_many_lines`: measured with `too-many-lines-threshold = 40` it reports
// components without props (`Home`) but not many with props (`CampaignFacts`, 80 lines here;
// `SendRow`, 75), whose bodies the `#[component]` macro moves into code it generates. A limit
// that skips most of the console's functions would not hold, so this script stays.

import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIMIT = 80;
// Functions still over the limit, each with the length it may not grow past: a ratchet, so no
// new long function lands and these only shrink. Split one, then delete its line here.
const STILL_LONG = {};
const DIRS = ["src", ...readdirSync(path.join(ROOT, "crates")).map((c) => path.join("crates", c, "src"))];

function rustFiles(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return rustFiles(full);
    return entry.endsWith(".rs") ? [full] : [];
  });
}

/** The text with comments, strings and char literals blanked (lines kept), so braces count true. */
function blank(text) {
  let out = "";
  let i = 0;
  const keepNewlines = (s) => s.replace(/[^\n]/g, " ");
  while (i < text.length) {
    const rest = text.slice(i);
    const m =
      rest.match(/^\/\/[^\n]*/) ||
      rest.match(/^\/\*[\s\S]*?\*\//) ||
      rest.match(/^r(#*)"[\s\S]*?"\1/) ||
      rest.match(/^b?"(?:\\[\s\S]|[^"\\])*"/) ||
      rest.match(/^b?'(?:\\.|[^'\\])'/);
    if (m && (m[0].startsWith("r") ? !/[A-Za-z0-9_]/.test(text[i - 1] ?? "") : true)) {
      out += keepNewlines(m[0]);
      i += m[0].length;
    } else {
      out += text[i];
      i += 1;
    }
  }
  return out;
}

/** Each function of a file with its first line and length, tests (`#[cfg(test)]` modules) left out. */
function functions(file) {
  const text = blank(readFileSync(file, "utf8"));
  const testStart = text.search(/#\[cfg\(test\)\]\s*mod\s/);
  const lineOf = (index) => text.slice(0, index).split("\n").length;
  const found = [];
  for (const m of text.matchAll(/\bfn\s+([A-Za-z_][A-Za-z0-9_]*)/g)) {
    if (testStart >= 0 && m.index > testStart) break;
    // The body starts at the first `{` after the signature; a `;` first means no body.
    let j = m.index;
    while (j < text.length && text[j] !== "{" && text[j] !== ";") j += 1;
    if (text[j] !== "{") continue;
    let depth = 0;
    let k = j;
    for (; k < text.length; k += 1) {
      if (text[k] === "{") depth += 1;
      if (text[k] === "}" && --depth === 0) break;
    }
    const first = lineOf(m.index);
    found.push({ file: path.relative(ROOT, file), name: m[1], line: first, length: lineOf(k) - first + 1 });
  }
  return found;
}

const all = DIRS.flatMap((dir) => rustFiles(path.join(ROOT, dir))).flatMap(functions);
all.sort((a, b) => b.length - a.length);
const listAll = process.argv.indexOf("--all");
if (listAll >= 0) {
  for (const f of all.slice(0, Number(process.argv[listAll + 1] ?? 20))) {
    console.log(`${String(f.length).padStart(4)}  ${f.file}:${f.line} ${f.name}`);
  }
  process.exit(0);
}
const over = all.filter((f) => f.length > LIMIT);
let failures = 0;
for (const f of over) {
  const allowed = STILL_LONG[`${f.file} ${f.name}`];
  const verdict = allowed === undefined ? "new" : f.length > allowed ? `grew past ${allowed}` : "known, to split";
  if (verdict !== "known, to split") failures += 1;
  console.log(`${f.file}:${f.line}: \`${f.name}\` is ${f.length} lines (limit ${LIMIT}; ${verdict})`);
}
if (failures > 0) {
  console.log(`length: ${failures} function(s) over ${LIMIT} lines that are new or grew`);
  process.exit(1);
}
console.log(`length: ${all.length} functions; ${over.length} known ones still over ${LIMIT} lines, none new or grown`);
