// `wasm-opt -Oz` on many modules, through binaryen's own JavaScript API (npm `binaryen`, the
// same build as its `wasm-opt` command), one worker thread per core.
//
// Why not the `wasm-opt` command: npm's binaryen is WebAssembly, and each `wasm-opt` process
// decodes and compiles its 10 MB of it before it reads a module. For the split build's ~145
// modules, most of them a few KB, that start-up was most of the time (209 s of a cold build on
// 2 cores); one compile per worker takes the whole set to about 25 s.
//
// The output is byte for byte the command's: `-Oz` is optimize level 2, shrink level 2 and the
// default passes, and the command also turns on Stack IR at those levels
// (src/tools/optimization-options.h), which the API leaves off unless asked.

import { readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker, isMainThread, parentPort } from "node:worker_threads";

/** The command's `-Oz --strip-debug --strip-producers --strip-target-features`. */
export const DESCRIPTION = "-Oz --strip-debug --strip-producers --strip-target-features";

/** Optimises each file in place; rejects with the first failure, and stops every thread. */
export async function optimiseAll(files) {
  const queue = [...files];
  const threads = Array.from({ length: Math.max(1, Math.min(availableParallelism(), queue.length)) }, () => {
    const thread = new Worker(new URL(import.meta.url), { stderr: true });
    passOn(thread.stderr);
    return thread;
  });
  const drain = (thread) =>
    new Promise((resolve, reject) => {
      const next = () => {
        const file = queue.shift();
        if (file) thread.postMessage(file);
        else resolve();
      };
      thread.on("message", (message) => (message.error ? reject(new Error(`wasm-opt ${message.file}: ${message.error}`)) : next()));
      thread.on("error", reject);
      thread.on("exit", (code) => reject(new Error(`a wasm-opt thread stopped (exit code ${code})`)));
      next();
    });
  try {
    await Promise.all(threads.map(drain));
  } finally {
    await Promise.all(threads.map((thread) => thread.terminate()));
  }
}

/**
 * The worker's error output, less the one warning every module gives: rustc writes label names
 * (name subsection 3), which binaryen 132 does not read and skips.
 */
function passOn(stream) {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const line of lines) if (!/^warning: unknown name subsection with id 3 at \d+$/.test(line)) process.stderr.write(`${line}\n`);
  });
  stream.on("end", () => rest && process.stderr.write(`${rest}\n`));
}

async function serve() {
  const { default: binaryen } = await import("binaryen");
  // The features the console's wasm uses (README, "Browsers"); the modules' own target
  // features section names the same.
  const F = binaryen.Features;
  const features = F.BulkMemory | F.NontrappingFPToInt | F.SignExt | F.MutableGlobals | F.ReferenceTypes | F.Multivalue;
  parentPort.on("message", (file) => {
    try {
      binaryen.setDebugInfo(false);
      const module = binaryen.readBinary(readFileSync(file));
      module.setFeatures(module.getFeatures() | features);
      binaryen.setOptimizeLevel(2);
      binaryen.setShrinkLevel(2);
      binaryen.setGenerateStackIR(true);
      binaryen.setOptimizeStackIR(true);
      module.optimize();
      // The target features section only guides a linker: every chunk carried ~0.1 KB of it.
      module.runPasses(["strip-debug", "strip-producers", "strip-target-features"]);
      writeFileSync(file, module.emitBinary());
      module.dispose();
      parentPort.postMessage({ file });
    } catch (error) {
      parentPort.postMessage({ file, error: String(error?.message ?? error) });
    }
  });
}

if (!isMainThread) await serve();
