// The Client: the sidecar's API over JSON (the Connect protocol's unary
// form, docs/api.md), with the generated message types of src/gen.

import { create, fromJson, toJson, type DescMessage, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import {
  DeleteToolsRequestSchema,
  DeleteToolsResponseSchema,
  GetCatalogInfoRequestSchema,
  GetCatalogInfoResponseSchema,
  GetToolsRequestSchema,
  GetToolsResponseSchema,
  ListToolsRequestSchema,
  ListToolsResponseSchema,
  ReportToolUseRequestSchema,
  ReportToolUseResponseSchema,
  SearchRequestSchema,
  SearchResponseSchema,
  SearchType,
  ToolSchema,
  ToolUseOutcome,
  UpsertToolsRequestSchema,
  UpsertToolsResponseSchema,
  type DeleteToolsResponse,
  type GetCatalogInfoResponse,
  type ListToolsResponse,
  type ReportToolUseResponse,
  type SearchResponse,
  type Tool,
  type UpsertToolsResponse,
} from "./gen/toolsearch/v1/toolsearch_pb.js";

/** The full name of the search service. */
export const SERVICE_NAME = "toolsearch.v1.ToolSearchService";

/**
 * A call the sidecar refused or could not answer: `code` is the gRPC code
 * in the Connect protocol's snake_case ("invalid_argument", "unavailable",
 * …), `message` the sidecar's words, `httpStatus` the HTTP status (0 when
 * the sidecar could not be reached, with code "unavailable").
 */
export class ToolSearchError extends Error {
  readonly code: string;
  readonly httpStatus: number;
  constructor(code: string, message: string, httpStatus: number) {
    super(`${code}: ${message}`);
    this.name = "ToolSearchError";
    this.code = code;
    this.httpStatus = httpStatus;
  }
  /** The sidecar's message alone, without the code. */
  get detail(): string {
    return this.message.slice(this.code.length + 2);
  }
}

/** Options of a {@link Client}. */
export interface ClientOptions {
  /** Sent as "Authorization: Bearer <token>" with every call (--auth-token-file). */
  token?: string;
  /** The deadline of each call, in milliseconds (Connect-Timeout-Ms); 0 or unset: none of the client's own. */
  timeoutMs?: number;
  /** Extra headers of every call (e.g. traceparent). */
  headers?: Record<string, string>;
  /** The fetch to use; default globalThis.fetch. */
  fetch?: typeof fetch;
}

/** Fields of a search besides the query, as the Go client's SearchOptions. */
export interface SearchOptions {
  searchType?: SearchType;
  /** 0: the sidecar's default (5). */
  maxResults?: number;
  category?: string;
  /** Exact names or "server:*" patterns; nothing outside them is returned. */
  visibleTools?: string[];
  /** Reveals the tools found to this session (Agent.handleToolCall sets it). */
  sessionId?: string;
  debug?: boolean;
  pageToken?: string;
  topBand?: number;
  /** The answer goes to a model as is: only results that clear the relevance floor (SearchRequest.for_model). */
  forModel?: boolean;
}

const int32 = (n: number): number => Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, Math.trunc(n)));

/**
 * A client of the toolsearch sidecar at baseUrl (e.g. "http://127.0.0.1:50051",
 * the gRPC port, which also serves JSON over HTTP/1.1). Every method is one
 * POST; a client holds no connection state of its own, so it is safe to
 * share between concurrent calls.
 */
export class Client {
  readonly baseUrl: string;
  private readonly opts: ClientOptions;

  constructor(baseUrl: string, opts: ClientOptions = {}) {
    if (!baseUrl) throw new Error("toolsearch: empty base URL: want the sidecar address, e.g. http://127.0.0.1:50051");
    this.baseUrl = baseUrl.includes("://") ? baseUrl.replace(/\/+$/, "") : `http://${baseUrl}`;
    this.opts = opts;
  }

  /** Calls a method of the search service with a request of schema In, answering Out. */
  async call<In extends DescMessage, Out extends DescMessage>(
    method: string,
    input: In,
    output: Out,
    request: MessageInitShape<In>,
  ): Promise<MessageShape<Out>> {
    const body = toJson(input, create(input, request), { useProtoFieldName: true });
    const json = await this.post(`/${SERVICE_NAME}/${method}`, body);
    return fromJson(output, json as never, { ignoreUnknownFields: true });
  }

