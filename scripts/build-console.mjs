#!/usr/bin/env node
// The console's release build, split by route: the first load carries the core
// (shell, sign-in, home), and each area's screens arrive as a wasm chunk on first visit.
// scripts/build-page.mjs writes the page, the stylesheet and the icon; this script builds the
// wasm:
//
//   1. cargo build --profile wasm-release --features split, linked with --emit-relocs
//      (wasm-split needs the relocations to move functions between modules);
//   2. wasm-split-cli: the main module, one chunk per area (plus chunks of code that several
//      areas share) and their loader, __wasm_split.js;
//   3. wasm-bindgen --target web --keep-lld-exports: the JS glue of the main module (the
//      chunks import the main module's table and memory through the kept exports);
//   4. the glue's classes that nothing uses, and their exports, removed
//      (scripts/drop-unused-classes.mjs);
//   5. wasm-opt -Oz (binaryen 132 from npm, through its API: scripts/optimise-wasm.mjs) on
//      every .wasm, one thread per core;
//   6. the main wasm's imports under short names (scripts/shorten-imports.mjs), and home's
//      modules in one pack (scripts/pack-chunks.mjs); terser on the scripts;
//   7. everything under dist/app-<hash>/ (a content hash: the host caches it for a year, and
//      the loader finds the chunks beside itself), and the boot tag and preloads added to
//      dist/index.html.
//
// Usage: node scripts/build-console.mjs   (from `make build`; tools on PATH as the Makefile
// sets it). Any failing step stops the build.
//
// Incremental: cargo decides whether the wasm is relinked. The split, wasm-opt and terser run
// again only when the linked wasm or what shapes their output changed (a key kept beside their
// output), and nothing at all is redone when dist/ was built from the same inputs (a key in
// target/). The Makefile runs one build at a time per checkout (flock).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { minify } from "terser";
import { buildPage, integrity } from "./build-page.mjs";
import { dropUnusedClasses } from "./drop-unused-classes.mjs";
import { DESCRIPTION as WASM_OPT, optimiseAll } from "./optimise-wasm.mjs";
import { packChunks } from "./pack-chunks.mjs";
import { shortenImports } from "./shorten-imports.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TARGET = path.resolve(ROOT, process.env.CARGO_TARGET_DIR || "target");
const DIST = path.join(ROOT, "dist");
const NAME = "gifting-console";
const WORK = path.join(TARGET, "split");
const CONSOLE_TARGET = path.join(TARGET, "console");

function run(command, args, env = {}) {
  console.log(`build-console: ${command} ${args.join(" ")}`);
  execFileSync(command, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...env } });
}

/**
 * Panic messages carry the source path of their crate: shortened to `crate-x.y.z/src/…`, they
 * weigh less and no longer name the build machine's home folder.
 */
function remapSourcePaths() {
  const cargoHome = process.env.CARGO_HOME || path.join(process.env.HOME || "/root", ".cargo");
  const registry = path.join(cargoHome, "registry", "src");
  let indexes = [];
  try {
    indexes = readdirSync(registry).map((index) => path.join(registry, index));
  } catch {
    // No registry yet: nothing to shorten.
  }
  const rustc = execFileSync("rustc", ["-vV"], { encoding: "utf8" }).match(/commit-hash: (\w+)/);
  const sysroot = rustc ? [`/rustc/${rustc[1]}`] : [];
  return [...indexes, ...sysroot, ROOT].map((prefix) => `--remap-path-prefix=${prefix}/=`);
}

// Built with Leptos's `--cfg=erase_components`: each component's view and each reactive child
// is boxed (`AnyView`, a shared closure) instead of a type of its own, so the view code is
// compiled once per kind of node rather than once per view. Home's pack (before it held the
// sign-in's return) weighed 93.0 -> 88.3 KB brotli and the screens' chunks 14-23 % less;
// rendering a page of 100 sends stays within a millisecond (tests/bench/sends.mjs, "in the
// DOM"). The wasm tests and clippy build with it
// too (.cargo/config.toml): a rebuilt element's attributes are then set afresh, not compared
// (so an option's choice is `prop:selected`, which holds either way).
//
// In a target directory of its own (CONSOLE_TARGET): its last minutes are one thread of LTO,
// and cargo locks a target directory for a whole build, so `make build` compiles the servers
// beside it in target/ meanwhile.
function cargoBuild() {
  // With --target, RUSTFLAGS reach only the wasm, not build scripts or proc macros.
  run("cargo", [
    "build", "-p", NAME, "--bin", NAME, "--profile", "wasm-release",
    "--target", "wasm32-unknown-unknown", "--features", "split",
  ], { RUSTFLAGS: ["-Clink-args=--emit-relocs", "--cfg=erase_components", ...remapSourcePaths()].join(" "), CARGO_TARGET_DIR: CONSOLE_TARGET });
  return path.join(CONSOLE_TARGET, "wasm32-unknown-unknown", "wasm-release", `${NAME}.wasm`);
}

