// The glue's classes that nothing uses, and the wasm exports only they call.
//
// wasm-bindgen turns every exported `#[wasm_bindgen]` struct of every crate into a class of the
// glue, and keeps its methods' code in the wasm as exports. Leptos brings server_fn, and with it
// wasm-streams' three stream adapters (`IntoUnderlyingSource` and its kin): the console never
// streams a request, yet their code was in every first load. A class that neither the rest of
// the glue nor the page's other scripts name is removed (with its `Symbol.dispose` line and its
// finalization registry), and the wasm exports that only its code called leave the export
// section, so wasm-opt then drops their functions. A class that Rust hands to JavaScript is named
// by the glue's imports and stays.

import { readFileSync, writeFileSync } from "node:fs";
import { leb, reader, withSection } from "./shorten-imports.mjs";

const CLASS = /^export class (\w+) \{\n[\s\S]*?\n\}\n/gm;

/** The export section of `bytes` without the exports named in `drop`. */
function withoutExports(bytes, drop) {
  const r = reader(bytes, 0);
  const count = r.u32();
  const kept = [];
  for (let i = 0; i < count; i++) {
    const start = r.at();
    const field = r.text();
    r.byte();
    r.u32();
    if (!drop.has(field)) kept.push(bytes.subarray(start, r.at()));
  }
  return Buffer.concat([leb(kept.length), ...kept]);
}

/**
 * Removes, in place, the classes of `gluePath` that are named nowhere else in it nor in
 * `otherScripts` (paths), and their wasm exports from `wasmPath`. Returns the classes removed.
 */
export function dropUnusedClasses(wasmPath, gluePath, otherScripts) {
  let glue = readFileSync(gluePath, "utf8");
  const others = otherScripts.map((file) => readFileSync(file, "utf8")).join("\n");
  const declared = (glue.match(/^export class /gm) ?? []).length;
  const blocks = [...glue.matchAll(CLASS)];
  if (blocks.length !== declared) {
    throw new Error(`${gluePath}: ${declared} classes, ${blocks.length} read; has wasm-bindgen's glue changed?`);
  }
  const removed = [];
  let removedCode = "";
  for (const [block, name] of blocks) {
    const dispose = `if (Symbol.dispose) ${name}.prototype[Symbol.dispose] = ${name}.prototype.free;\n`;
    const registry = new RegExp(`^const ${name}Finalization = [^;]*;\\n`, "m");
    const rest = glue.replace(block, "").replace(dispose, "").replace(registry, "");
    if (new RegExp(`\\b${name}\\b`).test(rest + others)) continue;
    removedCode += block + (glue.match(registry)?.[0] ?? "");
    glue = rest;
    removed.push(name);
  }
  if (removed.length === 0) return removed;
  const called = new Set([...removedCode.matchAll(/\bwasm\.(\w+)/g)].map((m) => m[1]));
  const drop = new Set([...called].filter((field) => !new RegExp(`\\bwasm\\.${field}\\b`).test(glue)));
  writeFileSync(wasmPath, withSection(readFileSync(wasmPath), 7, (body) => withoutExports(body, drop)));
  writeFileSync(gluePath, glue);
  return removed;
}
