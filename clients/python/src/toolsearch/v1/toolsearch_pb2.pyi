from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DEFERRED_TOOL_MODE_OMIT: DeferredToolMode
DEFERRED_TOOL_MODE_REMINDER: DeferredToolMode
DEFERRED_TOOL_MODE_STUB: DeferredToolMode
DEFERRED_TOOL_MODE_UNSPECIFIED: DeferredToolMode
DESCRIPTOR: _descriptor.FileDescriptor
HOSTED_TOOL_SEARCH_BM25: HostedToolSearch
HOSTED_TOOL_SEARCH_REGEX: HostedToolSearch
HOSTED_TOOL_SEARCH_UNSPECIFIED: HostedToolSearch
INDEX_STATE_DEGRADED: IndexState
INDEX_STATE_LEXICAL_ONLY: IndexState
INDEX_STATE_READY: IndexState
INDEX_STATE_UNSPECIFIED: IndexState
INDEX_STATE_WARMING: IndexState
SEARCH_TYPE_KEYWORD: SearchType
SEARCH_TYPE_REGEX: SearchType
SEARCH_TYPE_SEMANTIC: SearchType
SEARCH_TYPE_UNSPECIFIED: SearchType
TOOL_FORMAT_ANTHROPIC: ToolFormat
TOOL_FORMAT_GEMINI: ToolFormat
TOOL_FORMAT_MCP: ToolFormat
TOOL_FORMAT_OPENAI_CHAT: ToolFormat
TOOL_FORMAT_OPENAI_RESPONSES: ToolFormat
TOOL_FORMAT_UNSPECIFIED: ToolFormat
TOOL_SEARCH_MODE_AUTO: ToolSearchMode
TOOL_SEARCH_MODE_NATIVE_CLIENT: ToolSearchMode
TOOL_SEARCH_MODE_NATIVE_HOSTED: ToolSearchMode
TOOL_SEARCH_MODE_PORTABLE: ToolSearchMode
TOOL_SEARCH_MODE_UNSPECIFIED: ToolSearchMode
TOOL_USE_OUTCOME_ERROR: ToolUseOutcome
TOOL_USE_OUTCOME_SUCCESS: ToolUseOutcome
TOOL_USE_OUTCOME_UNKNOWN: ToolUseOutcome
TOOL_USE_OUTCOME_UNSPECIFIED: ToolUseOutcome

class DeferredLimit(_message.Message):
    __slots__ = ["limit", "omitted", "rule"]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    OMITTED_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    limit: int
    omitted: int
    rule: str
    def __init__(self, limit: _Optional[int] = ..., omitted: _Optional[int] = ..., rule: _Optional[str] = ...) -> None: ...

class DeleteToolsRequest(_message.Message):
    __slots__ = ["names"]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    names: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, names: _Optional[_Iterable[str]] = ...) -> None: ...

class DeleteToolsResponse(_message.Message):
    __slots__ = ["catalog_version", "deleted", "tool_count"]
    CATALOG_VERSION_FIELD_NUMBER: _ClassVar[int]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    TOOL_COUNT_FIELD_NUMBER: _ClassVar[int]
    catalog_version: int
    deleted: int
    tool_count: int
    def __init__(self, catalog_version: _Optional[int] = ..., deleted: _Optional[int] = ..., tool_count: _Optional[int] = ...) -> None: ...

class GetCatalogInfoRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetCatalogInfoResponse(_message.Message):
    __slots__ = ["catalog_version", "embedder", "embedding_dimensions", "index_state", "indexed_tools", "max_results_cap", "servers", "tool_count"]
    CATALOG_VERSION_FIELD_NUMBER: _ClassVar[int]
    EMBEDDER_FIELD_NUMBER: _ClassVar[int]
    EMBEDDING_DIMENSIONS_FIELD_NUMBER: _ClassVar[int]
    INDEXED_TOOLS_FIELD_NUMBER: _ClassVar[int]
    INDEX_STATE_FIELD_NUMBER: _ClassVar[int]
    MAX_RESULTS_CAP_FIELD_NUMBER: _ClassVar[int]
    SERVERS_FIELD_NUMBER: _ClassVar[int]
    TOOL_COUNT_FIELD_NUMBER: _ClassVar[int]
    catalog_version: int
    embedder: str
    embedding_dimensions: int
    index_state: IndexState
    indexed_tools: int
    max_results_cap: int
    servers: _containers.RepeatedCompositeFieldContainer[ServerInfo]
    tool_count: int
    def __init__(self, tool_count: _Optional[int] = ..., catalog_version: _Optional[int] = ..., embedder: _Optional[str] = ..., embedding_dimensions: _Optional[int] = ..., index_state: _Optional[_Union[IndexState, str]] = ..., servers: _Optional[_Iterable[_Union[ServerInfo, _Mapping]]] = ..., max_results_cap: _Optional[int] = ..., indexed_tools: _Optional[int] = ...) -> None: ...

