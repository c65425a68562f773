#!/usr/bin/env node
// Fails on an attribute closure with a comparison left unbraced in `view!`: the macro reads
// `disabled=move || a >= b` as the tag ending at `>`, and the rest of the closure becomes text
// on the page while the attribute and the handlers after it are lost (it compiles). Brace it:
// `disabled={move || a >= b}`. Run: `node scripts/check-view.mjs`.

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

// `name=move |…| body` (not `name={move …}`, nor a body in braces), then a comparison later on
// the same line.
const UNBRACED = /[\w:-]=move\s*\|[^|]*\|(.*)/;
const COMPARISON = /(>=|<=|\s>\s|\s<\s)/;

const problems = [];
for (const file of rustFiles(path.join(ROOT, "src"))) {
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      const closure = UNBRACED.exec(line);
      const body = closure?.[1].trim() ?? "";
      if (closure && !body.startsWith("{") && COMPARISON.test(body) && !line.trim().startsWith("//")) {
        problems.push(`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`);
      }
    });
}

if (problems.length > 0) {
  console.error("Attribute closures with a comparison, unbraced in view! (write attr={move || a >= b}):");
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log("ok    no unbraced attribute closure with a comparison in view!");
