// Short names for what the main wasm imports from its JavaScript glue.
//
// wasm-bindgen names each JavaScript function the wasm imports after the Rust binding and a
// hash (`__wbg_addEventListener_70e3766f6252144d`), under the module `./gifting-console_bg.js`.
// Every name is written twice in the first load, in the wasm's import section and as a key of
// the glue's table of imports, and the hashes do not compress: 291 of them weighed 6.9 KB
// brotli of the first load. They become `_0`, `_1`, … in both files (the import module `w`).
// Nothing else reads them: the wasm finds its imports by their place in the import section's
// order, which stays, and the glue hands them over as one object.

import { readFileSync, writeFileSync } from "node:fs";

export function reader(bytes, at) {
  let p = at;
  const u32 = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[p++];
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return value >>> 0;
  };
  const text = () => {
    const length = u32();
    p += length;
    return bytes.subarray(p - length, p).toString();
  };
  return { u32, text, byte: () => bytes[p++], skip: (n) => (p += n), at: () => p };
}

export function leb(value) {
  const out = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest) byte |= 0x80;
    out.push(byte);
  } while (rest);
  return Buffer.from(out);
}

const name = (text) => Buffer.concat([leb(Buffer.byteLength(text)), Buffer.from(text)]);

/** The import section with the glue's imports renamed; `renames` gets each old -> new name. */
function renameImports(bytes, module, renames) {
  const r = reader(bytes, 0);
  const count = r.u32();
  const entries = [leb(count)];
  for (let i = 0; i < count; i++) {
    const from = r.text();
    const field = r.text();
    const desc = r.at();
    const kind = r.byte();
    if (kind === 0) r.u32(); // a function: its type
    else if (kind === 1 || kind === 2) {
      if (kind === 1) r.byte(); // a table: its element type
      const flags = r.u32();
      r.u32();
      if (flags & 1) r.u32();
    } else if (kind === 3) r.skip(2); // a global: type, mutability
    else throw new Error(`import ${from}.${field}: kind ${kind} not known`);
    let entry = [name(from), name(field)];
    if (from === module) {
      const short = `_${renames.size.toString(36)}`;
      renames.set(field, short);
      entry = [name("w"), name(short)];
    }
    entries.push(...entry, bytes.subarray(desc, r.at()));
  }
  return Buffer.concat(entries);
}

/** The module `wasm` with the body of each section `id` replaced by `rewrite(body)`. */
export function withSection(wasm, id, rewrite) {
  const parts = [wasm.subarray(0, 8)];
  const r = reader(wasm, 8);
  while (r.at() < wasm.length) {
    const start = r.at();
    const section = r.byte();
    const size = r.u32();
    const body = r.at();
    r.skip(size);
    if (section !== id) {
      parts.push(wasm.subarray(start, r.at()));
      continue;
    }
    const rewritten = rewrite(wasm.subarray(body, body + size));
    parts.push(Buffer.from([id]), leb(rewritten.length), rewritten);
  }
  return Buffer.concat(parts);
}

/** Renames in place the imports of `wasmPath` from `module` and their keys in `gluePath`. */
export function shortenImports(wasmPath, gluePath, module) {
  const renames = new Map();
  const renamed = withSection(readFileSync(wasmPath), 2, (body) => renameImports(body, module, renames));
  if (renames.size === 0) throw new Error(`${wasmPath}: no import from ${module}`);
  let glue = readFileSync(gluePath, "utf8");
  const replaceOnce = (pattern, by, what) => {
    const found = glue.match(pattern) ?? [];
    if (found.length !== 1) throw new Error(`${gluePath}: ${what} found ${found.length} times, not once; has wasm-bindgen's glue changed?`);
    glue = glue.replace(pattern, by);
  };
  for (const [from, to] of renames) replaceOnce(new RegExp(`\\b${from}\\b`, "g"), to, from);
  replaceOnce(new RegExp(`["']${module.replace(/[./]/g, "\\$&")}["'](?=\\s*:)`, "g"), "w", module);
  writeFileSync(wasmPath, renamed);
  writeFileSync(gluePath, glue);
  return renames.size;
}
