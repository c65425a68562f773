// The page around the wasm: dist/index.html, the stylesheet, the icon and boot.js.
//
// index.html names its sources by their path in the repository (`href="style/main.css"`). Each
// becomes a file named by its content (`/main-<hash>.css`, cached for a year by the servers)
// with its Subresource Integrity, the stylesheet minified by lightningcss (its comments are for
// its readers, not for the first load), and the page itself stripped of comments and the
// whitespace between tags. boot.js is copied as it is; build-console.mjs minifies it with the
// glue and adds its tag.
//
// Done here rather than by Trunk: Trunk cannot split the wasm, so all it did was this, and
// installing it took 5 to 7 minutes of a cold `make test`. lightningcss-wasm 1.30 is the
// minifier Trunk 0.21 links (lightningcss 1.0.0-alpha.65), compiled to WebAssembly: the
// stylesheet is byte for byte what Trunk wrote.

import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { transform } from "lightningcss-wasm";

/** `<link rel=… href=…>` tags whose href is a file of the repository, and how each is built. */
const ASSETS = {
  stylesheet: (source, file) =>
    Buffer.from(transform({ filename: file, code: source, minify: true }).code),
  icon: (source) => source,
};

/** `name-<16 hex>.ext`: the servers cache a name with a hex part of 8 or more for a year. */
function contentName(file, bytes) {
  const { name, ext } = path.parse(file);
  return `${name}-${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}${ext}`;
}

/**
 * A file's Subresource Integrity: its SHA-256, as `<link integrity>`, `<script integrity>` and
 * fetch() take it. Every file the page runs or shows carries one (scripts/check-dist.mjs).
 */
export const integrity = (bytes) => `sha256-${createHash("sha256").update(bytes).digest("base64")}`;

/** Comments and the whitespace between tags go; text and attribute values stay as written. */
export function minifyHtml(html) {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/>\s+</g, "><")
    .trim();
}

/**
 * Writes dist/ afresh: the page, its assets under content names, and boot.js. Returns the
 * names written, for the log.
 */
export function buildPage(root, dist) {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(dist, { recursive: true });
  const written = [];
  const page = readFileSync(path.join(root, "index.html"), "utf8").replace(
    /<link rel="(stylesheet|icon)" href="([^"/][^"]*)">/g,
    (_, rel, file) => {
      const bytes = ASSETS[rel](readFileSync(path.join(root, file)), file);
      const name = contentName(file, bytes);
      writeFileSync(path.join(dist, name), bytes);
      written.push(name);
      return `<link rel="${rel}" href="/${name}" integrity="${integrity(bytes)}">`;
    },
  );
  if (written.length !== Object.keys(ASSETS).length) {
    throw new Error(`index.html: expected a stylesheet and an icon by repository path, found ${written.join(", ") || "none"}`);
  }
  writeFileSync(path.join(dist, "index.html"), minifyHtml(page));
  copyFileSync(path.join(root, "boot.js"), path.join(dist, "boot.js"));
  return [...written, "index.html", "boot.js"];
}
