// The reference format: the JSON an agent hands back to the model as the
// result of its tool_search call (the Go client's RenderResult).

import type { SearchResponse } from "./gen/toolsearch/v1/toolsearch_pb.js";
import { goJSON } from "./json.js";

/** How many decimals renderResult keeps of a relevance score: 0.95123 renders as 0.951. */
export const SCORE_DECIMALS = 3;

function roundScore(s: number): number {
  if (Number.isNaN(s) || s <= 0) return 0;
  if (s >= 1) return 1;
  const p = 10 ** SCORE_DECIMALS;
  return Math.round(s * p) / p; // positive: half away from zero, as Go's math.Round
}

/** The reference format as an object, keys in the rendered order. */
export function resultObject(resp: SearchResponse): Record<string, unknown> {
  const md = resp.searchMetadata;
  const meta: Record<string, unknown> = {
    search_type: md?.searchType ?? "",
    query: md?.query ?? "",
    execution_time_ms: Number(md?.executionTimeMs ?? 0n),
  };
  if (md?.requestedSearchType) meta["requested_search_type"] = md.requestedSearchType;
  if (md?.fallbackReason) meta["fallback_reason"] = md.fallbackReason;
  if (md?.suggestion) meta["suggestion"] = md.suggestion;
  if (md?.noConfidentMatch) meta["no_confident_match"] = true;
  const refs = resp.toolReferences.map((ref) => {
    const r: Record<string, unknown> = { tool_name: ref.toolName, relevance_score: roundScore(ref.relevanceScore), summary: ref.summary };
    if (ref.server) r["server"] = ref.server;
    return r;
  });
  const out: Record<string, unknown> = { tool_references: refs, total_matches: resp.totalMatches, search_metadata: meta };
  if (resp.hint) out["hint"] = resp.hint;
  if (resp.availableTools.length > 0) out["available_tools"] = [...resp.availableTools];
  if (resp.unknownTools.length > 0) out["unknown_tools"] = [...resp.unknownTools];
  if (resp.nextPageToken) out["next_page_token"] = resp.nextPageToken; // continues a listing: the model passes it back as page_token
  return out;
}

/**
 * Renders a search response as the reference-format JSON for the model,
 * compact and byte-for-byte as the Go client's RenderResult:
 *
 *     {"tool_references":[{"tool_name":"slack__send_message","relevance_score":0.95,"summary":"…"}],
 *      "total_matches":12,"search_metadata":{"search_type":"semantic","query":"send slack message","execution_time_ms":3}}
 *
 * Scores are rounded to 3 decimals within [0, 1]; optional keys appear only
 * when set; debug explanations, microsecond timings and page tokens are
 * left out (they are for the agent, not the model).
 */
export function renderResult(resp: SearchResponse): string {
  return goJSON(resultObject(resp));
}
