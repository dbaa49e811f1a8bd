"""The Agent helper: an agent's side of tool search over a Client, with the
Go client's surface and semantics (clients/go/agent.go, native.go)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional, Union

import grpc

from toolsearch import _json
from toolsearch.client import Client, clamp_int32
from toolsearch.render import render_result
from toolsearch.v1 import toolsearch_pb2 as pb

SEARCH_TOOL_NAME = "tool_search"
"""The name of the tool_search tool in every toolset: when the model calls
it, pass the call's arguments to Agent.handle_tool_call."""

# Provider formats for Agent.tools.
FORMAT_OPENAI_CHAT = pb.TOOL_FORMAT_OPENAI_CHAT
FORMAT_OPENAI_RESPONSES = pb.TOOL_FORMAT_OPENAI_RESPONSES
FORMAT_ANTHROPIC = pb.TOOL_FORMAT_ANTHROPIC
FORMAT_GEMINI = pb.TOOL_FORMAT_GEMINI
FORMAT_MCP = pb.TOOL_FORMAT_MCP

# Search modes for Agent(search_mode=...).
SEARCH_PORTABLE = pb.TOOL_SEARCH_MODE_PORTABLE
"""Reveals tools by appending them to the list (every provider). The default."""
SEARCH_NATIVE_CLIENT = pb.TOOL_SEARCH_MODE_NATIVE_CLIENT
"""The provider's native protocol with the sidecar's search: answer
tool_search with anthropic_tool_result or openai_tool_search_output."""
SEARCH_NATIVE_HOSTED = pb.TOOL_SEARCH_MODE_NATIVE_HOSTED
"""The provider's native protocol with the provider's own search."""
SEARCH_AUTO = pb.TOOL_SEARCH_MODE_AUTO
"""Native client search where the provider and model support it, else portable."""

_SEARCH_TYPES = {
    "": pb.SEARCH_TYPE_UNSPECIFIED,
    "semantic": pb.SEARCH_TYPE_SEMANTIC,
    "keyword": pb.SEARCH_TYPE_KEYWORD,
    "regex": pb.SEARCH_TYPE_REGEX,
}

_FIXABLE = (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND)


@dataclass
class Toolset:
    """The tool list for a model's next call."""

    tools: list[Any]
    """The tools array to send as the request's tools (parsed JSON)."""
    tools_json: str
    """The same, as the sidecar's JSON text."""
    search_tool: Any
    """The tool_search definition alone, in the same format (parsed JSON)."""
    system_prompt: str
    """Text to append to the system prompt ("" when nothing is deferred)."""
    loaded: list[str]
    """Catalog names of the tools sent in full, in order."""
    deferred: int
    """The number of catalog tools not sent in full."""
    provider_names: dict[str, str]
    """Names the provider sees → catalog names, where they differ."""
    catalog_version: int
    search_mode: int
    """The search mode used (SEARCH_AUTO resolved)."""
    search_mode_reason: str
    changes: list[pb.ToolsetChange] = field(default_factory=list)
    omitted: list[pb.OmittedTool] = field(default_factory=list)

    def catalog_name(self, provider_name: str) -> str:
        """The catalog name of a tool the model called by its provider name."""
        return self.provider_names.get(provider_name, provider_name)


class _Fix(Exception):
    """A mistake in a tool_search call that the model can correct."""


@dataclass
class _SearchArguments:
    query: str
    search_type: int
    max_results: int
    category_filter: str
    page_token: str = ""


def _parse_count(v: Any) -> int:
    if isinstance(v, bool):
        raise ValueError("not a number")
    if isinstance(v, (int, float)):
        f = float(v)
    elif isinstance(v, str):
        s = v.strip()
        if "_" in s:  # Go's ParseFloat takes underscores only after a base prefix
            raise ValueError("not a number")
        f = float(s)
    else:
        raise ValueError("not a number")
    if math.isnan(f) or math.isinf(f):
        raise ValueError("not a finite number")
    return int(max(min(f, 2**31 - 1), -(2**31)))  # truncated toward zero, as Go's int()