  /** POSTs a JSON body to path and returns the JSON answer, or throws ToolSearchError. */
  async post(path: string, body: unknown): Promise<unknown> {
    const headers: Record<string, string> = { "Content-Type": "application/json", "Connect-Protocol-Version": "1", ...this.opts.headers };
    if (this.opts.token) headers["Authorization"] = `Bearer ${this.opts.token}`;
    if (this.opts.timeoutMs && this.opts.timeoutMs > 0) headers["Connect-Timeout-Ms"] = String(Math.ceil(this.opts.timeoutMs));
    const f = this.opts.fetch ?? globalThis.fetch;
    let resp: Response;
    try {
      resp = await f(this.baseUrl + path, { method: "POST", headers, body: JSON.stringify(body) });
    } catch (e) {
      throw new ToolSearchError("unavailable", `cannot reach the sidecar at ${this.baseUrl}: ${String(e)}`, 0);
    }
    const text = await resp.text();
    let json: unknown;
    try {
      json = text === "" ? {} : JSON.parse(text);
    } catch {
      throw new ToolSearchError("unknown", `the sidecar answered ${resp.status} with a body that is not JSON: ${text.slice(0, 200)}`, resp.status);
    }
    if (!resp.ok) {
      const err = json as { code?: string; message?: string };
      throw new ToolSearchError(err.code ?? "unknown", err.message ?? `HTTP ${resp.status}`, resp.status);
    }
    return json;
  }

  /** Searches the catalog for tools matching query; the empty query browses. */
  search(query: string, o: SearchOptions = {}): Promise<SearchResponse> {
    return this.call("Search", SearchRequestSchema, SearchResponseSchema, {
      query,
      searchType: o.searchType ?? SearchType.UNSPECIFIED,
      maxResults: int32(o.maxResults ?? 0),
      categoryFilter: o.category ?? "",
      visibleTools: o.visibleTools ?? [],
      sessionId: o.sessionId ?? "",
      debug: o.debug ?? false,
      pageToken: o.pageToken ?? "",
      topBand: o.topBand ?? 0,
      forModel: o.forModel ?? false,
    });
  }

  /** The full definitions of the named tools, in the order asked (not_found names the unknown ones). */
  async getTools(...names: string[]): Promise<Tool[]> {
    return (await this.call("GetTools", GetToolsRequestSchema, GetToolsResponseSchema, { names })).tools;
  }

  /** One page of tool names and summaries, in name order. */
  listTools(server = "", pageToken = "", pageSize = 0): Promise<ListToolsResponse> {
    return this.call("ListTools", ListToolsRequestSchema, ListToolsResponseSchema, { server, pageToken, pageSize: int32(pageSize) });
  }

  /** Inserts or replaces tools, all or nothing. */
  upsertTools(...tools: MessageInitShape<typeof ToolSchema>[]): Promise<UpsertToolsResponse> {
    return this.call("UpsertTools", UpsertToolsRequestSchema, UpsertToolsResponseSchema, { tools });
  }

  /** Removes the named tools, all or nothing. */
  deleteTools(...names: string[]): Promise<DeleteToolsResponse> {
    return this.call("DeleteTools", DeleteToolsRequestSchema, DeleteToolsResponseSchema, { names });
  }

  /** The catalog's tool count, version, embedder, index state and servers. */
  catalogInfo(): Promise<GetCatalogInfoResponse> {
    return this.call("GetCatalogInfo", GetCatalogInfoRequestSchema, GetCatalogInfoResponseSchema, {});
  }

  /** Tells the sidecar that the model of session called tool, with outcome. */
  reportToolUse(session: string, tool: string, outcome: ToolUseOutcome): Promise<ReportToolUseResponse> {
    return this.call("ReportToolUse", ReportToolUseRequestSchema, ReportToolUseResponseSchema, { sessionId: session, toolName: tool, outcome });
  }

  /** True when the sidecar's health service says SERVING, false for any other status; throws when the check fails. */
  async health(): Promise<boolean> {
    const r = (await this.post("/grpc.health.v1.Health/Check", {})) as { status?: string };
    return r.status === "SERVING";
  }
}
