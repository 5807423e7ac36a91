// The stylesheet and script, read once and served under content-hashed names so browsers may cache
// them for a year; a new build changes the name. Nothing is fetched from elsewhere at run time.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

interface Asset {
  name: string;
  body: Buffer;
  type: string;
}

// src/http and dist/http both sit two levels under the package root, beside assets/.
const assetDirectory = new URL('../../assets/', import.meta.url);

function load(file: string, type: string): Asset {
  const body = readFileSync(new URL(file, assetDirectory));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 10);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, body, type };
}

const stylesheet = load('console.css', 'text/css; charset=utf-8');
const script = load('console.js', 'text/javascript; charset=utf-8');
const byName = new Map([stylesheet, script].map((asset) => [asset.name, asset]));

export const stylesheetPath = `/console/assets/${stylesheet.name}`;
export const scriptPath = `/console/assets/${script.name}`;

export function serveAsset(request: Request, response: Response): void {
  const asset = byName.get(String(request.params.name));
  if (!asset) {
    response.status(404).type('text/plain').set('Cache-Control', 'no-store').send('Not found');
    return;
  }
  response
    .status(200)
    .type(asset.type)
    .set('Cache-Control', 'public, max-age=31536000, immutable')
    .send(asset.body);
}
