// Turns the fixtures that `go test ./server -run TestSDKFixtures
// -sdk-fixtures=fixtures` wrote into TypeScript files that assign each
// output, as an object literal, to the pinned SDKs' own request types, so
// that `tsc --strict` checks every key and value (object literals get
// excess-property checks: a key the SDK does not know is an error).
//
// Usage: node gen.mjs fixtures generated
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [src = 'fixtures', out = 'generated'] = process.argv.slice(2);

// The SDK type each format's tools array must have, and a full request
// that carries it (so the array is checked where the SDK takes it).
const headers = `import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { Tool as GeminiTool, GenerateContentParameters } from '@google/genai';
import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
`;

const request = {
  anthropic: (t) => `export const tools: Anthropic.Messages.ToolUnion[] = ${t};
export const request: Anthropic.Messages.MessageCreateParamsNonStreaming = { model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], tools };`,
  openai_responses: (t) => `export const tools: OpenAI.Responses.Tool[] = ${t};
export const request: OpenAI.Responses.ResponseCreateParamsNonStreaming = { model: 'gpt-5.4', input: 'hi', tools };`,
  openai_chat: (t) => `export const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = ${t};
export const request: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = { model: 'gpt-5.4', messages: [{ role: 'user', content: 'hi' }], tools };`,
  gemini: (t) => `export const tools: GeminiTool[] = ${t};
export const request: GenerateContentParameters = { model: 'gemini-3-pro', contents: 'hi', config: { tools } };`,
  mcp: (t) => `export const tools: ListToolsResult['tools'] = ${t};
export const result: ListToolsResult = { tools };`,
};

const searchTool = {
  anthropic: (t) => `export const searchTool: Anthropic.Messages.ToolUnion = ${t};`,
  openai_responses: (t) => `export const searchTool: OpenAI.Responses.Tool = ${t};`,
  openai_chat: (t) => `export const searchTool: OpenAI.Chat.Completions.ChatCompletionTool = ${t};`,
  gemini: (t) => `export const searchTool: NonNullable<GeminiTool['functionDeclarations']>[number] = ${t};`,
  mcp: (t) => `export const searchTool: ListToolsResult['tools'][number] = ${t};`,
};

// The Agent's native search results, in the messages that carry them.
const agent = (f) => `export const toolResult: Anthropic.Messages.ToolResultBlockParam = ${f.anthropic_tool_result};
export const toolResultError: Anthropic.Messages.ToolResultBlockParam = ${f.anthropic_tool_result_error};
export const anthropicTurn: Anthropic.Messages.MessageCreateParamsNonStreaming = {
  model: 'claude-sonnet-4-5', max_tokens: 16,
  messages: [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'tool_search', input: {} }] },
    { role: 'user', content: [toolResult] },
  ],
};
export const searchCall: OpenAI.Responses.ResponseInputItem = ${f.openai_tool_search_call};
export const searchOutput: OpenAI.Responses.ResponseToolSearchOutputItemParam = ${f.openai_tool_search_output};
export const openaiTurn: OpenAI.Responses.ResponseCreateParamsNonStreaming = { model: 'gpt-5.4', input: [{ role: 'user', content: 'hi' }, searchCall, searchOutput] };`;

function json(v) {
  return JSON.stringify(v, null, 1);
}

rmSync(out, { recursive: true, force: true });
let n = 0;
for (const cat of readdirSync(src)) {
  const dir = join(src, cat);
  if (!statSync(dir).isDirectory()) continue;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === 'agent.json') {
      const f = JSON.parse(readFileSync(path, 'utf8'));
      const s = Object.fromEntries(Object.entries(f).map(([k, v]) => [k, json(v)]));
      mkdirSync(join(out, cat), { recursive: true });
      writeFileSync(join(out, cat, 'agent.ts'), headers + agent(s) + '\n');
      n++;
      continue;
    }
    if (!statSync(path).isDirectory()) continue;
    for (const file of readdirSync(path)) {
      const f = JSON.parse(readFileSync(join(path, file), 'utf8'));
      const body = [headers, request[f.format](json(f.tools)), searchTool[f.format](json(f.tool_search))].join('\n');
      mkdirSync(join(out, cat, entry), { recursive: true });
      writeFileSync(join(out, cat, entry, file.replace(/\.json$/, '.ts')), body + '\n');
      n++;
    }
  }
}
if (n === 0) {
  console.error(`gen: no fixtures under ${src}; run: go test ./server -run TestSDKFixtures -sdk-fixtures=${src}`);
  process.exit(1);
}
console.log(`gen: wrote ${n} TypeScript files to ${out}`);
