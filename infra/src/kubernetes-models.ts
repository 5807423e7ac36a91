// Validates one Kubernetes object against the official OpenAPI schema of its apiVersion and kind, as
// compiled into validators by the kubernetes-models package (types, required fields, enums, formats).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const modelsDirectory = path.dirname(require.resolve('kubernetes-models/package.json'));

interface ModelClass {
  new (data: unknown): { validate(): void };
}

/** `apps/v1` + `Deployment` → the model's module, or undefined for an apiVersion/kind it does not know. */
async function loadModel(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const file = path.join(modelsDirectory, group ? group : '', version!, `${kind}.js`);
  if (!/^[A-Za-z0-9.]*$/.test(group!) || !/^[A-Za-z0-9]+$/.test(version!) || !/^[A-Za-z]+$/.test(kind) || !fs.existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as Record<string, ModelClass>;
  return module[kind];
}

/** undefined when valid; else the schema's complaint. */
export async function validateKubernetesObject(object: { apiVersion?: unknown; kind?: unknown }): Promise<string | undefined> {
  if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') return 'apiVersion and kind are required';
  const Model = await loadModel(object.apiVersion, object.kind);
  if (!Model) return `unknown apiVersion/kind ${object.apiVersion}/${object.kind}`;
  try {
    new Model(object).validate();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
