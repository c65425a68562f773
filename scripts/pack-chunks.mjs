// Packs: the wasm modules that split points fetch one after the other, sent as one file.
//
// wasm-split gives each set of split points that share code a chunk of its own, so reaching home
// takes about a hundred modules, most under 500 bytes. Compressed one by one they weigh far
// more than together (brotli has no history across files: 127.5 KB against 98.8 KB for the
// same bytes in one stream), and each is a request. A pack is those modules end to end; the
// loader (`__wasm_split.js`) is taught where each module sits in its pack, fetches the pack
// when it first needs one of them, and instantiates each module from its slice when the split
// point that needs it runs, as before.
//
// A module goes in the first pack whose split points fetch it. A module reached first from
// somewhere else (a screen opened by its address) brings its whole pack: the bytes the console
// would fetch for home soon anyway.
//
// Every file the loader fetches is checked against its SHA-256 before anything of it is
// instantiated: bytes that are not the build's (a cache or a proxy serving a stale or altered
// file) are refused like a failed download, never run. The loader carries the digests of the
// packs and of `digests.json`, which holds those of the modules on their own (see packedFetch);
// scripts/check-dist.mjs reads them back and checks each against its file.

import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { integrity } from "./build-page.mjs";
import { splitFetches } from "./split-fetches.mjs";

const LOADER = "__wasm_split.js";
/** How the loader fetches a module (wasm-split-cli 0.2): one function like this per module. */
const FETCHER =
  /\(\) => \{\s*const src = fetch\(new URL\("\.\/([\w.-]+)", import\.meta\.url\)\);\s*src\.catch\(\(\) => \{\}\);\s*return async \(imports\) => \(WebAssembly\.instantiateStreaming\(src, imports\)\);\s*\}/g;

/** The digests of the modules the loader fetches on their own, beside the loader. */
export const MODULE_DIGESTS = "digests.json";

/**
 * The loader's own code for packs and digests. Each module's fetching function becomes a call,
 * `fromFile(file)` or `fromPack(pack, place)` (`pack` an index into `packNames`, `place` the
 * module's place in it): the loader is part of the first load, and these calls are shorter than
 * the functions they replace, which pays for the code that reads a pack. Where each module sits
 * is said by the pack itself: a header (its length as 4 bytes, little-endian, then the JSON
 * array of the modules' lengths), then the modules end to end.
 *
 * `digests` (file name to SHA-256) holds the packs' and that of MODULE_DIGESTS, which holds
 * those of the modules on their own: their 81 digests (2.9 KB brotli as digests.json) would add
 * to the first load (SHA-256 does not compress), and home needs none of those modules. A pack
 * or MODULE_DIGESTS is fetched with its digest as its integrity; a module on its own is fetched
 * at once beside MODULE_DIGESTS (fetched once) and its bytes checked when both are in.
 */
function packedFetch(names, digests) {
  return `
// Modules sent in packs (scripts/pack-chunks.mjs).
const packNames = ${JSON.stringify(names)};
// The SHA-256 of the packs and of ${MODULE_DIGESTS} (those of the other modules): a file whose
// bytes are not the build's is refused like a failed download, never instantiated. The copy
// refused may sit in the browser's cache (these files are immutable), so a file refused once is
// asked for again from the server.
const digests = ${JSON.stringify(digests)};
const refused = new Set();
function fetchFile(file, integrity) {
    const answer = fetch(new URL("./" + file, import.meta.url), { integrity, cache: refused.has(file) ? "reload" : "default" });
    answer.catch(() => refused.add(file));
    return answer;
}
let moduleDigests;
function knownDigests() {
    if (moduleDigests === undefined) {
        moduleDigests = fetchFile("${MODULE_DIGESTS}", digests["${MODULE_DIGESTS}"]).then((answer) => answer.json());
        moduleDigests.catch(() => { moduleDigests = undefined; });
    }
    return moduleDigests;
}
const asWasm = (bytes) => new Response(bytes, { headers: { "Content-Type": "application/wasm" } });
async function fetchModule(file) {
    const [answer, known] = await Promise.all([fetchFile(file), knownDigests()]);
    const bytes = await answer.arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    if ("sha256-" + btoa(String.fromCharCode(...digest)) !== known[file]) {
        refused.add(file);
        throw new Error(file + ": not the bytes of this build");
    }
    return asWasm(bytes);
}
const packs = new Map();
async function readPack(pack) {
    const response = await fetchFile(pack, digests[pack]);
    if (!response.ok) throw new Error(pack + ": HTTP " + response.status);
    const buffer = await response.arrayBuffer();
    const header = new DataView(buffer).getUint32(0, true);
    let offset = 4 + header;
    return JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, header))).map((length) => {
        offset += length;
        return new Uint8Array(buffer, offset - length, length);
    });
}
function fetchPacked(index, place) {
    const pack = packNames[index];
    let modules = packs.get(pack);
    if (modules === undefined) {
        modules = readPack(pack);
        // Like a module's load: a failed download is tried again the next time, not remembered.
        modules.catch(() => { if (packs.get(pack) === modules) packs.delete(pack); });
        packs.set(pack, modules);
    }
    return modules.then((found) => asWasm(found[place]));
}
function instantiating(src) {
    src.catch(() => {});
    return async (imports) => WebAssembly.instantiateStreaming(src, imports);
}
const fromFile = (file) => () => instantiating(fetchModule(file));
const fromPack = (index, place) => () => instantiating(fetchPacked(index, place));
`;
}

