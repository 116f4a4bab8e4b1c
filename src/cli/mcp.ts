// `ln-diff mcp`, loaded only for that command (lib/cli/mcp.cjs): the MCP
// server and the SDK it is built on stay out of every other command.

export { mcp, type McpCommand } from './mcp/server.ts';
