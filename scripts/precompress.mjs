// Writes FILE.br (brotli, quality 11) and FILE.gz (gzip -9) next to each
// compressible file of a release build, so a static host sends them as they
// are (the sandbox's ServeDir, nginx's brotli_static/gzip_static) instead of
// compressing 1.6 MB of wasm on every first visit. A compressed copy is kept
// only when it is smaller. index.html is left alone: it is tiny and is also
// served as the fallback for every client-side route.
//
//   node scripts/precompress.mjs [DIST]      (default: dist)

import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const dist = process.argv[2] ?? "dist";
const COMPRESSIBLE = /\.(wasm|pack|js|mjs|css|json|svg|txt)$/;

let written = 0;
for (const name of readdirSync(dist, { recursive: true })) {
  const file = path.join(dist, String(name));
  if (!statSync(file).isFile() || !COMPRESSIBLE.test(file)) continue;
  // Copies newer than their file were made from it: an unchanged build compresses nothing.
  const made = statSync(file).mtimeMs;
  const fresh = (copy) => existsSync(copy) && statSync(copy).mtimeMs >= made;
  if (fresh(`${file}.br`) && fresh(`${file}.gz`)) continue;
  const raw = readFileSync(file);
  const copies = [
    [`${file}.br`, brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        [constants.BROTLI_PARAM_MODE]: /\.(wasm|pack)$/.test(file) ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
      },
    })],
    [`${file}.gz`, gzipSync(raw, { level: 9 })],
  ];
  for (const [target, bytes] of copies) {
    if (bytes.length < raw.length) {
      writeFileSync(target, bytes);
      written++;
    } else {
      rmSync(target, { force: true });
    }
  }
}
console.log(`precompressed ${written} files in ${dist}/ (.br, .gz)`);