def parse_search_arguments(arguments: Union[str, Mapping[str, Any]]) -> _SearchArguments:
    """Reads a tool_search call's arguments tolerantly, as the Go Agent does:
    numbers as strings ("5") or floats (5.0), null for optional fields,
    search_type in any case; unknown fields are ignored; empty input is the
    empty object. Raises _Fix with what the model should change."""
    if isinstance(arguments, str):
        try:
            raw = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            raw = None
    else:
        raw = dict(arguments)
    if not isinstance(raw, dict):
        raise _Fix('the arguments are not a JSON object; call tool_search with {"query": "what the tool should do"}')
    if "query" not in raw or not (raw["query"] is None or isinstance(raw["query"], str)):
        raise _Fix('"query" is missing or not a string; call tool_search with {"query": "what the tool should do"}')
    query = raw["query"] or ""
    st = raw.get("search_type")
    if st is not None and not isinstance(st, str):
        raise _Fix('"search_type" must be a string: "semantic", "keyword" or "regex"')
    st = st or ""
    key = st.strip().lower()
    if key not in _SEARCH_TYPES:
        raise _Fix(f'"search_type" {_json.go_quote(st)} is not known; use "semantic", "keyword" or "regex"')
    max_results = 0
    if raw.get("max_results") is not None:
        try:
            max_results = max(_parse_count(raw["max_results"]), 0)  # below 1: the default
        except ValueError:
            raise _Fix('"max_results" must be a number from 1 to 10') from None
    category = raw.get("category_filter")
    if category is not None and not isinstance(category, str):
        raise _Fix('"category_filter" must be a string, such as a server name')
    page_token = raw.get("page_token")
    if page_token is not None and not isinstance(page_token, str):
        raise _Fix('"page_token" must be a string: the next_page_token of the previous result')
    return _SearchArguments(query, _SEARCH_TYPES[key], max_results, category or "", page_token or "")


def error_result(msg: str) -> str:
    """The tool result of a call the model should correct: {"error": "…"}."""
    return _json.dumps({"error": msg})


