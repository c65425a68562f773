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

/**
 * What the loader `source` fetches for each split point of `names`: a map from name to the files
 * it fetches, in the order it starts them. `names` empty: the split points it exports, sorted, as
 * keys with no files. Throws when the loader cannot be read or a name is none of its points.
 */
export async function splitFetches(source, names) {
  // The loader imports the glue's initSync (for the main module's table and memory): stubbed, it
  // hands over a table whose every entry is a no-op callback.
  const glue = /import\s*\{\s*initSync(?:\s+as\s+([\w$]+))?\s*\}\s*from\s*["'][^"']+["']\s*;?/;
  const found = source.match(glue);
  if (!found) throw new Error("no `import { initSync } from ...` to stub; has wasm-split's loader changed?");
  const local = found[1] ?? "initSync";
  const stubbed = source.replace(
    glue,
    `const ${local} = () => ({ __indirect_function_table: { get: () => () => {} }, memory: {} });`,
  );
  const fetched = [];
  const real = { fetch: globalThis.fetch, instantiateStreaming: WebAssembly.instantiateStreaming };
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
    const answer = new Map();
    if (names.length === 0) {
      for (const point of points.sort()) answer.set(point, []);
      return answer;
    }
    for (const name of names) {
      if (!points.includes(name)) throw new Error(`no split point "${name}" (there are: ${points.join(", ")})`);
      const module = await fresh(name);
      fetched.length = 0;
      // The loader starts every fetch before its first await: they are all recorded on return.
      module[`${prefix}${name}`](0, 0);
      answer.set(name, [...fetched]);
    }
    return answer;
  } finally {
    globalThis.fetch = real.fetch;
    WebAssembly.instantiateStreaming = real.instantiateStreaming;
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const [loader, ...names] = process.argv.slice(2);
  if (!loader || names.length === 0) {
    console.error("usage: node scripts/split-fetches.mjs LOADER (NAME... | --list)");
    process.exit(2);
  }
  let answer;
  try {
    answer = await splitFetches(readFileSync(loader, "utf8"), names[0] === "--list" ? [] : names);
  } catch (error) {
    console.error(`${loader}: ${error.message}`);
    process.exit(2);
  }
  for (const [name, files] of answer) console.log(names[0] === "--list" ? name : [name, ...files].join(" "));
}
