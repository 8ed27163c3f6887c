import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';

let registered = false;

/**
 * Lets tfjs load `file://` model URLs from disk. Only `@tensorflow/tfjs-node` has such a loader,
 * and we run on the wasm backend without it. Safe to call more than once.
 *
 * @example
 * registerFileLoader(); // then modelBasePath: 'file:///…/models/'
 */
export function registerFileLoader(): void {
  if (registered) return;
  registered = true;
  // tfjs asks every router and skips the ones that answer null, though its type says otherwise.
  const router = (url: string | string[]): tf.io.IOHandler | null => {
    const u = Array.isArray(url) ? url[0] : url;
    if (typeof u !== 'string' || !u.startsWith('file://')) return null;
    const path = fileURLToPath(u);
    return {
      async load(): Promise<tf.io.ModelArtifacts> {
        const json = JSON.parse(readFileSync(path, 'utf8')) as {
          modelTopology?: object;
          format?: string;
          generatedBy?: string;
          convertedBy?: string | null;
          signature?: object;
          userDefinedMetadata?: Record<string, object>;
          modelInitializer?: object;
          weightsManifest?: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
        };
        const weightSpecs: tf.io.WeightsManifestEntry[] = [];
        const parts: Buffer[] = [];
        for (const group of json.weightsManifest ?? []) {
          weightSpecs.push(...group.weights);
          for (const p of group.paths) parts.push(readFileSync(join(dirname(path), p)));
        }
        const all = Buffer.concat(parts);
        return {
          modelTopology: json.modelTopology,
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          signature: json.signature,
          userDefinedMetadata: json.userDefinedMetadata,
          modelInitializer: json.modelInitializer,
          weightSpecs,
          weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
        } as tf.io.ModelArtifacts;
      },
    };
  };
  tf.io.registerLoadRouter(router as Parameters<typeof tf.io.registerLoadRouter>[0]);
}
