// An agent loop on the Anthropic Messages API with the sidecar's tool
// search: each turn sends the session's tool list; tool_search calls are
// answered by the Agent (portable by default; TOOLSEARCH_NATIVE=1 for
// Anthropic's native tool_reference protocol), other tool calls are run by
// the application (here a stub) and reported for learning.
//
//   make run                                   # the sidecar, in another terminal
//   ANTHROPIC_API_KEY=… node dist/examples/anthropic.js "send 'deploy done' to #ops on slack"

import Anthropic from "@anthropic-ai/sdk";
import { randomUUID } from "node:crypto";
import { Agent, Client, SEARCH_TOOL_NAME, ToolFormat, ToolSearchMode } from "../src/index.js";

export async function run(task: string, anthropic: Anthropic, sidecar: Client, native: boolean, model = "claude-sonnet-4-6"): Promise<string> {
  const agent = new Agent(sidecar, { searchMode: native ? ToolSearchMode.NATIVE_CLIENT : ToolSearchMode.PORTABLE, model });
  const session = randomUUID();
  const messages: Anthropic.Messages.MessageParam[] = [{ role: "user", content: task }];
  for (let turn = 0; turn < 8; turn++) {
    const ts = await agent.tools(session, ToolFormat.ANTHROPIC);
    const resp = await anthropic.messages.create({
      model,
      max_tokens: 1024,
      ...(ts.systemPrompt ? { system: ts.systemPrompt } : {}),
      tools: ts.tools as Anthropic.Messages.ToolUnion[],
      messages,
    });
    messages.push({ role: "assistant", content: resp.content });
    const results: Anthropic.Messages.ToolResultBlockParam[] = [];
    for (const block of resp.content) {
      if (block.type !== "tool_use") continue;
      const input = block.input as Record<string, unknown>;
      if (block.name === SEARCH_TOOL_NAME) {
        results.push(
          native
            ? await agent.anthropicToolResult(session, block.id, input)
            : { type: "tool_result", tool_use_id: block.id, content: await agent.handleToolCall(session, input) },
        );
        continue;
      }
      const name = ts.catalogName(block.name);
      results.push({ type: "tool_result", tool_use_id: block.id, content: `ok: ${name} ran with ${JSON.stringify(input)}` }); // run the tool here
      await agent.toolCalled(session, name).catch((e: unknown) => console.error("report:", e));
    }
    if (results.length === 0) {
      return resp.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    }
    messages.push({ role: "user", content: results });
  }
  return "(stopped after 8 turns)";
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.env["ANTHROPIC_API_KEY"]) {
    console.error("set ANTHROPIC_API_KEY (and run the sidecar: make run) to run this example");
    process.exit(2);
  }
  const sidecar = new Client(process.env["TOOLSEARCH_URL"] ?? "http://127.0.0.1:50051", { token: process.env["TOOLSEARCH_TOKEN"] ?? "" });
  console.log(await run(process.argv[2] ?? "send 'deploy done' to #ops on slack", new Anthropic(), sidecar, process.env["TOOLSEARCH_NATIVE"] === "1"));
}
