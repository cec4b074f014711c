import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';

/** Every file under `dir`, as paths relative to it with forward slashes. */
function filesUnder(dir: string, prefix = ''): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(filesUnder(full, `${prefix}${name}/`));
    else out.push(`${prefix}${name}`);
  }
  return out;
}

/** dist/sw.js from sw/sw.js: the list of every file of the build to precache, and its hash. */
function serviceWorker(): Plugin {
  return {
    name: 'tarneeb-sw',
    apply: 'build',
    generateBundle(_options, bundle) {
      const publicDir = path.resolve(import.meta.dirname, 'public');
      if (!existsSync(path.join(publicDir, 'wasm', 'tarneeb-offline.wasm')))
        this.warn('public/wasm/tarneeb-offline.wasm is missing (scripts/build-wasm.sh): offline play will not load');
      const files = [...Object.keys(bundle), ...filesUnder(publicDir)].filter((f) => f !== 'sw.js' && !f.endsWith('.map')).sort();
      const hash = createHash('sha256');
      for (const f of files) {
        const item = bundle[f];
        hash.update(f);
        if (item) hash.update(item.type === 'chunk' ? item.code : item.source);
        else hash.update(readFileSync(path.join(publicDir, f)));
      }
      const source = readFileSync(path.resolve(import.meta.dirname, 'sw/sw.js'), 'utf8')
        .replace('__VERSION__', hash.digest('hex').slice(0, 16))
        .replace('__PRECACHE__', JSON.stringify(files.map((f) => `./${f}`)));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

// `npm run dev` proxies /ws and /api to a server on :18080 (tarneeb serve --port 18080)
export default defineConfig({
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2020' },
  plugins: [serviceWorker()],
  server: {
    proxy: {
      '/ws': { target: 'ws://127.0.0.1:18080', ws: true },
      '/api': 'http://127.0.0.1:18080',
    },
  },
  test: { include: ['tests/**/*.test.ts'], environment: 'node' },
});
