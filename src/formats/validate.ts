// Checking an untrusted request (parsed JSON) before it reaches the engine:
// its shape, field by field (src/core/request.ts), and its format name
// against the registry.

import { checkRequest, RequestError } from '../core/request.ts';
import type { ApplyRequest } from '../core/types.ts';
import { FORMAT_NAMES } from './index.ts';

export { RequestError };

/**
 * Check the shape of an untrusted request against spec/schema/request.schema.json;
 * throws RequestError naming the first bad field (an unknown field of the
 * request or of `options` included). `applyRequest` makes the same check.
 */
export function validateRequest(value: unknown): ApplyRequest {
  return checkRequest(value, FORMAT_NAMES);
}
