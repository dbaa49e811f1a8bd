"""The Client: the sidecar's gRPC API with defaults (bearer token, timeout)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Optional

import grpc
from toolsearch.v1 import toolsearch_pb2 as pb
from toolsearch.v1 import toolsearch_pb2_grpc as pb_grpc

_INT32_MAX = 2**31 - 1
_INT32_MIN = -(2**31)


def clamp_int32(n: int) -> int:
    """Saturates n to int32, so an out-of-range value reaches the sidecar as
    out of range instead of wrapping around."""
    return max(_INT32_MIN, min(_INT32_MAX, n))


class Client:
    """A client of the toolsearch sidecar at target (e.g. "127.0.0.1:50051").

    Like the Go client's Dial it does not connect: the first call does, and
    a sidecar that is not running shows up as a grpc.RpcError with
    StatusCode.UNAVAILABLE (use health() to check). The channel is insecure
    unless credentials (grpc.ssl_channel_credentials(...)) are given; token
    sends "authorization: Bearer <token>" with every call; timeout (seconds)
    is the deadline of a call that sets none. Close the client when done, or
    use it as a context manager. Safe for concurrent use by threads, as the
    gRPC channel is.
    """

    def __init__(
        self,
        target: str,
        *,
        token: Optional[str] = None,
        timeout: Optional[float] = None,
        credentials: Optional[grpc.ChannelCredentials] = None,
        options: Sequence[tuple[str, Any]] = (),
        channel: Optional[grpc.Channel] = None,
    ) -> None:
        if channel is None:
            if not target:
                raise ValueError("toolsearch: empty target: want the sidecar address, e.g. 127.0.0.1:50051")
            if credentials is not None:
                channel = grpc.secure_channel(target, credentials, options=list(options))
            else:
                channel = grpc.insecure_channel(target, options=list(options))
            self._owned = True
        else:
            self._owned = False
        self._channel = channel
        self._metadata: tuple[tuple[str, str], ...] = (("authorization", "Bearer " + token),) if token else ()
        self._timeout = timeout
        self.raw = pb_grpc.ToolSearchServiceStub(channel)
        """The generated stub, for requests the methods do not cover; pass
        metadata=client.metadata and timeout yourself."""
        # grpc.health.v1.Health/Check, without the health package (not in
        # Debian): the request is empty (the server's overall status), the
        # answer's field 1 the status (1 is SERVING).
        self._health = channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=lambda _: b"",
            response_deserializer=_health_status,
        )

    @property
    def metadata(self) -> tuple[tuple[str, str], ...]:
        """The metadata every call sends (the bearer token, if any)."""
        return self._metadata

    def call(self, method: str, request: Any, timeout: Optional[float] = None) -> Any:
        """Calls the service method of that name (e.g. "GetToolset") with the
        client's token and timeout."""
        fn = getattr(self.raw, method)
        return fn(request, metadata=self._metadata, timeout=timeout if timeout is not None else self._timeout)

    def close(self) -> None:
        """Closes the channel the client opened (not one passed in)."""
        if self._owned:
            self._channel.close()

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def search(
        self,
        query: str,
        *,
        search_type: "pb.SearchType.ValueType" = pb.SEARCH_TYPE_UNSPECIFIED,
        max_results: int = 0,
        category: str = "",
        visible_tools: Iterable[str] = (),
        session_id: str = "",
        debug: bool = False,
        page_token: str = "",
        top_band: float = 0.0,
        for_model: bool = False,
        timeout: Optional[float] = None,
    ) -> pb.SearchResponse:
        """Searches the catalog for tools matching query; the empty query
        browses. max_results 0 is the sidecar's default (5); session_id
        reveals the tools found to that session; for_model applies the
        relevance floor of answers a model sees as is. Pass the response to
        render_result for the model."""
        req = pb.SearchRequest(
            query=query,
            search_type=search_type,
            max_results=clamp_int32(max_results),
            category_filter=category,
            visible_tools=list(visible_tools),
            session_id=session_id,
            debug=debug,
            page_token=page_token,
            top_band=top_band,
            for_model=for_model,
        )
        return self.call("Search", req, timeout)  # type: ignore[no-any-return]

    def get_tools(self, *names: str, timeout: Optional[float] = None) -> list[pb.Tool]:
        """The full definitions of the named tools, in the order asked
        (NOT_FOUND naming the unknown ones)."""
        return list(self.call("GetTools", pb.GetToolsRequest(names=list(names)), timeout).tools)

    def list_tools(self, server: str = "", page_token: str = "", page_size: int = 0, *, timeout: Optional[float] = None) -> pb.ListToolsResponse:
        """One page of tool names and summaries, in name order."""
        req = pb.ListToolsRequest(page_size=clamp_int32(page_size), page_token=page_token, server=server)
        return self.call("ListTools", req, timeout)  # type: ignore[no-any-return]

    def upsert_tools(self, *tools: pb.Tool, timeout: Optional[float] = None) -> pb.UpsertToolsResponse:
        """Inserts or replaces tools, all or nothing."""
        return self.call("UpsertTools", pb.UpsertToolsRequest(tools=list(tools)), timeout)  # type: ignore[no-any-return]

    def delete_tools(self, *names: str, timeout: Optional[float] = None) -> pb.DeleteToolsResponse:
        """Removes the named tools, all or nothing."""
        return self.call("DeleteTools", pb.DeleteToolsRequest(names=list(names)), timeout)  # type: ignore[no-any-return]

    def catalog_info(self, *, timeout: Optional[float] = None) -> pb.GetCatalogInfoResponse:
        """The catalog's tool count, version, embedder, index state and servers."""
        return self.call("GetCatalogInfo", pb.GetCatalogInfoRequest(), timeout)  # type: ignore[no-any-return]

    def report_tool_use(
        self, session: str, tool: str, outcome: "pb.ToolUseOutcome.ValueType", *, timeout: Optional[float] = None
    ) -> pb.ReportToolUseResponse:
        """Tells the sidecar that the model of session called tool, with outcome."""
        req = pb.ReportToolUseRequest(session_id=session, tool_name=tool, outcome=outcome)
        return self.call("ReportToolUse", req, timeout)  # type: ignore[no-any-return]

    def health(self, *, timeout: Optional[float] = None) -> bool:
        """True when the sidecar's health service says SERVING, False for any
        other status; a failed check (no sidecar) raises grpc.RpcError."""
        status = self._health(None, metadata=self._metadata, timeout=timeout if timeout is not None else self._timeout)
        return bool(status == _SERVING)


_SERVING = 1


def _health_status(b: bytes) -> int:
    """The status of a grpc.health.v1.HealthCheckResponse: field 1, a varint."""
    i = 0
    while i < len(b):
        key, i = _varint(b, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            v, i = _varint(b, i)
            if field == 1:
                return v
        elif wire == 2:
            n, i = _varint(b, i)
            i += n
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        else:
            break
    return 0  # UNKNOWN


def _varint(b: bytes, i: int) -> tuple[int, int]:
    v = shift = 0
    while i < len(b):
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            break
    return v, i
