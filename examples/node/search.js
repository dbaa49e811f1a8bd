#!/usr/bin/env node
// Searches a running toolsearch sidecar and prints the result in the
// reference format (the JSON an agent hands back to the model as the
// tool_search result), like the Go client's RenderResult.
//
//   npm ci
//   node search.js "send a message to the team on slack"
//   node search.js --type keyword --max-results 3 "github issues"
//
// Environment: TOOLSEARCH_ADDR (default 127.0.0.1:50051), TOOLSEARCH_TOKEN
// (a bearer token, when the sidecar runs with --auth-token-file),
// TOOLSEARCH_CA (a PEM file: connect with TLS, trusting that CA).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

// The API is read from the repository's .proto file, so there is no
// generated code to keep in sync.
const PROTO = path.join(__dirname, '..', '..', 'proto', 'toolsearch', 'v1', 'toolsearch.proto');

function loadService() {
  const def = protoLoader.loadSync(PROTO, {
    keepCase: true, // snake_case field names, as in the proto and the reference format
    longs: Number,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  return grpc.loadPackageDefinition(def).toolsearch.v1.ToolSearchService;
}

// roundScore keeps three decimals within [0, 1], as RenderResult does.
function roundScore(s) {
  if (!(s > 0)) return 0;
  if (s >= 1) return 1;
  return Math.round(s * 1000) / 1000;
}

// render turns a SearchResponse into the reference format; optional fields
// are left out when empty, and keys come in the Go client's order.
function render(resp) {
  const md = resp.search_metadata || {};
  const out = {
    tool_references: (resp.tool_references || []).map((r) => {
      const ref = { tool_name: r.tool_name, relevance_score: roundScore(r.relevance_score), summary: r.summary };
      if (r.server) ref.server = r.server;
      return ref;
    }),
    total_matches: resp.total_matches,
    search_metadata: {
      search_type: md.search_type,
      query: md.query,
      execution_time_ms: Number(md.execution_time_ms || 0),
    },
  };
  for (const k of ['requested_search_type', 'fallback_reason', 'suggestion', 'no_confident_match']) {
    if (md[k]) out.search_metadata[k] = md[k];
  }
  if (resp.hint) out.hint = resp.hint;
  if (resp.available_tools && resp.available_tools.length) out.available_tools = resp.available_tools;
  return out;
}

const USAGE = `usage: node search.js [flags] QUERY

Searches a running toolsearch sidecar and prints the reference-format JSON.

flags:
  --addr HOST:PORT     sidecar address (env TOOLSEARCH_ADDR; default 127.0.0.1:50051)
  --type TYPE          default, semantic, keyword or regex (default: default)
  --max-results N      most results (0: the sidecar's default of 5)
  --timeout SECONDS    deadline of the call (default 5)
  -h, --help           show this help

Environment: TOOLSEARCH_TOKEN (bearer token), TOOLSEARCH_CA (PEM file: connect with TLS).
`;

function main() {
  let parsed;
  try {
    parsed = parseArgs({
      allowPositionals: true,
      options: {
        addr: { type: 'string', default: process.env.TOOLSEARCH_ADDR || '127.0.0.1:50051' },
        type: { type: 'string', default: 'default' },
        'max-results': { type: 'string', default: '0' },
        timeout: { type: 'string', default: '5' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    console.error(`${err.message}\n\n${USAGE}`);
    process.exit(2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const query = positionals.join(' ');
  const types = { default: 'SEARCH_TYPE_UNSPECIFIED', semantic: 'SEARCH_TYPE_SEMANTIC', keyword: 'SEARCH_TYPE_KEYWORD', regex: 'SEARCH_TYPE_REGEX' };
  if (!(values.type in types)) {
    console.error(`unknown --type ${values.type}; use default, semantic, keyword or regex`);
    process.exit(2);
  }

  const creds = process.env.TOOLSEARCH_CA
    ? grpc.credentials.createSsl(fs.readFileSync(process.env.TOOLSEARCH_CA))
    : grpc.credentials.createInsecure();
  const Service = loadService();
  const client = new Service(values.addr, creds);
  const metadata = new grpc.Metadata();
  if (process.env.TOOLSEARCH_TOKEN) metadata.set('authorization', `Bearer ${process.env.TOOLSEARCH_TOKEN}`);

  const request = { query, search_type: types[values.type], max_results: Number(values['max-results']) };
  const deadline = new Date(Date.now() + Number(values.timeout) * 1000);
  client.Search(request, metadata, { deadline }, (err, resp) => {
    client.close();
    if (err) {
      console.error(`search failed: ${grpc.status[err.code]}: ${err.details}`);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify(render(resp), null, 2) + '\n');
  });
}

if (require.main === module) main();

module.exports = { render, roundScore };
