// The TypeScript driver of the conformance suite (clients/conformance):
// plays script.json's loops with the TypeScript Agent against the sidecar
// at ADDR and prints the transcript as JSON.
//
//   node dist/conformance/run.js ADDR SCRIPT PREFIX

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, Client, ToolFormat, ToolFormatSchema, ToolSearchMode, ToolSearchModeSchema } from "../src/index.js";

interface Loop {
  name: string;
  session: string;
  format: string;
  search_mode: string;
  always_loaded: string[];
  visible_tools?: string[];
  deferral_threshold: number;
  turns: Array<{ tool_search?: string; call_tool?: string }>;
}

function enumValue(schema: typeof ToolFormatSchema | typeof ToolSearchModeSchema, name: string): number {
  const v = schema.values.find((x) => x.name === name);
  if (!v) throw new Error(`unknown enum value ${name}`);
  return v.number;
}

async function main(addr: string, scriptPath: string, prefix: string): Promise<void> {
  const script = JSON.parse(readFileSync(scriptPath, "utf8")) as { loops: Loop[] };
  const client = new Client(addr, { timeoutMs: 60_000 });
  const loops = [];
  for (const loop of script.loops) {
    const mode = enumValue(ToolSearchModeSchema, loop.search_mode) as ToolSearchMode;
    const format = enumValue(ToolFormatSchema, loop.format) as ToolFormat;
    const agent = new Agent(client, {
      alwaysLoaded: loop.always_loaded,
      visibleTools: loop.visible_tools ?? [],
      deferralThreshold: loop.deferral_threshold,
      searchMode: mode,
    });
    const session = `${prefix}-${loop.session}`;
    await agent.reset(session);
    const turns = [];
    for (const [i, turn] of loop.turns.entries()) {
      const ts = await agent.tools(session, format);
      const toolset = {
        loaded: ts.loaded,
        deferred: ts.deferred,
        search_mode: ts.searchMode,
        tools_sha256: createHash("sha256").update(ts.toolsJson, "utf8").digest("hex"),
      };
      let result: unknown;
      if (turn.call_tool) {
        const name = ts.catalogName(turn.call_tool);
        await agent.toolCalled(session, name);
        result = { reported: name };
      } else if (mode === ToolSearchMode.NATIVE_CLIENT && format === ToolFormat.ANTHROPIC) {
        result = await agent.anthropicToolResult(session, `toolu_${i + 1}`, turn.tool_search ?? "");
      } else if (mode === ToolSearchMode.NATIVE_CLIENT && format === ToolFormat.OPENAI_RESPONSES) {
        result = await agent.openAIToolSearchOutput(session, { type: "tool_search_call", call_id: `call_${i + 1}`, arguments: turn.tool_search ?? "" });
      } else {
        result = await agent.handleToolCall(session, turn.tool_search ?? "");
      }
      turns.push({ toolset, result });
    }
    loops.push({ name: loop.name, turns });
  }
  process.stdout.write(JSON.stringify({ loops }));
}

const [addr, scriptPath, prefix] = process.argv.slice(2);
if (!addr || !scriptPath || !prefix) {
  console.error("usage: run.js ADDR SCRIPT PREFIX");
  process.exit(2);
}
main(addr, scriptPath, prefix).catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