class Agent:
    """An agent's side of tool search, over a Client.

    Before each model call, tools() returns the tool list to send
    (tool_search, the always-loaded tools, and the tools the session's
    searches revealed); when the model calls tool_search,
    handle_tool_call() runs the search, which reveals the tools it finds to
    the session, and returns the result to hand back to the model. In native
    client mode, anthropic_tool_result() and openai_tool_search_output()
    answer the providers' own tool-search protocols. The sidecar keeps the
    session's state, so an Agent holds only its options and is safe for
    concurrent use by threads, for any number of sessions.

    Options (keyword arguments, as the Go helper's With… options):
    always_loaded (names or "server:*"/"category:NAME"/"prefix*" patterns sent in full every
    turn), deferral_threshold (catalog size from which tools are deferred;
    0: the sidecar's 15; 1: always), deferred_mode, search_mode (default
    SEARCH_PORTABLE), hosted_search, model, model_support ((prefix, mode)
    pairs checked first by SEARCH_AUTO), server_descriptions, result_format
    (handle_tool_call names tools as that provider sees them), and
    visible_tools (scopes every search the agent runs, and its tool lists:
    they are built from the visible tools alone).
    """

    def __init__(
        self,
        client: Client,
        *,
        always_loaded: Sequence[str] = (),
        deferral_threshold: int = 0,
        deferred_mode: "pb.DeferredToolMode.ValueType" = pb.DEFERRED_TOOL_MODE_UNSPECIFIED,
        search_mode: "pb.ToolSearchMode.ValueType" = pb.TOOL_SEARCH_MODE_UNSPECIFIED,
        hosted_search: "pb.HostedToolSearch.ValueType" = pb.HOSTED_TOOL_SEARCH_UNSPECIFIED,
        model: str = "",
        model_support: Iterable[tuple[str, "pb.ToolSearchMode.ValueType"]] = (),
        server_descriptions: Optional[Mapping[str, str]] = None,
        result_format: "pb.ToolFormat.ValueType" = pb.TOOL_FORMAT_UNSPECIFIED,
        visible_tools: Sequence[str] = (),
    ) -> None:
        self.client = client
        self._always_loaded = list(always_loaded)
        self._threshold = clamp_int32(deferral_threshold)
        self._deferred_mode = deferred_mode
        self._search_mode = search_mode
        self._hosted = hosted_search
        self._model = model
        self._support = [pb.ModelSupport(model_prefix=p, mode=m) for p, m in model_support]
        self._servers = dict(server_descriptions or {})
        self._result_format = result_format
        self._visible = list(visible_tools)

    def tools(self, session: str, format: "pb.ToolFormat.ValueType") -> Toolset:
        """The tool list for the model's next call, for session ("" for a list
        without revealed tools), in a provider's format (FORMAT_…). Each
        call's list starts with the previous call's, so a provider's prompt
        cache keeps its prefix."""
        resp = self.client.call(
            "GetToolset",
            pb.GetToolsetRequest(
                session_id=session,
                format=format,
                always_loaded=self._always_loaded,
                deferral_threshold=self._threshold,
                deferred_mode=self._deferred_mode,
                search_mode=self._search_mode,
                hosted_search=self._hosted,
                model=self._model,
                model_support=self._support,
                server_descriptions=self._servers,
                visible_tools=self._visible,
            ),
        )
        return Toolset(
            tools=json.loads(resp.tools_json) if resp.tools_json else [],
            tools_json=resp.tools_json,
            search_tool=json.loads(resp.tool_search_json) if resp.tool_search_json else None,
            system_prompt=resp.system_prompt,
            loaded=list(resp.loaded_tools),
            deferred=resp.deferred_count,
            provider_names=dict(resp.provider_names),
            catalog_version=resp.catalog_version,
            search_mode=resp.search_mode,
            search_mode_reason=resp.search_mode_reason,
            changes=list(resp.changes),
            omitted=list(resp.omitted_tools),
        )

    def reset(self, session: str) -> None:
        """Forgets the tools revealed to session."""
        self.client.call("ResetSession", pb.ResetSessionRequest(session_id=session))

    def tool_called(self, session: str, tool: str, error: Optional[BaseException] = None) -> None:
        """Tells the sidecar that the model of session called tool (its catalog
        name: pass a provider's name through Toolset.catalog_name) and how it
        went: error None is a success. Call it once per tool call the
        application executes; a sidecar with --learn learns from it. Calls of
        tool_search are not reported. A failed report (grpc.RpcError) is for
        the agent's logs only."""
        if tool == SEARCH_TOOL_NAME:
            return
        outcome = pb.TOOL_USE_OUTCOME_SUCCESS if error is None else pb.TOOL_USE_OUTCOME_ERROR
        self.client.report_tool_use(session, tool, outcome)

    def handle_tool_call(self, session: str, arguments: Union[str, Mapping[str, Any]]) -> str:
        """Answers the model's tool_search call: arguments as the model sent
        them (JSON text, or the parsed object). It searches with the
        session's id, so the tools found are revealed to the session and are
        in its next tools() list, and returns the reference-format JSON
        (render_result) for the model. A mistake the model can fix (bad
        arguments, a query the sidecar rejects with INVALID_ARGUMENT) is the
        result {"error": "…"}, not an exception; grpc.RpcError is raised for
        what the agent must handle (sidecar unreachable, deadline)."""
        try:
            args = parse_search_arguments(arguments)
        except _Fix as fix:
            return error_result(str(fix))
        try:
            resp = self._search(session, args)
        except grpc.RpcError as e:
            if e.code() in _FIXABLE:  # type: ignore[attr-defined]
                return error_result(e.details())  # type: ignore[attr-defined]
            raise
        if self._result_format != pb.TOOL_FORMAT_UNSPECIFIED:
            resp = self._provider_named(session, resp)
        return render_result(resp)

    def anthropic_tool_result(self, session: str, tool_use_id: str, input: Union[str, Mapping[str, Any]]) -> dict[str, Any]:
        """Answers the model's tool_search tool_use block in Anthropic native
        client mode (input: the block's input) with the tool_result block for
        the next user message: a text and one tool_reference per tool found
        (named as the request's tools array names them). A mistake the model
        can fix gives is_error and the text of what to change."""
        try:
            found = self._search_and_load(session, input, FORMAT_ANTHROPIC)
        except _Fix as fix:
            return {"type": "tool_result", "tool_use_id": tool_use_id, "content": str(fix), "is_error": True}
        content: list[dict[str, Any]] = [{"type": "text", "text": found.text()}]
        content += [{"type": "tool_reference", "tool_name": n} for n in found.names]
        return {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}

    def openai_tool_search_output(self, session: str, call: Union[str, Mapping[str, Any]]) -> dict[str, Any]:
        """Answers a tool_search_call output item in OpenAI Responses native
        client mode (call: the item, {"type":"tool_search_call","call_id":…,
        "arguments":…}) with the tool_search_output item to append to the
        next request's input: the same call_id and the tools found in the
        Responses shape. Arguments the model got wrong give no tools; a call
        that is not a tool_search_call raises ValueError."""
        item: Any = call
        if isinstance(call, str):
            try:
                item = json.loads(call)
            except ValueError:
                item = None
        if not isinstance(item, Mapping) or item.get("type") != "tool_search_call":
            text = call if isinstance(call, str) else _json.dumps(call) if isinstance(call, Mapping) else repr(call)
            raise ValueError(f"toolsearch: openai_tool_search_output: not a tool_search_call item: {text[:200]}")
        arguments = item.get("arguments")
        if not isinstance(arguments, str):  # the object itself, not JSON text
            arguments = _json.dumps(arguments) if arguments is not None else ""
        tools: list[Any] = []
        try:
            found = self._search_and_load(session, arguments, FORMAT_OPENAI_RESPONSES)
            tools = found.loaded
        except _Fix:
            pass
        return {"type": "tool_search_output", "call_id": item.get("call_id", ""), "execution": "client", "status": "completed", "tools": tools}

    def _search(self, session: str, args: _SearchArguments) -> pb.SearchResponse:
        return self.client.search(
            args.query,
            visible_tools=self._visible,
            session_id=session,
            search_type=args.search_type,  # type: ignore[arg-type]
            max_results=args.max_results,
            category=args.category_filter,
            page_token=args.page_token,
            for_model=True,
        )

    def _search_and_load(self, session: str, arguments: Union[str, Mapping[str, Any]], format: "pb.ToolFormat.ValueType") -> "_Found":
        args = parse_search_arguments(arguments)
        try:
            resp = self._search(session, args)
        except grpc.RpcError as e:
            if e.code() in _FIXABLE:  # type: ignore[attr-defined]
                raise _Fix(e.details()) from None  # type: ignore[attr-defined]
            raise
        found = _Found(query=args.query, hint=resp.hint)
        catalog_names = [ref.tool_name for ref in resp.tool_references]
        found.summaries = [ref.summary for ref in resp.tool_references]
        if not catalog_names:
            return found
        # The portable list loads the found tools as the native one would, at
        # a fraction of its size (the native list holds the whole catalog).
        ts = self.client.call(
            "GetToolset",
            pb.GetToolsetRequest(
                session_id=session,
                format=format,
                search_mode=SEARCH_PORTABLE,
                deferral_threshold=1,
                server_descriptions=self._servers,
                load_tools=catalog_names,
                visible_tools=self._visible,
            ),
        )
        provider = {v: k for k, v in ts.provider_names.items()}
        found.names = [provider.get(n, n) for n in catalog_names]
        found.loaded = json.loads(ts.loaded_tools_json) if ts.loaded_tools_json else []
        return found

    def _provider_named(self, session: str, resp: pb.SearchResponse) -> pb.SearchResponse:
        names = [ref.tool_name for ref in resp.tool_references]
        if not names:
            return resp
        ts = self.client.call(
            "GetToolset",
            pb.GetToolsetRequest(
                session_id=session, format=self._result_format, deferral_threshold=1, load_tools=names, visible_tools=self._visible
            ),
        )
        provider = {v: k for k, v in ts.provider_names.items()}
        if not provider:
            return resp
        out = pb.SearchResponse()
        out.CopyFrom(resp)
        for ref in out.tool_references:
            ref.tool_name = provider.get(ref.tool_name, ref.tool_name)
        return out


@dataclass
class _Found:
    """What a native search found."""

    query: str
    hint: str = ""
    names: list[str] = field(default_factory=list)
    summaries: list[str] = field(default_factory=list)
    loaded: list[Any] = field(default_factory=list)

    def text(self) -> str:
        """The short text the model reads beside the tool references."""
        if not self.names:
            t = f"No tool matched {_json.go_quote(self.query)}."
            if self.hint:
                t += " " + self.hint
            return t
        lines = [f"Found {len(self.names)} tools for {_json.go_quote(self.query)}; they are loaded and can be called now:"]
        for n, s in zip(self.names, self.summaries):
            lines.append("- " + n + (": " + s if s else ""))
        return "\n".join(lines)


