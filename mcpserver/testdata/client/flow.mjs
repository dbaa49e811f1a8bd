// The MCP endpoint's flow with the official TypeScript SDK client
// (@modelcontextprotocol/sdk, pinned in package.json):
//
//   1. tools/list holds tool_search and the always-loaded tools only;
//   2. tool_search answers the reference format, as text and as
//      structuredContent (the SDK validates it against the outputSchema);
//   3. notifications/tools/list_changed arrives;
//   4. tools/list again holds the found tool, with its full inputSchema;
//   5. the found tool is called through and answers;
//   6. an unrevealed tool is refused with the "search first" error.
//
// Usage: node flow.mjs '<config JSON>', where the config is
//   {"url": "http://127.0.0.1:8090/mcp"}                 streamable HTTP, or
//   {"command": "...", "args": [...], "cwd": "...", "env": {...}}  stdio (a process),
// plus "query", "expectTool", "alwaysLoaded" (names listed from the start),
// "call": {"name", "arguments", "expectText"} and "unrevealed" (a tool name).
// Prints one line per step; exits 1 on the first failure.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const cfg = JSON.parse(process.argv[2] ?? "{}");
const fail = (msg) => {
  console.error(`flow: ${msg}`);
  process.exit(1);
};
const step = (msg) => console.log(`flow: ${msg}`);

// waitFor resolves when the promise does, and fails the run after ms: a
// bound on an event that must come, not a timing measurement.
const waitFor = (promise, ms, what) => {
  let timer;
  const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} after ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

async function main() {
  const transport = cfg.url
    ? new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers: cfg.headers ?? {} } })
    : new StdioClientTransport({ command: cfg.command, args: cfg.args ?? [], cwd: cfg.cwd, env: { ...process.env, ...(cfg.env ?? {}) }, stderr: "inherit" });
  const client = new Client({ name: "toolsearch-flow", version: "1.0.0" });
  let changed;
  const listChanged = new Promise((resolve) => (changed = resolve));
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
  await client.connect(transport);
  step(`connected over ${cfg.url ? "streamable HTTP" : "stdio"}, protocol ${transport.protocolVersion ?? "negotiated"}`);

  const want = ["tool_search", ...(cfg.alwaysLoaded ?? [])];
  const first = (await client.listTools()).tools.map((t) => t.name);
  if (JSON.stringify(first) !== JSON.stringify(want)) fail(`first tools/list is ${JSON.stringify(first)}, want ${JSON.stringify(want)}`);
  step(`first tools/list: ${JSON.stringify(first)}`);

  const found = await client.callTool({ name: "tool_search", arguments: { query: cfg.query, max_results: 3 } });
  if (found.isError) fail(`tool_search failed: ${JSON.stringify(found.content)}`);
  const text = found.content?.[0]?.text;
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(found.structuredContent)) fail("tool_search text and structuredContent differ");
  const names = found.structuredContent.tool_references.map((r) => r.tool_name);
  if (!names.includes(cfg.expectTool)) fail(`tool_search "${cfg.query}" found ${JSON.stringify(names)}, want ${cfg.expectTool} among them`);
  step(`tool_search "${cfg.query}" found ${JSON.stringify(names)}`);

  await waitFor(listChanged, 10000, "notifications/tools/list_changed");
  step("received notifications/tools/list_changed");

  const second = (await client.listTools()).tools;
  const tool = second.find((t) => t.name === cfg.expectTool);
  if (!tool) fail(`second tools/list lacks ${cfg.expectTool}: ${JSON.stringify(second.map((t) => t.name))}`);
  if (tool.inputSchema?.type !== "object" || Object.keys(tool.inputSchema.properties ?? {}).length === 0)
    fail(`${cfg.expectTool} is listed without its input schema: ${JSON.stringify(tool.inputSchema)}`);
  if (JSON.stringify(second.slice(0, first.length).map((t) => t.name)) !== JSON.stringify(first)) fail("the second list does not start with the first");
  step(`second tools/list: ${JSON.stringify(second.map((t) => t.name))}`);

  const called = await client.callTool({ name: cfg.call.name, arguments: cfg.call.arguments });
  const out = (called.content ?? []).map((c) => c.text ?? "").join("");
  if (called.isError || !out.includes(cfg.call.expectText)) fail(`${cfg.call.name} answered ${JSON.stringify(called)}, want "${cfg.call.expectText}"`);
  step(`${cfg.call.name} answered ${JSON.stringify(out)}`);

  const refused = await client.callTool({ name: cfg.unrevealed, arguments: {} });
  const why = (refused.content ?? []).map((c) => c.text ?? "").join("");
  if (!refused.isError || !why.includes("Search first")) fail(`unrevealed ${cfg.unrevealed} answered ${JSON.stringify(refused)}, want the search-first error`);
  step(`unrevealed ${cfg.unrevealed} refused: ${why}`);

  await client.close();
  step("ok");
}

main().catch((err) => fail(err?.stack ?? String(err)));
