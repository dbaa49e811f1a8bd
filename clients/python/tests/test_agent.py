"""Unit tests of the Python helper's pure parts: argument parsing, the
reference format and the Go-compatible JSON encoding. The loops against a
real sidecar are the conformance suite's (clients/conformance)."""

from __future__ import annotations

import unittest

from toolsearch import _json, pb, render_result
from toolsearch.agent import _Fix, error_result, parse_search_arguments


class ParseSearchArgumentsTest(unittest.TestCase):
    def test_accepted(self) -> None:
        cases = [
            ("plain", '{"query": "send slack message"}', ("send slack message", pb.SEARCH_TYPE_UNSPECIFIED, 0, "")),
            ("number as string", '{"query": "q", "max_results": "5"}', ("q", pb.SEARCH_TYPE_UNSPECIFIED, 5, "")),
            ("float", '{"query": "q", "max_results": 3.7}', ("q", pb.SEARCH_TYPE_UNSPECIFIED, 3, "")),
            ("negative is the default", '{"query": "q", "max_results": -2}', ("q", pb.SEARCH_TYPE_UNSPECIFIED, 0, "")),
            ("enum case", '{"query": "q", "search_type": " Regex "}', ("q", pb.SEARCH_TYPE_REGEX, 0, "")),
            ("nulls", '{"query": "q", "search_type": null, "max_results": null, "category_filter": null}', ("q", pb.SEARCH_TYPE_UNSPECIFIED, 0, "")),
            ("category and unknown fields", '{"query": "q", "category_filter": "slack", "x": 1}', ("q", pb.SEARCH_TYPE_UNSPECIFIED, 0, "slack")),
            ("huge number saturates", '{"query": "q", "max_results": 1e12}', ("q", pb.SEARCH_TYPE_UNSPECIFIED, 2**31 - 1, "")),
        ]
        for name, text, want in cases:
            with self.subTest(name):
                a = parse_search_arguments(text)
                self.assertEqual((a.query, a.search_type, a.max_results, a.category_filter), want)
        self.assertEqual(parse_search_arguments('{"query": "", "page_token": "abc"}').page_token, "abc")

    def test_refused(self) -> None:
        cases = [
            ("not JSON", "send slack", "not a JSON object"),
            ("array", "[]", "not a JSON object"),
            ("no query", "{}", '"query" is missing'),
            ("empty input is the empty object", "  ", '"query" is missing'),
            ("query number", '{"query": 5}', '"query" is missing'),
            ("unknown type", '{"query": "q", "search_type": "fuzzy"}', '"search_type" "fuzzy" is not known'),
            ("type number", '{"query": "q", "search_type": 1}', '"search_type" must be a string'),
            ("bool count", '{"query": "q", "max_results": true}', '"max_results" must be a number'),
            ("NaN string", '{"query": "q", "max_results": "NaN"}', '"max_results" must be a number'),
            ("category number", '{"query": "q", "category_filter": 3}', '"category_filter" must be a string'),
            ("page token number", '{"query": "", "page_token": 3}', '"page_token" must be a string'),
        ]
        for name, text, want in cases:
            with self.subTest(name):
                with self.assertRaises(_Fix) as cm:
                    parse_search_arguments(text)
                self.assertIn(want, str(cm.exception))


class RenderTest(unittest.TestCase):
    def test_render(self) -> None:
        resp = pb.SearchResponse(
            tool_references=[pb.ToolReference(tool_name="a__b", relevance_score=0.95149, summary="S <&>", server="a"),
                             pb.ToolReference(tool_name="c", relevance_score=1.7)],
            total_matches=2,
            search_metadata=pb.SearchMetadata(search_type="keyword", query="q", execution_time_ms=3, fallback_reason="low_confidence"),
            hint="h",
        )
        want = ('{"tool_references":[{"tool_name":"a__b","relevance_score":0.951,"summary":"S <&>","server":"a"},'
                '{"tool_name":"c","relevance_score":1,"summary":""}],"total_matches":2,'
                '"search_metadata":{"search_type":"keyword","query":"q","execution_time_ms":3,"fallback_reason":"low_confidence"},"hint":"h"}')
        self.assertEqual(render_result(resp), want)

    def test_empty(self) -> None:
        self.assertEqual(
            render_result(pb.SearchResponse()),
            '{"tool_references":[],"total_matches":0,"search_metadata":{"search_type":"","query":"","execution_time_ms":0}}',
        )


class JSONTest(unittest.TestCase):
    def test_go_encoding(self) -> None:
        cases = [
            ({"a": 1.0, "b": 0.5, "c": "é\u2028"}, '{"a":1,"b":0.5,"c":"é\\u2028"}'),
            ([True, None, "<>&"], '[true,null,"<>&"]'),
        ]
        for v, want in cases:
            self.assertEqual(_json.dumps(v), want)
        self.assertEqual(error_result('say "x"'), '{"error":"say \\"x\\""}')

    def test_go_quote(self) -> None:
        self.assertEqual(_json.go_quote('a "b"\n\\'), '"a \\"b\\"\\n\\\\"')


if __name__ == "__main__":
    unittest.main()
