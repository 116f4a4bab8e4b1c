// The error of a request that is not a request (the CLI's exit status 2): a
// value that is not shaped like `ApplyRequest`, or a format name nobody knows,
// and the one check of a request's shape (spec/schema/request.schema.json),
// shared by `validateRequest` and `applyRequest`.

import type { ApplyRequest, EngineOptions } from './types.ts';

/** A request that is not a request (the CLI's exit status 2); the message says what is wrong with it. */
export class RequestError extends Error {
  override name = 'RequestError';
}

/** The fields a request may have (the schema's `properties`; no other is allowed). */
export const REQUEST_FIELDS = ['format', 'files', 'response', 'options'] as const;

/** The fields `options` may have (no other is allowed). */
export const OPTION_FIELDS = ['window', 'fuzzyThreshold', 'whitespace', 'fuzzy'] as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first own key of `object` not in `allowed` whose value is not `undefined` (a key JSON cannot carry), or null. */
function unknownKey(object: Record<string, unknown>, allowed: readonly string[]): string | null {
  for (const key of Object.keys(object)) if (!allowed.includes(key) && object[key] !== undefined) return key;
  return null;
}

/**
 * Check the shape of an untrusted request against the request schema and
 * return it with its defaults filled in (`format` `'auto'`, `files` `{}`);
 * throws `RequestError` naming the first bad field. Unknown fields, of the
 * request or of `options`, are refused (a misspelt `option` or `fuzzyTreshold`
 * would otherwise be silently ignored). A field whose value is `undefined`
 * counts as left out. `formats` is every name `format` may take.
 */
export function checkRequest(value: unknown, formats: readonly string[]): ApplyRequest {
  if (!isPlainObject(value)) throw new RequestError('request must be a JSON object');
  const extra = unknownKey(value, REQUEST_FIELDS);
  if (extra !== null)
    throw new RequestError(`unknown field ${JSON.stringify(extra)} in the request; a request has only ${REQUEST_FIELDS.join(', ')}`);
  const { format = 'auto', files = {}, response, options } = value;
  if (typeof format !== 'string') throw new RequestError('"format" must be a string');
  if (!formats.includes(format)) throw new RequestError(`unknown format "${format}"; expected one of: ${formats.join(', ')}`);
  if (!isPlainObject(files)) throw new RequestError('"files" must be an object mapping paths to text');
  for (const path of Object.keys(files)) {
    if (typeof files[path] !== 'string') throw new RequestError(`"files"[${JSON.stringify(path)}] must be a string`);
  }
  if (typeof response !== 'string') throw new RequestError('"response" must be a string');
  if (options !== undefined) {
    if (!isPlainObject(options)) throw new RequestError('"options" must be an object');
    const extraOption = unknownKey(options, OPTION_FIELDS);
    if (extraOption !== null)
      throw new RequestError(`unknown option ${JSON.stringify(extraOption)} in "options"; the options are ${OPTION_FIELDS.join(', ')}`);
    const w = options.window;
    if (w !== undefined && (typeof w !== 'number' || !Number.isInteger(w) || w < 0))
      throw new RequestError('"options.window" must be a non-negative integer');
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
    ...(options !== undefined ? { options: options as EngineOptions } : {}),
  };
}
