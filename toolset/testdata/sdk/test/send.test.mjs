// Sends every fixture (see gen.mjs) through the pinned SDKs' real request
// methods to a stub HTTP server on loopback that records the request body,
// and checks that the SDK sent the tools array unchanged. MCP lists travel
// in a tools/list result, so they go through a real MCP SDK Server and
// Client (in-memory transport), whose client validates the result against
// the protocol's schema.
//
// Run by `make sdk-conformance` after gen.mjs and tsc; FIXTURES names the
// fixture directory (default: fixtures).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const fixtures = process.env.FIXTURES || 'fixtures';

// The stub provider: records each body, answers with the minimal valid
// response of the API the path names.
const bodies = [];
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    bodies.push({ path: req.url, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
    res.setHeader('content-type', 'application/json');
    if (req.url.includes('/messages')) {
      res.end(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } }));
    } else if (req.url.includes('/responses')) {
      res.end(JSON.stringify({ id: 'resp_1', object: 'response', created_at: 0, status: 'completed', model: 'gpt-5.4',
        output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }] }));
    } else if (req.url.includes('/chat/completions')) {
      res.end(JSON.stringify({ id: 'chat_1', object: 'chat.completion', created: 0, model: 'gpt-5.4',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'ok' } }] }));
    } else if (req.url.includes('generateContent')) {
      res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
});
let base;
before(async () => {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

function lastBody() {
  assert.ok(bodies.length > 0, 'the stub server received no request');
  return bodies[bodies.length - 1].body;
}

const send = {
  async anthropic(f) {
    const client = new Anthropic({ apiKey: 'test', baseURL: base, maxRetries: 0 });
    await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 16, system: f.system_prompt || undefined, messages: [{ role: 'user', content: 'hi' }], tools: f.tools });
    assert.deepEqual(lastBody().tools, f.tools);
  },
  async openai_responses(f) {
    const client = new OpenAI({ apiKey: 'test', baseURL: base, maxRetries: 0 });
    await client.responses.create({ model: 'gpt-5.4', instructions: f.system_prompt || undefined, input: 'hi', tools: f.tools });
    assert.deepEqual(lastBody().tools, f.tools);
  },
  async openai_chat(f) {
    const client = new OpenAI({ apiKey: 'test', baseURL: base, maxRetries: 0 });
    await client.chat.completions.create({ model: 'gpt-5.4', messages: [{ role: 'user', content: 'hi' }], tools: f.tools });
    assert.deepEqual(lastBody().tools, f.tools);
  },
  async gemini(f) {
    const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: base } });
    await ai.models.generateContent({ model: 'gemini-3-pro', contents: 'hi', config: { tools: f.tools } });
    assert.deepEqual(lastBody().tools, f.tools);
  },
  async mcp(f) {
    const server = new Server({ name: 'toolsearch-fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: f.tools }));
    const client = new Client({ name: 'conformance', version: '1.0.0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    const result = await client.listTools();
    assert.deepEqual(result.tools, f.tools);
    await client.close();
  },
};

let count = 0;
for (const cat of readdirSync(fixtures)) {
  const dir = join(fixtures, cat);
  if (!statSync(dir).isDirectory()) continue;
  for (const format of readdirSync(dir)) {
    const fdir = join(dir, format);
    if (format === 'agent.json') {
      const a = JSON.parse(readFileSync(fdir, 'utf8'));
      count++;
      test(`${cat}: the Agent's tool_reference result goes back through messages.create`, async () => {
        const client = new Anthropic({ apiKey: 'test', baseURL: base, maxRetries: 0 });
        const messages = [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'tool_search', input: {} }] },
          { role: 'user', content: [a.anthropic_tool_result] },
        ];
        await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 16, messages });
        const sent = lastBody().messages[2].content[0];
        assert.deepEqual(sent, a.anthropic_tool_result);
        assert.ok(sent.content.some((c) => c.type === 'tool_reference' && c.tool_name), 'no tool_reference block');
      });
      test(`${cat}: the Agent's tool_search_output goes back through responses.create`, async () => {
        const client = new OpenAI({ apiKey: 'test', baseURL: base, maxRetries: 0 });
        await client.responses.create({ model: 'gpt-5.4', input: [{ role: 'user', content: 'hi' }, a.openai_tool_search_call, a.openai_tool_search_output] });
        const sent = lastBody().input[2];
        assert.deepEqual(sent, a.openai_tool_search_output);
        assert.equal(sent.call_id, a.openai_tool_search_call.call_id);
        assert.ok(sent.tools.length > 0, 'no tools loaded');
      });
      continue;
    }
    for (const file of readdirSync(fdir)) {
      const f = JSON.parse(readFileSync(join(fdir, file), 'utf8'));
      count++;
      test(`${cat}/${format}/${file}: sent unchanged by the ${format} SDK`, () => send[f.format](f));
    }
  }
}
test('fixtures were found', () => assert.ok(count > 0, `no fixtures under ${fixtures}; run make sdk-conformance`));