/** A content hash of `parts`: buffers, strings, or files and folders named by path. */
function keyOf(parts) {
  const hash = createHash("sha256");
  const add = (part) => {
    if (typeof part !== "string" || !part.startsWith(ROOT)) return hash.update(String(part));
    if (!existsSync(part)) return hash.update(`missing ${part}`);
    if (statSync(part).isDirectory()) {
      for (const child of readdirSync(part).sort()) add(path.join(part, child));
      return hash;
    }
    return hash.update(part).update(readFileSync(part));
  };
  parts.forEach(add);
  return hash.digest("hex");
}

/** What shapes the split, wasm-bindgen, wasm-opt and terser output besides the wasm. */
const TOOLS = ["scripts/build-console.mjs", "scripts/optimise-wasm.mjs", "scripts/pack-chunks.mjs", "scripts/split-fetches.mjs", "scripts/shorten-imports.mjs", "scripts/drop-unused-classes.mjs", "Makefile", "Cargo.lock", "package-lock.json"].map((f) => path.join(ROOT, f));

function splitAndBind(linked) {
  const split = path.join(WORK, "split");
  const pkg = path.join(WORK, "pkg");
  const key = keyOf([readFileSync(linked), WASM_OPT, ...TOOLS]);
  const keyFile = path.join(WORK, "key");
  if (existsSync(keyFile) && readFileSync(keyFile, "utf8") === key) {
    console.log("build-console: the linked wasm is unchanged: its split, glue and wasm-opt output reused");
    return { pkg, fresh: false };
  }
  rmSync(WORK, { recursive: true, force: true });
  run("wasm-split-cli", ["--target", "web", "--out-name", NAME, linked, split]);
  run("wasm-bindgen", [
    "--target", "web", "--keep-lld-exports", "--no-typescript",
    "--out-dir", pkg, "--out-name", NAME, path.join(split, `${NAME}.wasm`),
  ]);
  // The loader and the chunks sit beside the glue they import.
  for (const file of readdirSync(split)) {
    if (file !== `${NAME}.wasm`) copyFileSync(path.join(split, file), path.join(pkg, file));
  }
  return { pkg, fresh: true, commit: () => writeFileSync(keyFile, key) };
}

/**
 * Home's modules in one pack (scripts/pack-chunks.mjs): after sign-in the sign-in's return,
 * the app's reads, the signed-in shell, home and its figures are wanted one after the other, so
 * they come as one download, asked for as soon as the platform sends the admin back (home's
 * code arrives while the sign-in is completed; 93.1 KB brotli instead of 120.5 KB in 119 files,
 * and no chain of round trips). The signed-out page fetches none of it.
 */
const PACKS = [{ name: "home.pack", points: ["signin", "app_reads", "signed_in", "home", "home_figures"] }];

async function pack(pkg) {
  for (const { name, members } of await packChunks(pkg, PACKS)) {
    for (const file of members) rmSync(path.join(pkg, file));
    console.log(`build-console: ${name}: ${members.length} modules`);
  }
}

/** wasm-opt on every module: they are independent. */
async function optimise(pkg) {
  const modules = readdirSync(pkg).filter((f) => f.endsWith(".wasm"));
  console.log(`build-console: wasm-opt ${WASM_OPT} on ${modules.length} modules`);
  await optimiseAll(modules.map((f) => path.join(pkg, f)));
}

/**
 * The glue, the split loader and boot.js are part of the first load: minified (names inside the
 * modules shortened, comments and dead code dropped; exports keep their names, the wasm
 * imports them by name) they weigh 9.2 -> 7.2 KB brotli.
 */
async function minifyScripts(pkg, fresh) {
  const scripts = fresh ? readdirSync(pkg).filter((f) => f.endsWith(".js")).map((f) => path.join(pkg, f)) : [];
  // The loader (boot.js, copied by buildPage) is the first script the page runs.
  for (const file of [...scripts, path.join(DIST, "boot.js")]) {
    const source = readFileSync(file, "utf8");
    const { code } = await minify(source, {
      module: true,
      ecma: 2020,
      compress: { passes: 2 },
      format: { comments: false },
    });
    if (!code) throw new Error(`terser produced nothing for ${file}`);
    writeFileSync(file, code);
    console.log(`build-console: terser ${path.basename(file)}: ${source.length} -> ${code.length} bytes`);
  }
}

/** Copies the build into dist/app-<hash>/ and returns that folder's URL path. */
function publish(pkg) {
  const hash = createHash("sha256");
  const files = readdirSync(pkg).sort();
  for (const file of files) hash.update(file).update(readFileSync(path.join(pkg, file)));
  const folder = `app-${hash.digest("hex").slice(0, 16)}`;
  mkdirSync(path.join(DIST, folder), { recursive: true });
  for (const file of files) copyFileSync(path.join(pkg, file), path.join(DIST, folder, file));
  return `/${folder}`;
}

