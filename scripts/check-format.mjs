#!/usr/bin/env node
// Fails when the console writes a number, an amount or a date for the screen by hand instead of
// through `src/components/format.rs`, the one place that formats them (counts grouped in the
// viewer's locale, amounts with their currency, dates in the locale's medium style). By hand,
// "5000" stands beside "5,000" and "2026-10-01" beside "Nov 27, 2026" on one screen.
//
// What it refuses, in the console's code (tests and comments aside):
//   - a count interpolated straight before what it counts: `format!("{n} users")`; write
//     `format!("{} users", count(n))` (or `count_of` for "412 of 1,234");
//   - progress written by hand: `"{done} of {of}"`;
//   - a share written by hand: `"{p} %"` (use `format::percent`);
//   - a date or a time written by hand: chrono's `.format("%…")`, `to_rfc3339` shown;
//   - the browser's formatters called anywhere else: `NumberFormat`, `DateTimeFormat`,
//     `toLocale…`;
//   - the plain-text amount formatters (`format_grouped`, `format_money`) outside the files that
//     write report files (CSV keeps the platform's plain text, which spreadsheets read).
// The e2e spec `format.spec.mjs` checks what the screens show at enterprise size.
// Run: `node scripts/check-format.mjs`.

import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The formatters screens call, and the `Intl` number formatting under them (the catalog's
// counts use it too).
const FORMATTERS = new Set(["src/components/format.rs", "src/i18n/intl.rs"]);
// Files that write report files (CSV) with plain-text amounts.
const REPORT_WRITERS = new Set(["src/spend/report.rs", "src/pages/home/export.rs"]);

const NOUNS =
  "sends?|users?|rows?|admins?|pages?|writes?|members?|groups?|team groups?|campaigns?|products?|requests?|jobs?";
const RULES = [
  [new RegExp(`\\{[a-z_][a-z_0-9.]*\\}\\s+(?:${NOUNS})\\b`), "a count before what it counts: format it with count()"],
  [/\{[a-z_][a-z_0-9.]*\} of \{/, "progress by hand: use count_of()"],
  [/\{[a-z_][a-z_0-9.]*\}\s?%/, "a share by hand: use format::percent()"],
  [/\.format\("%/, "a date by hand: use format::date() or format::date_time()"],
  [/\b(NumberFormat|DateTimeFormat|to_locale_(?:date_|time_)?string)\b/, "the browser's formatter outside format.rs"],
];
const PLAIN_AMOUNT = /\b(format_grouped|format_money)\(/;

function rustFiles(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return rustFiles(full);
    return entry.endsWith(".rs") ? [full] : [];
  });
}

const problems = [];
for (const file of rustFiles(path.join(ROOT, "src"))) {
  const name = path.relative(ROOT, file);
  if (FORMATTERS.has(name) || name.endsWith("/testing.rs") || name.includes("/test_")) continue;
  const lines = readFileSync(file, "utf8").split("\n");
  for (const [i, line] of lines.entries()) {
    // A file's tests sit at its end: what they print is not shown to anyone.
    if (line.trim().startsWith("#[cfg(test)]")) break;
    if (line.trim().startsWith("//")) continue;
    const at = `${name}:${i + 1}: ${line.trim()}`;
    for (const [rule, why] of RULES) if (rule.test(line)) problems.push(`${at}\n    ${why}`);
    if (PLAIN_AMOUNT.test(line) && !REPORT_WRITERS.has(name)) {
      problems.push(`${at}\n    a plain-text amount on screen: use format::money() or format::amount()`);
    }
  }
}

// The catalog's English: a count goes in a plural (`{n, plural, one {# user} other {# users}}`),
// never as text before its noun.
const english = path.join(ROOT, "locales", "en");
for (const file of readdirSync(english).filter((f) => f.endsWith(".msg"))) {
  for (const [i, line] of readFileSync(path.join(english, file), "utf8").split("\n").entries()) {
    if (line.startsWith("#")) continue;
    if (RULES[0][0].test(line)) {
      problems.push(`locales/en/${file}:${i + 1}: ${line.trim()}\n    a count before what it counts: use a plural`);
    }
  }
}

if (problems.length > 0) {
  console.error("Numbers, amounts or dates written by hand (src/components/format.rs formats them):");
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log("check-format: every number, amount and date on screen goes through format.rs");
