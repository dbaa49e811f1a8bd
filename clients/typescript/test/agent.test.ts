// Unit tests of the helper's pure parts: argument parsing, the reference
// format and Go-compatible JSON. The loops against a real sidecar are the
// conformance suite's (clients/conformance).

import assert from "node:assert/strict";
import { test } from "node:test";
import { create } from "@bufbuild/protobuf";
import { errorResult, parseSearchArguments, renderResult, SearchResponseSchema, SearchType } from "../src/index.js";
import { goQuote } from "../src/json.js";

test("parseSearchArguments accepts what the Go Agent accepts", () => {
  const cases: Array<[string, string, [string, SearchType, number, string]]> = [
    ["plain", '{"query": "send slack message"}', ["send slack message", SearchType.UNSPECIFIED, 0, ""]],
    ["number as string", '{"query": "q", "max_results": "5"}', ["q", SearchType.UNSPECIFIED, 5, ""]],
    ["float", '{"query": "q", "max_results": 3.7}', ["q", SearchType.UNSPECIFIED, 3, ""]],
    ["negative is the default", '{"query": "q", "max_results": -2}', ["q", SearchType.UNSPECIFIED, 0, ""]],
    ["enum case", '{"query": "q", "search_type": " Regex "}', ["q", SearchType.REGEX, 0, ""]],
    ["nulls", '{"query": "q", "search_type": null, "max_results": null, "category_filter": null}', ["q", SearchType.UNSPECIFIED, 0, ""]],
    ["huge number saturates", '{"query": "q", "max_results": 1e12}', ["q", SearchType.UNSPECIFIED, 2 ** 31 - 1, ""]],
  ];
  for (const [name, text, want] of cases) {
    const a = parseSearchArguments(text);
    assert.deepEqual([a.query, a.searchType, a.maxResults, a.categoryFilter], want, name);
  }
  assert.equal(parseSearchArguments('{"query": "", "page_token": "abc"}').pageToken, "abc", "page token");
});

test("parseSearchArguments refuses with what to change", () => {
  const cases: Array<[string, string, string]> = [
    ["not JSON", "send slack", "not a JSON object"],
    ["array", "[]", "not a JSON object"],
    ["no query", "{}", '"query" is missing'],
    ["empty input is the empty object", "  ", '"query" is missing'],
    ["unknown type", '{"query": "q", "search_type": "fuzzy"}', '"search_type" "fuzzy" is not known'],
    ["bool count", '{"query": "q", "max_results": true}', '"max_results" must be a number'],
    ["hex count", '{"query": "q", "max_results": "0x10"}', '"max_results" must be a number'],
    ["category number", '{"query": "q", "category_filter": 3}', '"category_filter" must be a string'],
    ["page token number", '{"query": "", "page_token": 3}', '"page_token" must be a string'],
  ];
  for (const [name, text, want] of cases) {
    assert.throws(() => parseSearchArguments(text), (e: Error) => e.message.includes(want), name);
  }
});

test("renderResult writes the reference format as Go does", () => {
  const resp = create(SearchResponseSchema, {
    toolReferences: [
      { toolName: "a__b", relevanceScore: 0.95149, summary: "S <&>", server: "a" },
      { toolName: "c", relevanceScore: 1.7 },
    ],
    totalMatches: 2,
    searchMetadata: { searchType: "keyword", query: "q", executionTimeMs: 3n, fallbackReason: "low_confidence" },
    hint: "h",
  });
  assert.equal(
    renderResult(resp),
    '{"tool_references":[{"tool_name":"a__b","relevance_score":0.951,"summary":"S <&>","server":"a"},' +
      '{"tool_name":"c","relevance_score":1,"summary":""}],"total_matches":2,' +
      '"search_metadata":{"search_type":"keyword","query":"q","execution_time_ms":3,"fallback_reason":"low_confidence"},"hint":"h"}',
  );
  assert.equal(
    renderResult(create(SearchResponseSchema, {})),
    '{"tool_references":[],"total_matches":0,"search_metadata":{"search_type":"","query":"","execution_time_ms":0}}',
  );
});

test("Go-compatible strings", () => {
  assert.equal(errorResult('say "x"\u2028'), '{"error":"say \\"x\\"\\u2028"}');
  assert.equal(goQuote('a "b"\n\\'), '"a \\"b\\"\\n\\\\"');
});
