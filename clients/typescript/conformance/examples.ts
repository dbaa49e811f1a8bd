// Runs examples/anthropic.ts and examples/openai.ts, portable and native,
// through the real pinned SDKs against the sidecar at ADDR, with a loopback
// stub in place of the provider's API that plays a scripted model (search,
// call the first tool found, answer). Run by clients/conformance.
//
//   node dist/conformance/examples.js ADDR

import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "../src/index.js";
import { run as runAnthropic } from "../examples/anthropic.js";
import { run as runOpenAI } from "../examples/openai.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function body(req: IncomingMessage): Promise<Json> {
  let s = "";
  for await (const chunk of req) s += String(chunk);
  return JSON.parse(s) as Json;
}

// The scripted model, in the Anthropic Messages shape.
function anthropicTurn(req: Json): Json {
  const last = req["messages"].at(-1);
  const msg = (content: Json[]) => ({ id: "msg_1", type: "message", role: "assistant", model: req["model"], content, stop_reason: "tool_use", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } });
  if (typeof last.content === "string") {
    return msg([{ type: "tool_use", id: "toolu_1", name: "tool_search", input: { query: last.content, max_results: 3 } }]);
  }
  const result = last.content.find((b: Json) => b["tool_use_id"] === "toolu_1");
  if (result) {
    const found: string[] = Array.isArray(result.content)
      ? result.content.filter((c: Json) => c["type"] === "tool_reference").map((c: Json) => c["tool_name"])
      : JSON.parse(result.content).tool_references.map((r: Json) => r["tool_name"]);
    if (!found[0] || !req["tools"].some((t: Json) => t["name"] === found[0])) throw new Error(`found ${found} is not in the tools`);
    return msg([{ type: "tool_use", id: "toolu_2", name: found[0], input: {} }]);
  }
  return { ...msg([{ type: "text", text: "done" }]), stop_reason: "end_turn" };
}

// The scripted model, in the OpenAI Responses shape.
function openAITurn(req: Json): Json {
  const last = req["input"].at(-1);
  const resp = (output: Json[]) => ({ id: "resp_1", object: "response", created_at: 0, model: req["model"], status: "completed", output, output_text: "" });
  if (last.role === "user") {
    const args = JSON.stringify({ query: last.content, max_results: 3 });
    return req["tools"].some((t: Json) => t["type"] === "tool_search")
      ? resp([{ type: "tool_search_call", id: "ts_1", call_id: "call_1", arguments: args, execution: "client", status: "completed" }])
      : resp([{ type: "function_call", id: "fc_1", call_id: "call_1", name: "tool_search", arguments: args, status: "completed" }]);
  }
  if (last.call_id === "call_1") {
    const name: string =
      last.type === "tool_search_output"
        ? (last.tools[0].type === "namespace" ? last.tools[0].tools[0].name : last.tools[0].name)
        : JSON.parse(last.output).tool_references[0].tool_name;
    return resp([{ type: "function_call", id: "fc_2", call_id: "call_2", name, arguments: "{}", status: "completed" }]);
  }
  return resp([{ type: "message", id: "m_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done", annotations: [] }] }]);
}

async function main(addr: string): Promise<void> {
  const stub = createServer((req, res) => {
    body(req)
      .then((b) => {
        const out = req.url?.endsWith("/messages") ? anthropicTurn(b) : openAITurn(b);
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(out));
      })
      .catch((e: unknown) => res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: { message: String(e) } })));
  });
  await new Promise<void>((ok) => stub.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  const sidecar = new Client(addr);
  const anthropic = new Anthropic({ apiKey: "stub", baseURL: base, maxRetries: 0 });
  const openai = new OpenAI({ apiKey: "stub", baseURL: `${base}/v1`, maxRetries: 0 });
  try {
    for (const native of [false, true]) {
      const a = await runAnthropic("send 'deploy done' to the ops channel on slack", anthropic, sidecar, native);
      const o = await runOpenAI("open a github issue about the flaky test", openai, sidecar, native);
      if (a !== "done" || o !== "done") throw new Error(`native=${native}: anthropic ${a}, openai ${o}; want done`);
    }
  } finally {
    stub.close();
  }
  console.log("examples: done");
}

main(process.argv[2] ?? "127.0.0.1:50051").catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
