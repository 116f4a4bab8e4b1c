// Where the MCP server may read and write: the server's root (`--root`,
// default the current directory), narrowed by the client's roots when the
// client has them. Paths from a tool call or a reply stay relative to the
// server's root, as in `ln-diff apply --base`; the client's roots only say
// which parts of it may be touched.
//
// Narrowing: a client root inside the server's root allows that directory;
// a client root holding the server's root allows the whole server root; a
// client root elsewhere allows nothing. A client that lists roots, none of
// which meets the server's root, leaves nothing to touch: every call says so.

import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isInside } from '../disk.ts';

/** The directories a call may touch, all resolved through symlinks. */
export interface Allowed {
  /** The server's root (the base every path is relative to). */
  base: string;
  /** Where under `base` files may be read and written (`[base]` when the client sent no roots). */
  dirs: string[];
  /** The client's roots as it sent them (file URIs), or null when it sent none. */
  clientRoots: string[] | null;
}

/** A client root URI as a resolved directory, or null when it is not a `file:` URI of a directory that exists. */
function rootDir(uri: string): string | null {
  try {
    if (!uri.startsWith('file:')) return null;
    return realpathSync(fileURLToPath(uri));
  } catch {
    return null;
  }
}

/** The server's root narrowed by the client's roots (see the top of this file). */
export function narrow(base: string, clientRoots: readonly string[] | null): Allowed {
  if (clientRoots === null) return { base, dirs: [base], clientRoots: null };
  const dirs = new Set<string>();
  for (const uri of clientRoots) {
    const dir = rootDir(uri);
    if (dir === null) continue;
    if (isInside(base, dir)) dirs.add(dir);
    else if (isInside(dir, base)) dirs.add(base);
  }
  return { base, dirs: [...dirs], clientRoots: [...clientRoots] };
}

/**
 * Why `abs` (a resolved path under `base`) may not be touched, or null when
 * it lies in an allowed directory.
 */
export function outsideRoots(allowed: Allowed, file: string, real: string): string | null {
  if (allowed.dirs.some((dir) => isInside(dir, real))) return null;
  const roots = (allowed.clientRoots ?? []).join(', ') || '(none)';
  if (allowed.dirs.length === 0)
    return `the client's roots (${roots}) do not meet the server's root ${allowed.base}, so no file may be touched; add a root that holds the files`;
  const where = allowed.dirs.map((d) => path.relative(allowed.base, d) || '.').join(', ');
  return `${JSON.stringify(file)} is outside the client's roots (${roots}); paths must lie under ${where} (relative to ${allowed.base})`;
}