/**
 * One bundle per language other than English (`i18n-de.json`, … and the pseudo-languages),
 * beside the glue: boot.js fetches the chosen one. The catalog is checked on the way, so a
 * missing key or a broken message fails the build. Built in the console's target directory:
 * target/ may be busy with the servers.
 */
function writeBundles(pkg) {
  for (const file of readdirSync(pkg).filter((f) => f.startsWith("i18n-"))) rmSync(path.join(pkg, file));
  run("cargo", [
    "run", "--quiet", "-p", "gifting-catalog", "--bin", "catalog-bundles", "--",
    path.join(ROOT, "locales"), pkg,
  ], { CARGO_TARGET_DIR: CONSOLE_TARGET });
}

/**
 * The loader tag (boot.js reads the glue and wasm paths from it) and preloads of both, each with
 * its file's Subresource Integrity: index.html (sent `no-cache`) is where trust starts. The
 * browser checks boot.js against its tag, and the glue and the split loader against their
 * modulepreloads, which the import of the glue then takes from the browser's module map (a
 * module's imports carry no integrity of their own). The tag's `data-integrity` gives boot.js
 * the digests of what it fetches or checks itself: the glue and the split loader again (WebKit
 * runs a module its modulepreload refused), the wasm and the language bundles. The split loader
 * carries the digests of the chunks and packs it fetches (scripts/pack-chunks.mjs).
 */
function addBootTag(base) {
  const index = path.join(DIST, "index.html");
  const html = readFileSync(index, "utf8");
  const folder = path.join(DIST, base);
  const wasm = `${NAME}_bg.wasm`;
  const digests = {};
  for (const file of [`${NAME}.js`, "__wasm_split.js", wasm, ...readdirSync(folder).filter((f) => /^i18n-.*\.json$/.test(f)).sort()]) {
    digests[file] = integrity(readFileSync(path.join(folder, file)));
  }
  const tags =
    `<script type="module" src="/boot.js" integrity="${integrity(readFileSync(path.join(DIST, "boot.js")))}" data-gifting-boot data-js="${base}/${NAME}.js" data-wasm="${base}/${wasm}" data-integrity='${JSON.stringify(digests)}'></script>\n` +
    `    <link rel="modulepreload" href="${base}/${NAME}.js" integrity="${digests[`${NAME}.js`]}">\n` +
    `    <link rel="modulepreload" href="${base}/__wasm_split.js" integrity="${digests["__wasm_split.js"]}">\n` +
    `    <link rel="preload" href="${base}/${wasm}" as="fetch" type="application/wasm" crossorigin integrity="${digests[wasm]}">\n`;
  if (!html.includes("</head>")) throw new Error("dist/index.html has no </head>");
  writeFileSync(index, html.replace("</head>", `    ${tags}  </head>`));
}

const linked = cargoBuild();
// Everything dist/ is made of: when it was built from exactly this, it stands as it is.
const distKey = keyOf([
  readFileSync(linked), WASM_OPT, ...TOOLS,
  ...["index.html", "boot.js", "scripts/build-page.mjs", "style", "assets", "locales", "crates/gifting-catalog"].map((f) => path.join(ROOT, f)),
]);
// Kept beside the build, not in dist/ (which is served): the key and the code's folder.
const distKeyFile = path.join(TARGET, "split-dist-key");
const [builtKey, builtBase] = existsSync(distKeyFile) ? readFileSync(distKeyFile, "utf8").split("\n") : [];
const distStands =
  builtKey === distKey &&
  existsSync(path.join(DIST, "index.html")) &&
  existsSync(path.join(DIST, builtBase ?? "-")) &&
  readFileSync(path.join(DIST, "index.html"), "utf8").includes(`${builtBase}/`);
if (distStands) {
  console.log("build-console: dist/ was built from these very inputs: nothing to do");
} else {
  rmSync(distKeyFile, { force: true });
  console.log(`build-console: the page: ${buildPage(ROOT, DIST).join(", ")}`);
  const split = splitAndBind(linked);
  if (split.fresh) {
    const dropped = dropUnusedClasses(
      path.join(split.pkg, `${NAME}_bg.wasm`), path.join(split.pkg, `${NAME}.js`),
      [path.join(ROOT, "boot.js"), path.join(split.pkg, "__wasm_split.js")],
    );
    console.log(`build-console: classes of the glue nothing uses, removed: ${dropped.join(", ") || "none"}`);
    await optimise(split.pkg);
    const renamed = shortenImports(path.join(split.pkg, `${NAME}_bg.wasm`), path.join(split.pkg, `${NAME}.js`), `./${NAME}_bg.js`);
    console.log(`build-console: ${renamed} imports of the main wasm shortened`);
    await pack(split.pkg);
  }
  await minifyScripts(split.pkg, split.fresh);
  split.commit?.();
  writeBundles(split.pkg);
  const base = publish(split.pkg);
  addBootTag(base);
  writeFileSync(distKeyFile, `${distKey}\n${base}`);
  console.log(`build-console: the console is in dist/ (code under ${base}/)`);
}
