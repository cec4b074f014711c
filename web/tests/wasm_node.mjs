// Loading the WebAssembly engine (public/wasm/, built by scripts/build-wasm.sh) in Node for the
// Vitest tests, and reading the shared record examples (tests/data/records).
import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const wasmDir = fileURLToPath(new URL('../public/wasm/', import.meta.url));
const recordsDir = fileURLToPath(new URL('../../tests/data/records/', import.meta.url));

/** loadEngine's options under Node: the module's file URL and the .wasm's bytes. */
export function nodeEngineOptions() {
  const wasm = path.join(wasmDir, 'tarneeb-offline.wasm');
  if (!existsSync(wasm)) throw new Error(`${wasm} is missing: run scripts/build-wasm.sh first`);
  // emscripten 3.1.6's EXPORT_ES6 output still reads the CommonJS globals `require` and
  // `__dirname` in its Node branch (later versions use import.meta): provide them.
  globalThis.require ??= createRequire(import.meta.url);
  globalThis.__dirname ??= wasmDir;
  return { moduleUrl: pathToFileURL(path.join(wasmDir, 'tarneeb-offline.mjs')).href, wasmBinary: readFileSync(wasm) };
}

/** The names of the record examples (rec0000 …, special00 …), sorted. */
export function recordNames() {
  return readdirSync(recordsDir)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** The record's text and its expected tarneeb-result/1 (parsed). */
export function readRecord(name) {
  return {
    text: readFileSync(path.join(recordsDir, `${name}.json`), 'utf8'),
    expected: JSON.parse(readFileSync(path.join(recordsDir, `${name}.expected.json`), 'utf8')),
  };
}
