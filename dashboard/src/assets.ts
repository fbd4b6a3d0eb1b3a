/**
 * The dashboard's static files: its stylesheet and page script (in the
 * package's `assets/` folder) and uPlot's browser build and stylesheet (from
 * the `uplot` package). Read once on first request, then served from memory
 * with a day of caching.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

interface Asset {
  type: string;
  locate: () => string;
}

const own = (name: string) => () => fileURLToPath(new URL(`../assets/${name}`, import.meta.url));
const fromUplot = (file: string) => () => createRequire(import.meta.url).resolve(`uplot/dist/${file}`);

const ASSETS: Record<string, Asset> = {
  'dashboard.css': { type: 'text/css; charset=utf-8', locate: own('dashboard.css') },
  'dashboard.js': { type: 'text/javascript; charset=utf-8', locate: own('dashboard.js') },
  'uplot.js': { type: 'text/javascript; charset=utf-8', locate: fromUplot('uPlot.iife.min.js') },
  'uplot.css': { type: 'text/css; charset=utf-8', locate: fromUplot('uPlot.min.css') },
};

const cache = new Map<string, Promise<ArrayBuffer>>();

/** The names served under `<base>/assets/`. */
export const ASSET_NAMES = Object.keys(ASSETS);

/** The asset `name` as a response, or null when there is no such asset. */
export async function assetResponse(name: string): Promise<Response | null> {
  const asset = ASSETS[name];
  if (!asset) return null;
  let body = cache.get(name);
  if (!body) {
    body = readFile(asset.locate()).then(
      (buffer) => buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer,
    );
    cache.set(name, body);
    body.catch(() => cache.delete(name));
  }
  return new Response(await body, {
    headers: {
      'content-type': asset.type,
      'cache-control': 'private, max-age=86400',
      'x-content-type-options': 'nosniff',
    },
  });
}