/**
 * Writes each pack of `packs` ({ name, points }) into `dir` beside the loader, and the loader
 * that reads them. Returns, per pack, its name and its modules.
 */
export async function packChunks(dir, packs) {
  const loaderPath = path.join(dir, LOADER);
  const source = readFileSync(loaderPath, "utf8");
  const sites = [...source.matchAll(FETCHER)].length;
  if (sites === 0 || source.split("fetch(").length - 1 !== sites) {
    throw new Error(`${LOADER}: expected every fetch in a module's fetching function (${FETCHER}); has wasm-split's loader changed?`);
  }
  const points = packs.flatMap((pack) => pack.points);
  const fetches = await splitFetches(source, points);
  const taken = new Set();
  const table = {};
  const written = [];
  for (const { name, points: packPoints } of packs) {
    const members = [...new Set(packPoints.flatMap((point) => fetches.get(point)))].filter((file) => !taken.has(file));
    const modules = members.map((file) => readFileSync(path.join(dir, file)));
    const header = Buffer.from(JSON.stringify(modules.map((module) => module.length)));
    const size = Buffer.alloc(4);
    size.writeUInt32LE(header.length);
    members.forEach((file, place) => {
      taken.add(file);
      table[file] = [written.length, place];
    });
    writeFileSync(path.join(dir, name), Buffer.concat([size, header, ...modules]));
    written.push({ name, members });
  }
  // What the loader fetches: every module left on its own (each fetch is one of its fetching
  // functions, checked above), their digests, and every pack.
  const digestOf = (file) => integrity(readFileSync(path.join(dir, file)));
  const single = [...new Set([...source.matchAll(FETCHER)].map((match) => match[1]))].filter((file) => !(file in table));
  writeFileSync(path.join(dir, MODULE_DIGESTS), JSON.stringify(Object.fromEntries(single.sort().map((file) => [file, digestOf(file)]))));
  const digests = Object.fromEntries([MODULE_DIGESTS, ...written.map((pack) => pack.name)].map((file) => [file, digestOf(file)]));
  const glue = /^import[^;]*;/;
  if (!glue.test(source)) throw new Error(`${LOADER}: no import line first; has wasm-split's loader changed?`);
  const patched = source
    .replace(glue, (line) => line + packedFetch(written.map((pack) => pack.name), digests))
    .replace(FETCHER, (_, file) => (file in table ? `fromPack(${table[file].join(", ")})` : `fromFile(${JSON.stringify(file)})`));
  // What the patched loader fetches: no packed module on its own, each pack once per point.
  const after = await splitFetches(patched, points);
  for (const [point, files] of after) {
    const single = files.filter((file) => file in table);
    if (single.length > 0) throw new Error(`${LOADER}: ${point} still fetches ${single.join(", ")} on its own`);
  }
  writeFileSync(loaderPath, patched);
  return written;
}
