"""The reference format: the JSON an agent hands back to the model as the
result of its tool_search call (the Go client's RenderResult)."""

from __future__ import annotations

import math
from typing import Any

from toolsearch import _json
from toolsearch.v1 import toolsearch_pb2 as pb

# SCORE_DECIMALS is how many decimals render_result keeps of a relevance
# score: 0.95123 renders as 0.951.
SCORE_DECIMALS = 3


def _round_score(s: float) -> float:
    if math.isnan(s) or s <= 0:
        return 0.0
    if s >= 1:
        return 1.0
    p = 10.0**SCORE_DECIMALS
    return math.floor(s * p + 0.5) / p  # Go's math.Round: half away from zero


def result_dict(resp: pb.SearchResponse) -> dict[str, Any]:
    """The reference format as a dict, keys in the rendered order."""
    md = resp.search_metadata
    meta: dict[str, Any] = {
        "search_type": md.search_type,
        "query": md.query,
        "execution_time_ms": md.execution_time_ms,
    }
    for key, value in (
        ("requested_search_type", md.requested_search_type),
        ("fallback_reason", md.fallback_reason),
        ("suggestion", md.suggestion),
        ("no_confident_match", md.no_confident_match),
    ):
        if value:
            meta[key] = value
    refs = []
    for ref in resp.tool_references:
        r: dict[str, Any] = {
            "tool_name": ref.tool_name,
            "relevance_score": _round_score(ref.relevance_score),
            "summary": ref.summary,
        }
        if ref.server:
            r["server"] = ref.server
        refs.append(r)
    out: dict[str, Any] = {
        "tool_references": refs,
        "total_matches": resp.total_matches,
        "search_metadata": meta,
    }
    if resp.hint:
        out["hint"] = resp.hint
    if len(resp.available_tools):
        out["available_tools"] = list(resp.available_tools)
    if len(resp.unknown_tools):
        out["unknown_tools"] = list(resp.unknown_tools)
    if resp.next_page_token:  # continues a listing: the model passes it back as page_token
        out["next_page_token"] = resp.next_page_token
    return out


def render_result(resp: pb.SearchResponse) -> str:
    """Renders a search response as the reference-format JSON for the model,
    compact and byte-for-byte as the Go client's RenderResult:

        {"tool_references":[{"tool_name":"slack__send_message","relevance_score":0.95,"summary":"…"}],
         "total_matches":12,"search_metadata":{"search_type":"semantic","query":"send slack message","execution_time_ms":3}}

    Scores are rounded to 3 decimals within [0, 1]; optional keys appear only
    when set; debug explanations, timings in microseconds and page tokens
    are left out (they are for the agent, not the model)."""
    if resp is None:
        raise ValueError("toolsearch: render result: no SearchResponse")
    return _json.dumps(result_dict(resp))
