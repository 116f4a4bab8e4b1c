// Stands in for zod 3 ('zod' and 'zod/v3') in lib/cli/mcp.cjs: the build
// aliases the package `zod` to this folder. The MCP SDK imports zod 3 only to
// accept schemas written with it (`instanceof ZodOptional` on a prompt's
// arguments, false for zod 4 schemas; `object` for a shape of zod 3 schemas
// only); src/cli/mcp/ writes its schemas with zod 4, so nothing of zod 3 runs
// and the bundle leaves it out. zod 4 ('zod/v4', 'zod/v4-mini') is the real
// one, through the files beside this one.
export class ZodOptional {}
export function object() {
  throw new Error('zod 3 schemas are not supported by ln-diff mcp (write them with zod/v4)');
}
