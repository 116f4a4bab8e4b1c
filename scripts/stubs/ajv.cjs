// Stands in for ajv and ajv-formats in lib/cli/mcp.cjs. The MCP SDK's server
// uses them only to check a client's answers to elicitation requests, which
// `ln-diff mcp` never sends (src/cli/mcp/server.ts gives the server a
// validator of its own); leaving them out keeps 280 kB out of the bundle.
'use strict';
function unavailable() {
  throw new Error('ajv is not bundled with ln-diff mcp');
}
module.exports = unavailable;
module.exports.default = unavailable;
