#!/usr/bin/env node
// The files the split loader fetches to run one split point (a screen's area, `home`, or any
// other `wasm_split` name): its chunk and every shared chunk it waits for, in the order the
// loader starts them. Read from the loader itself (`__wasm_split.js`, as minified in dist/): it
// is run in node with `fetch` and WebAssembly stubbed, and `__wasm_split_load_<NAME>` called,
// so the answer is whatever the loader really resolves, not a parse of its text.
//
//   node scripts/split-fetches.mjs DIST/app-*/__wasm_split.js NAME...
//     prints, per NAME, a line `NAME file file ...` (file names beside the loader);
//   node scripts/split-fetches.mjs LOADER --list
//     prints the split points the loader exports, one a line.
// Exits 2 when the loader cannot be read or a NAME is not one of its split points.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [loader, ...names] = process.argv.slice(2);
if (!loader || names.length === 0) {
  console.error("usage: node scripts/split-fetches.mjs LOADER (NAME... | --list)");
  process.exit(2);
}

// The loader imports the glue's initSync (for the main module's table and memory): stubbed, it
// hands over a table whose every entry is a no-op callback.
const source = readFileSync(loader, "utf8");
const glue = /import\s*\{\s*initSync(?:\s+as\s+([\w$]+))?\s*\}\s*from\s*["'][^"']+["']\s*;?/;
const found = source.match(glue);
if (!found) {
  console.error(`${loader}: no \`import { initSync } from ...\` to stub; has wasm-split's loader changed?`);
  process.exit(2);
}
const local = found[1] ?? "initSync";
const stubbed = source.replace(
  glue,
  `const ${local} = () => ({ __indirect_function_table: { get: () => () => {} }, memory: {} });`,
);

const fetched = [];
globalThis.fetch = (url) => {
  fetched.push(path.basename(new URL(url).pathname));
  return new Promise(() => {});
};
WebAssembly.instantiateStreaming = async () => ({ instance: {}, module: {} });

const folder = mkdtempSync(path.join(tmpdir(), "split-fetches-"));
try {
  const copy = path.join(folder, "__wasm_split.mjs");
  writeFileSync(copy, stubbed);
  // A fresh instance of the loader per name: it remembers what it has loaded.
  const fresh = (tag) => import(`${pathToFileURL(copy).href}?${encodeURIComponent(tag)}`);
  const prefix = "__wasm_split_load_";
  const points = Object.keys(await fresh("--list")).filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  if (names[0] === "--list") {
    for (const point of points.sort()) console.log(point);
  } else {
    for (const name of names) {
      if (!points.includes(name)) {
        console.error(`${loader}: no split point "${name}" (there are: ${points.join(", ")})`);
        process.exit(2);
      }
      const module = await fresh(name);
      fetched.length = 0;
      // The loader starts every fetch before its first await: they are all recorded on return.
      module[`${prefix}${name}`](0, 0);
      console.log([name, ...fetched].join(" "));
    }
  }
} finally {
  rmSync(folder, { recursive: true, force: true });
}
