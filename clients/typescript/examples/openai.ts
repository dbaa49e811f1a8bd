// An agent loop on the OpenAI Responses API with the sidecar's tool search:
// each turn sends the session's tool list; tool_search calls are answered by
// the Agent (portable function calls by default; TOOLSEARCH_NATIVE=1 for
// OpenAI's native tool_search_call → tool_search_output protocol), other
// function calls are run by the application (here a stub) and reported.
//
//   make run                                   # the sidecar, in another terminal
//   OPENAI_API_KEY=… node dist/examples/openai.js "open a github issue about the flaky test"

import OpenAI from "openai";
import { randomUUID } from "node:crypto";
import { Agent, Client, SEARCH_TOOL_NAME, ToolFormat, ToolSearchMode } from "../src/index.js";

export async function run(task: string, openai: OpenAI, sidecar: Client, native: boolean, model = "gpt-5.4"): Promise<string> {
  const agent = new Agent(sidecar, { searchMode: native ? ToolSearchMode.NATIVE_CLIENT : ToolSearchMode.PORTABLE, model });
  const session = randomUUID();
  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: "user", content: task }];
  for (let turn = 0; turn < 8; turn++) {
    const ts = await agent.tools(session, ToolFormat.OPENAI_RESPONSES);
    const resp = await openai.responses.create({
      model,
      ...(ts.systemPrompt ? { instructions: ts.systemPrompt } : {}),
      tools: ts.tools as OpenAI.Responses.Tool[],
      input,
    });
    input.push(...(resp.output as OpenAI.Responses.ResponseInputItem[]));
    let answered = 0;
    for (const item of resp.output) {
      if (item.type === "tool_search_call") {
        const out = await agent.openAIToolSearchOutput(session, item as unknown as Record<string, unknown>);
        input.push(out as OpenAI.Responses.ResponseToolSearchOutputItemParam);
        answered++;
      } else if (item.type === "function_call") {
        let output: string;
        if (item.name === SEARCH_TOOL_NAME) {
          output = await agent.handleToolCall(session, item.arguments);
        } else {
          const name = ts.catalogName(item.name);
          output = `ok: ${name} ran with ${item.arguments}`; // run the tool here
          await agent.toolCalled(session, name).catch((e: unknown) => console.error("report:", e));
        }
        input.push({ type: "function_call_output", call_id: item.call_id, output });
        answered++;
      }
    }
    if (answered === 0) return resp.output_text;
  }
  return "(stopped after 8 turns)";
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!process.env["OPENAI_API_KEY"]) {
    console.error("set OPENAI_API_KEY (and run the sidecar: make run) to run this example");
    process.exit(2);
  }
  const sidecar = new Client(process.env["TOOLSEARCH_URL"] ?? "http://127.0.0.1:50051", { token: process.env["TOOLSEARCH_TOKEN"] ?? "" });
  console.log(await run(process.argv[2] ?? "open a github issue about the flaky test", new OpenAI(), sidecar, process.env["TOOLSEARCH_NATIVE"] === "1"));
}
