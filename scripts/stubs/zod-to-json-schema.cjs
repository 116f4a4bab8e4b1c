// Stands in for zod-to-json-schema in lib/cli/mcp.cjs. The MCP SDK converts
// zod 3 schemas with it; src/cli/mcp/ writes its schemas with zod 4, which
// the SDK converts with zod's own toJSONSchema.
'use strict';
exports.zodToJsonSchema = function zodToJsonSchema() {
  throw new Error('zod 3 schemas are not supported by ln-diff mcp (write them with zod/v4)');
};
