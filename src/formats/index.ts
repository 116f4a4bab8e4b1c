// The format registry: one line per format. Nothing else names a format.

import { lnDiff } from './ln-diff/index.ts';
import { searchReplace } from './search-replace/index.ts';
import { whole } from './whole/index.ts';
import { udiff } from './udiff/index.ts';
import { roo } from './roo/index.ts';
import { udiffx } from './udiffx/index.ts';
import { hashline } from './hashline/index.ts';
import { between } from './between/index.ts';
import { applyPatch } from './apply-patch/index.ts';
import { strReplace } from './str-replace/index.ts';
import { runFormat } from '../core/run.ts';
import type { ApplyRequest, ApplyResult, Detection, Format } from '../core/types.ts';

export const formats: readonly Format[] = [
  lnDiff,
  searchReplace,
  whole,
  udiff,
  roo,
  udiffx,
  hashline,
  between,
  applyPatch,
  strReplace,
];

export const FORMAT_NAMES: readonly string[] = ['auto', ...formats.map((f) => f.name)];

export function getFormat(name: string): Format | undefined {
  return formats.find((f) => f.name === name);
}

/** Pick the format a reply is written in: the highest score wins, ties go to registry order. */
export function detectFormat(reply: string): { format: Format; detection: Detection } {
  let best: { format: Format; score: number; reason: string } | null = null;
  for (const format of formats) {
    const { score, reason } = format.detect(reply);
    if (!best || score > best.score) best = { format, score, reason };
  }
  const chosen = best ?? { format: formats[0], score: 0, reason: '' };
  const reason =
    chosen.score > 0 ? chosen.reason : `no format recognised the reply; defaulting to ${chosen.format.name}`;
  return { format: chosen.format, detection: { format: chosen.format.name, reason } };
}

/** A request that is not a request: the CLI's exit code 2. */
export class RequestError extends Error {
  override name = 'RequestError';
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Check the shape of an untrusted request; throws RequestError naming the first bad field. */
export function validateRequest(value: unknown): ApplyRequest {
  if (!isPlainObject(value)) throw new RequestError('request must be a JSON object');
  const { format = 'auto', files = {}, response, options } = value;
  if (typeof format !== 'string') throw new RequestError('"format" must be a string');
  if (!FORMAT_NAMES.includes(format))
    throw new RequestError(`unknown format "${format}"; expected one of: ${FORMAT_NAMES.join(', ')}`);
  if (!isPlainObject(files)) throw new RequestError('"files" must be an object mapping paths to text');
  for (const [path, text] of Object.entries(files)) {
    if (typeof text !== 'string') throw new RequestError(`"files"["${path}"] must be a string`);
  }
  if (typeof response !== 'string') throw new RequestError('"response" must be a string');
  if (options !== undefined) {
    if (!isPlainObject(options)) throw new RequestError('"options" must be an object');
    for (const key of ['window'] as const) {
      const v = options[key];
      if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0))
        throw new RequestError(`"options.${key}" must be a non-negative integer`);
    }
    const t = options.fuzzyThreshold;
    if (t !== undefined && (typeof t !== 'number' || !(t >= 0 && t <= 1)))
      throw new RequestError('"options.fuzzyThreshold" must be a number from 0 to 1');
    for (const key of ['whitespace', 'fuzzy'] as const) {
      const v = options[key];
      if (v !== undefined && typeof v !== 'boolean') throw new RequestError(`"options.${key}" must be true or false`);
    }
  }
  return {
    format,
    files: files as Record<string, string>,
    response,
    ...(options ? { options: options as ApplyRequest['options'] } : {}),
  };
}

/** Parse, match and apply a request: the engine behind `ln-diff apply --json`. */
export function applyRequest(request: ApplyRequest): ApplyResult {
  if (request.format === 'auto') {
    const { format, detection } = detectFormat(request.response);
    return { ...runFormat(format, request), detection };
  }
  const format = getFormat(request.format);
  if (!format) throw new RequestError(`unknown format "${request.format}"`);
  return runFormat(format, request);
}