class GetLearnedRequest(_message.Message):
    __slots__ = ["tool_name"]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    tool_name: str
    def __init__(self, tool_name: _Optional[str] = ...) -> None: ...

class GetLearnedResponse(_message.Message):
    __slots__ = ["learning", "pin", "tools"]
    LEARNING_FIELD_NUMBER: _ClassVar[int]
    PIN_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    learning: bool
    pin: LearnPin
    tools: _containers.RepeatedCompositeFieldContainer[LearnedTool]
    def __init__(self, learning: bool = ..., tools: _Optional[_Iterable[_Union[LearnedTool, _Mapping]]] = ..., pin: _Optional[_Union[LearnPin, _Mapping]] = ...) -> None: ...

class GetToolsRequest(_message.Message):
    __slots__ = ["names", "page_size", "page_token"]
    NAMES_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    names: _containers.RepeatedScalarFieldContainer[str]
    page_size: int
    page_token: str
    def __init__(self, names: _Optional[_Iterable[str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class GetToolsResponse(_message.Message):
    __slots__ = ["catalog_version", "next_page_token", "tools"]
    CATALOG_VERSION_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    catalog_version: int
    next_page_token: str
    tools: _containers.RepeatedCompositeFieldContainer[Tool]
    def __init__(self, tools: _Optional[_Iterable[_Union[Tool, _Mapping]]] = ..., catalog_version: _Optional[int] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetToolsetRequest(_message.Message):
    __slots__ = ["always_loaded", "deferral_threshold", "deferred_mode", "format", "hosted_search", "load_tools", "model", "model_support", "search_mode", "server_descriptions", "session_id", "visible_tools"]
    class ServerDescriptionsEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALWAYS_LOADED_FIELD_NUMBER: _ClassVar[int]
    DEFERRAL_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    DEFERRED_MODE_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    HOSTED_SEARCH_FIELD_NUMBER: _ClassVar[int]
    LOAD_TOOLS_FIELD_NUMBER: _ClassVar[int]
    MODEL_FIELD_NUMBER: _ClassVar[int]
    MODEL_SUPPORT_FIELD_NUMBER: _ClassVar[int]
    SEARCH_MODE_FIELD_NUMBER: _ClassVar[int]
    SERVER_DESCRIPTIONS_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    VISIBLE_TOOLS_FIELD_NUMBER: _ClassVar[int]
    always_loaded: _containers.RepeatedScalarFieldContainer[str]
    deferral_threshold: int
    deferred_mode: DeferredToolMode
    format: ToolFormat
    hosted_search: HostedToolSearch
    load_tools: _containers.RepeatedScalarFieldContainer[str]
    model: str
    model_support: _containers.RepeatedCompositeFieldContainer[ModelSupport]
    search_mode: ToolSearchMode
    server_descriptions: _containers.ScalarMap[str, str]
    session_id: str
    visible_tools: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, session_id: _Optional[str] = ..., format: _Optional[_Union[ToolFormat, str]] = ..., always_loaded: _Optional[_Iterable[str]] = ..., deferral_threshold: _Optional[int] = ..., deferred_mode: _Optional[_Union[DeferredToolMode, str]] = ..., search_mode: _Optional[_Union[ToolSearchMode, str]] = ..., hosted_search: _Optional[_Union[HostedToolSearch, str]] = ..., model: _Optional[str] = ..., model_support: _Optional[_Iterable[_Union[ModelSupport, _Mapping]]] = ..., server_descriptions: _Optional[_Mapping[str, str]] = ..., load_tools: _Optional[_Iterable[str]] = ..., visible_tools: _Optional[_Iterable[str]] = ...) -> None: ...

class GetToolsetResponse(_message.Message):
    __slots__ = ["catalog_version", "changes", "deferred_count", "deferred_limit", "deferring", "learned_pinned_tools", "loaded_tools", "loaded_tools_json", "omitted_tools", "provider_names", "search_mode", "search_mode_reason", "system_prompt", "tool_search_json", "tools_json"]
    class ProviderNamesEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CATALOG_VERSION_FIELD_NUMBER: _ClassVar[int]
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    DEFERRED_COUNT_FIELD_NUMBER: _ClassVar[int]
    DEFERRED_LIMIT_FIELD_NUMBER: _ClassVar[int]
    DEFERRING_FIELD_NUMBER: _ClassVar[int]
    LEARNED_PINNED_TOOLS_FIELD_NUMBER: _ClassVar[int]
    LOADED_TOOLS_FIELD_NUMBER: _ClassVar[int]
    LOADED_TOOLS_JSON_FIELD_NUMBER: _ClassVar[int]
    OMITTED_TOOLS_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_NAMES_FIELD_NUMBER: _ClassVar[int]
    SEARCH_MODE_FIELD_NUMBER: _ClassVar[int]
    SEARCH_MODE_REASON_FIELD_NUMBER: _ClassVar[int]
    SYSTEM_PROMPT_FIELD_NUMBER: _ClassVar[int]
    TOOLS_JSON_FIELD_NUMBER: _ClassVar[int]
    TOOL_SEARCH_JSON_FIELD_NUMBER: _ClassVar[int]
    catalog_version: int
    changes: _containers.RepeatedCompositeFieldContainer[ToolsetChange]
    deferred_count: int
    deferred_limit: DeferredLimit
    deferring: bool
    learned_pinned_tools: _containers.RepeatedScalarFieldContainer[str]
    loaded_tools: _containers.RepeatedScalarFieldContainer[str]
    loaded_tools_json: str
    omitted_tools: _containers.RepeatedCompositeFieldContainer[OmittedTool]
    provider_names: _containers.ScalarMap[str, str]
    search_mode: ToolSearchMode
    search_mode_reason: str
    system_prompt: str
    tool_search_json: str
    tools_json: str
    def __init__(self, tools_json: _Optional[str] = ..., tool_search_json: _Optional[str] = ..., system_prompt: _Optional[str] = ..., loaded_tools: _Optional[_Iterable[str]] = ..., deferred_count: _Optional[int] = ..., deferring: bool = ..., provider_names: _Optional[_Mapping[str, str]] = ..., catalog_version: _Optional[int] = ..., search_mode: _Optional[_Union[ToolSearchMode, str]] = ..., search_mode_reason: _Optional[str] = ..., loaded_tools_json: _Optional[str] = ..., changes: _Optional[_Iterable[_Union[ToolsetChange, _Mapping]]] = ..., omitted_tools: _Optional[_Iterable[_Union[OmittedTool, _Mapping]]] = ..., learned_pinned_tools: _Optional[_Iterable[str]] = ..., deferred_limit: _Optional[_Union[DeferredLimit, _Mapping]] = ...) -> None: ...

class LearnPin(_message.Message):
    __slots__ = ["enabled", "max_per_scope", "min_sessions", "share"]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    MAX_PER_SCOPE_FIELD_NUMBER: _ClassVar[int]
    MIN_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    SHARE_FIELD_NUMBER: _ClassVar[int]
    enabled: bool
    max_per_scope: int
    min_sessions: int
    share: float
    def __init__(self, enabled: bool = ..., share: _Optional[float] = ..., min_sessions: _Optional[int] = ..., max_per_scope: _Optional[int] = ...) -> None: ...

class LearnedBoost(_message.Message):
    __slots__ = ["boost", "evidence", "signal", "similarity"]
    BOOST_FIELD_NUMBER: _ClassVar[int]
    EVIDENCE_FIELD_NUMBER: _ClassVar[int]
    SIGNAL_FIELD_NUMBER: _ClassVar[int]
    SIMILARITY_FIELD_NUMBER: _ClassVar[int]
    boost: float
    evidence: float
    signal: str
    similarity: float
    def __init__(self, signal: _Optional[str] = ..., boost: _Optional[float] = ..., similarity: _Optional[float] = ..., evidence: _Optional[float] = ...) -> None: ...

class LearnedQuery(_message.Message):
    __slots__ = ["last_used_unix", "query", "weight"]
    LAST_USED_UNIX_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    WEIGHT_FIELD_NUMBER: _ClassVar[int]
    last_used_unix: int
    query: str
    weight: float
    def __init__(self, query: _Optional[str] = ..., weight: _Optional[float] = ..., last_used_unix: _Optional[int] = ...) -> None: ...

class LearnedTool(_message.Message):
    __slots__ = ["pinned", "queries", "scope", "scope_sessions", "sessions", "tool_name", "weight"]
    PINNED_FIELD_NUMBER: _ClassVar[int]
    QUERIES_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    SCOPE_SESSIONS_FIELD_NUMBER: _ClassVar[int]
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    WEIGHT_FIELD_NUMBER: _ClassVar[int]
    pinned: bool
    queries: _containers.RepeatedCompositeFieldContainer[LearnedQuery]
    scope: str
    scope_sessions: int
    sessions: int
    tool_name: str
    weight: float
    def __init__(self, tool_name: _Optional[str] = ..., weight: _Optional[float] = ..., queries: _Optional[_Iterable[_Union[LearnedQuery, _Mapping]]] = ..., scope: _Optional[str] = ..., sessions: _Optional[int] = ..., scope_sessions: _Optional[int] = ..., pinned: bool = ...) -> None: ...

class ListToolsRequest(_message.Message):
    __slots__ = ["page_size", "page_token", "server"]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SERVER_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    server: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., server: _Optional[str] = ...) -> None: ...

class ListToolsResponse(_message.Message):
    __slots__ = ["catalog_version", "next_page_token", "tools", "total_size"]
    CATALOG_VERSION_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_SIZE_FIELD_NUMBER: _ClassVar[int]
    catalog_version: int
    next_page_token: str
    tools: _containers.RepeatedCompositeFieldContainer[ToolSummary]
    total_size: int
    def __init__(self, tools: _Optional[_Iterable[_Union[ToolSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., total_size: _Optional[int] = ..., catalog_version: _Optional[int] = ...) -> None: ...

class ModelSupport(_message.Message):
    __slots__ = ["mode", "model_prefix"]
    MODEL_PREFIX_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    mode: ToolSearchMode
    model_prefix: str
    def __init__(self, model_prefix: _Optional[str] = ..., mode: _Optional[_Union[ToolSearchMode, str]] = ...) -> None: ...

class OmittedTool(_message.Message):
    __slots__ = ["reason", "tool_name"]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    reason: str
    tool_name: str
    def __init__(self, tool_name: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class ReportToolUseRequest(_message.Message):
    __slots__ = ["outcome", "query", "session_id", "tool_name"]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    outcome: ToolUseOutcome
    query: str
    session_id: str
    tool_name: str
    def __init__(self, session_id: _Optional[str] = ..., tool_name: _Optional[str] = ..., outcome: _Optional[_Union[ToolUseOutcome, str]] = ..., query: _Optional[str] = ...) -> None: ...

class ReportToolUseResponse(_message.Message):
    __slots__ = ["miss", "queries", "reason", "recorded"]
    MISS_FIELD_NUMBER: _ClassVar[int]
    QUERIES_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    RECORDED_FIELD_NUMBER: _ClassVar[int]
    miss: bool
    queries: _containers.RepeatedScalarFieldContainer[str]
    reason: str
    recorded: bool
    def __init__(self, recorded: bool = ..., queries: _Optional[_Iterable[str]] = ..., reason: _Optional[str] = ..., miss: bool = ...) -> None: ...

class ResetLearnedRequest(_message.Message):
    __slots__ = ["all", "tool_name"]
    ALL_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    all: bool
    tool_name: str
    def __init__(self, tool_name: _Optional[str] = ..., all: bool = ...) -> None: ...

class ResetLearnedResponse(_message.Message):
    __slots__ = ["tools"]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    tools: int
    def __init__(self, tools: _Optional[int] = ...) -> None: ...

class ResetSessionRequest(_message.Message):
    __slots__ = ["session_id"]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class ResetSessionResponse(_message.Message):
    __slots__ = ["existed"]
    EXISTED_FIELD_NUMBER: _ClassVar[int]
    existed: bool
    def __init__(self, existed: bool = ...) -> None: ...

class SearchMetadata(_message.Message):
    __slots__ = ["catalog_version", "confidence", "execution_time_ms", "execution_time_us", "fallback_reason", "index_state", "no_confident_match", "query", "requested_search_type", "search_type", "suggestion"]
    CATALOG_VERSION_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    EXECUTION_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    EXECUTION_TIME_US_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_REASON_FIELD_NUMBER: _ClassVar[int]
    INDEX_STATE_FIELD_NUMBER: _ClassVar[int]
    NO_CONFIDENT_MATCH_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    REQUESTED_SEARCH_TYPE_FIELD_NUMBER: _ClassVar[int]
    SEARCH_TYPE_FIELD_NUMBER: _ClassVar[int]
    SUGGESTION_FIELD_NUMBER: _ClassVar[int]
    catalog_version: int
    confidence: float
    execution_time_ms: int
    execution_time_us: int
    fallback_reason: str
    index_state: IndexState
    no_confident_match: bool
    query: str
    requested_search_type: str
    search_type: str
    suggestion: str
    def __init__(self, search_type: _Optional[str] = ..., requested_search_type: _Optional[str] = ..., fallback_reason: _Optional[str] = ..., query: _Optional[str] = ..., execution_time_ms: _Optional[int] = ..., catalog_version: _Optional[int] = ..., execution_time_us: _Optional[int] = ..., suggestion: _Optional[str] = ..., confidence: _Optional[float] = ..., no_confident_match: bool = ..., index_state: _Optional[_Union[IndexState, str]] = ...) -> None: ...

class SearchRequest(_message.Message):
    __slots__ = ["category_filter", "debug", "for_model", "max_results", "page_token", "query", "search_type", "session_id", "top_band", "visible_tools"]
    CATEGORY_FILTER_FIELD_NUMBER: _ClassVar[int]
    DEBUG_FIELD_NUMBER: _ClassVar[int]
    FOR_MODEL_FIELD_NUMBER: _ClassVar[int]
    MAX_RESULTS_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    QUERY_FIELD_NUMBER: _ClassVar[int]
    SEARCH_TYPE_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TOP_BAND_FIELD_NUMBER: _ClassVar[int]
    VISIBLE_TOOLS_FIELD_NUMBER: _ClassVar[int]
    category_filter: str
    debug: bool
    for_model: bool
    max_results: int
    page_token: str
    query: str
    search_type: SearchType
    session_id: str
    top_band: float
    visible_tools: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, query: _Optional[str] = ..., search_type: _Optional[_Union[SearchType, str]] = ..., max_results: _Optional[int] = ..., category_filter: _Optional[str] = ..., visible_tools: _Optional[_Iterable[str]] = ..., session_id: _Optional[str] = ..., debug: bool = ..., page_token: _Optional[str] = ..., top_band: _Optional[float] = ..., for_model: bool = ...) -> None: ...

class SearchResponse(_message.Message):
    __slots__ = ["available_tools", "hint", "next_page_token", "search_metadata", "tool_references", "total_matches", "unknown_tools"]
    AVAILABLE_TOOLS_FIELD_NUMBER: _ClassVar[int]
    HINT_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEARCH_METADATA_FIELD_NUMBER: _ClassVar[int]
    TOOL_REFERENCES_FIELD_NUMBER: _ClassVar[int]
    TOTAL_MATCHES_FIELD_NUMBER: _ClassVar[int]
    UNKNOWN_TOOLS_FIELD_NUMBER: _ClassVar[int]
    available_tools: _containers.RepeatedScalarFieldContainer[str]
    hint: str
    next_page_token: str
    search_metadata: SearchMetadata
    tool_references: _containers.RepeatedCompositeFieldContainer[ToolReference]
    total_matches: int
    unknown_tools: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tool_references: _Optional[_Iterable[_Union[ToolReference, _Mapping]]] = ..., total_matches: _Optional[int] = ..., search_metadata: _Optional[_Union[SearchMetadata, _Mapping]] = ..., hint: _Optional[str] = ..., available_tools: _Optional[_Iterable[str]] = ..., next_page_token: _Optional[str] = ..., unknown_tools: _Optional[_Iterable[str]] = ...) -> None: ...

class ServerInfo(_message.Message):
    __slots__ = ["name", "tool_count"]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TOOL_COUNT_FIELD_NUMBER: _ClassVar[int]
    name: str
    tool_count: int
    def __init__(self, name: _Optional[str] = ..., tool_count: _Optional[int] = ...) -> None: ...

class Tool(_message.Message):
    __slots__ = ["annotations", "category", "description", "input_schema", "name", "output_schema", "server", "title"]
    ANNOTATIONS_FIELD_NUMBER: _ClassVar[int]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    INPUT_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    SERVER_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    annotations: str
    category: str
    description: str
    input_schema: str
    name: str
    output_schema: str
    server: str
    title: str
    def __init__(self, name: _Optional[str] = ..., server: _Optional[str] = ..., category: _Optional[str] = ..., description: _Optional[str] = ..., input_schema: _Optional[str] = ..., annotations: _Optional[str] = ..., title: _Optional[str] = ..., output_schema: _Optional[str] = ...) -> None: ...

class ToolReference(_message.Message):
    __slots__ = ["explanation", "learned", "relevance_score", "server", "summary", "tool_name"]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    LEARNED_FIELD_NUMBER: _ClassVar[int]
    RELEVANCE_SCORE_FIELD_NUMBER: _ClassVar[int]
    SERVER_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    explanation: str
    learned: LearnedBoost
    relevance_score: float
    server: str
    summary: str
    tool_name: str
    def __init__(self, tool_name: _Optional[str] = ..., relevance_score: _Optional[float] = ..., summary: _Optional[str] = ..., server: _Optional[str] = ..., explanation: _Optional[str] = ..., learned: _Optional[_Union[LearnedBoost, _Mapping]] = ...) -> None: ...

class ToolSummary(_message.Message):
    __slots__ = ["category", "name", "server", "summary"]
    CATEGORY_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SERVER_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    category: str
    name: str
    server: str
    summary: str
    def __init__(self, name: _Optional[str] = ..., server: _Optional[str] = ..., category: _Optional[str] = ..., summary: _Optional[str] = ...) -> None: ...

class ToolsetChange(_message.Message):
    __slots__ = ["detail", "kind", "tool_name"]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    TOOL_NAME_FIELD_NUMBER: _ClassVar[int]
    detail: str
    kind: str
    tool_name: str
    def __init__(self, tool_name: _Optional[str] = ..., kind: _Optional[str] = ..., detail: _Optional[str] = ...) -> None: ...

class UpsertToolsRequest(_message.Message):
    __slots__ = ["tools"]
    TOOLS_FIELD_NUMBER: _ClassVar[int]
    tools: _containers.RepeatedCompositeFieldContainer[Tool]
    def __init__(self, tools: _Optional[_Iterable[_Union[Tool, _Mapping]]] = ...) -> None: ...

class UpsertToolsResponse(_message.Message):
    __slots__ = ["catalog_version", "inserted", "tool_count", "updated"]
    CATALOG_VERSION_FIELD_NUMBER: _ClassVar[int]
    INSERTED_FIELD_NUMBER: _ClassVar[int]
    TOOL_COUNT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_FIELD_NUMBER: _ClassVar[int]
    catalog_version: int
    inserted: int
    tool_count: int
    updated: int
    def __init__(self, catalog_version: _Optional[int] = ..., inserted: _Optional[int] = ..., updated: _Optional[int] = ..., tool_count: _Optional[int] = ...) -> None: ...

class SearchType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class IndexState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ToolFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class DeferredToolMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ToolSearchMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class HostedToolSearch(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class ToolUseOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
