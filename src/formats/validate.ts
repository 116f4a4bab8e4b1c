// Checking an untrusted request (parsed JSON) before it reaches the engine:
// its shape, field by field, and its format name against the registry.

import { RequestError } from '../core/request.ts';
import type { ApplyRequest } from '../core/types.ts';
import { FORMAT_NAMES } from './index.ts';

export { RequestError };

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
