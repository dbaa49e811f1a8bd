// The Agent helper: an agent's side of tool search over a Client, with the
// Go client's surface and semantics (clients/go/agent.go, native.go).

import { create, type MessageInitShape } from "@bufbuild/protobuf";
import {
  DeferredToolMode,
  GetToolsetRequestSchema,
  GetToolsetResponseSchema,
  HostedToolSearch,
  ModelSupportSchema,
  ResetSessionRequestSchema,
  ResetSessionResponseSchema,
  SearchResponseSchema,
  SearchType,
  ToolFormat,
  ToolReferenceSchema,
  ToolSearchMode,
  ToolUseOutcome,
  type GetToolsetResponse,
  type OmittedTool,
  type SearchResponse,
  type ToolsetChange,
} from "./gen/toolsearch/v1/toolsearch_pb.js";
import { Client, ToolSearchError } from "./client.js";
import { goJSON, goQuote } from "./json.js";
import { renderResult } from "./render.js";

/** The name of the tool_search tool in every toolset: pass its calls to {@link Agent.handleToolCall}. */
export const SEARCH_TOOL_NAME = "tool_search";

/** Options of an {@link Agent}, as the Go helper's With… options. */
export interface AgentOptions {
  /** Tools sent in full every turn: exact names, "server:*", "category:NAME" or "prefix*" patterns. */
  alwaysLoaded?: string[];
  /** Catalog size from which tools are deferred; 0: the sidecar's 15; 1: always. */
  deferralThreshold?: number;
  deferredMode?: DeferredToolMode;
  /** How the model finds deferred tools (default PORTABLE). */
  searchMode?: ToolSearchMode;
  hostedSearch?: HostedToolSearch;
  /** The model the lists are for; AUTO decides from it. */
  model?: string;
  /** [prefix, mode] rules checked first by AUTO, first match wins. */
  modelSupport?: Array<[string, ToolSearchMode]>;
  /** Servers' own descriptions, for the OpenAI Responses namespaces. */
  serverDescriptions?: Record<string, string>;
  /** handleToolCall names the tools it returns as this provider sees them. */
  resultFormat?: ToolFormat;
  /** Scopes every search the agent runs, and its tool lists (built from the visible tools alone): exact names, "server:*", "category:NAME" or "prefix*" patterns. */
  visibleTools?: string[];
}

/** The tool list for a model's next call. */
export interface Toolset {
  /** The tools array to send as the request's tools (parsed JSON). */
  tools: unknown[];
  /** The same, as the sidecar's JSON text. */
  toolsJson: string;
  /** The tool_search definition alone, in the same format. */
  searchTool: unknown;
  /** Text to append to the system prompt ("" when nothing is deferred). */
  systemPrompt: string;
  /** Catalog names of the tools sent in full, in order. */
  loaded: string[];
  /** The number of catalog tools not sent in full. */
  deferred: number;
  /** Names the provider sees → catalog names, where they differ. */
  providerNames: Record<string, string>;
  catalogVersion: bigint;
  /** The search mode used (AUTO resolved), and why. */
  searchMode: ToolSearchMode;
  searchModeReason: string;
  changes: ToolsetChange[];
  omitted: OmittedTool[];
  /** The catalog name of a tool the model called by its provider name. */
  catalogName(providerName: string): string;
}

/** An Anthropic Messages tool_result block, as anthropicToolResult returns it. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string | Array<{ type: "text"; text: string } | { type: "tool_reference"; tool_name: string }>;
  is_error?: true;
}

/** An OpenAI Responses tool_search_output item, as openAIToolSearchOutput returns it. */
export interface OpenAIToolSearchOutput {
  type: "tool_search_output";
  call_id: string;
  execution: "client";
  status: "completed";
  tools: unknown[];
}

const searchTypes: Record<string, SearchType> = {
  "": SearchType.UNSPECIFIED,
  semantic: SearchType.SEMANTIC,
  keyword: SearchType.KEYWORD,
  regex: SearchType.REGEX,
};

/** A mistake in a tool_search call that the model can correct. */
class Fix extends Error {}

/** A tool_search call's arguments, as parseSearchArguments reads them (the Go client's SearchArguments). */
export interface SearchArguments {
  query: string;
  searchType: SearchType;
  maxResults: number;
  categoryFilter: string;
  pageToken: string;
}

// A decimal number as Go's strconv.ParseFloat reads it (no hex, no underscores).
const decimal = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|infinity|nan)$/i;

function parseCount(v: unknown): number {
  let f: number;
  if (typeof v === "number") f = v;
  else if (typeof v === "string" && decimal.test(v.trim())) f = Number(/^[+-]?inf/i.test(v.trim()) ? (v.trim()[0] === "-" ? -Infinity : Infinity) : v.trim());
  else throw new Error("not a number");
  if (!Number.isFinite(f)) throw new Error("not a finite number");
  return Math.trunc(Math.max(Math.min(f, 2 ** 31 - 1), -(2 ** 31)));
}

/**
 * Reads a tool_search call's arguments tolerantly, as the Go Agent does:
 * numbers as strings ("5") or floats (5.0), null for optional fields,
 * search_type in any case; unknown fields are ignored; empty input is the
 * empty object. Throws with what the model should change.
 */
export function parseSearchArguments(args: string | Record<string, unknown>): SearchArguments {
  let raw: unknown = args;
  if (typeof args === "string") {
    try {
      raw = args.trim() === "" ? {} : JSON.parse(args);
    } catch {
      raw = undefined;
    }
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new Fix('the arguments are not a JSON object; call tool_search with {"query": "what the tool should do"}');
  }
  const r = raw as Record<string, unknown>;
  if (!("query" in r) || !(r["query"] === null || typeof r["query"] === "string")) {
    throw new Fix('"query" is missing or not a string; call tool_search with {"query": "what the tool should do"}');
  }
  const st = r["search_type"] ?? "";
  if (typeof st !== "string") throw new Fix('"search_type" must be a string: "semantic", "keyword" or "regex"');
  const searchType = searchTypes[st.trim().toLowerCase()];
  if (searchType === undefined) throw new Fix(`"search_type" ${goQuote(st)} is not known; use "semantic", "keyword" or "regex"`);
  let maxResults = 0;
  if (r["max_results"] !== undefined && r["max_results"] !== null) {
    try {
      maxResults = Math.max(parseCount(r["max_results"]), 0); // below 1: the default
    } catch {
      throw new Fix('"max_results" must be a number from 1 to 10');
    }
  }
  const category = r["category_filter"] ?? "";
  if (typeof category !== "string") throw new Fix('"category_filter" must be a string, such as a server name');
  const pageToken = r["page_token"] ?? "";
  if (typeof pageToken !== "string") throw new Fix('"page_token" must be a string: the next_page_token of the previous result');
  return { query: (r["query"] as string | null) ?? "", searchType, maxResults, categoryFilter: category, pageToken };
}

/** The tool result of a call the model should correct: {"error": "…"}. */
export function errorResult(msg: string): string {
  return goJSON({ error: msg });
}

function fixable(e: unknown): e is ToolSearchError {
  return e instanceof ToolSearchError && (e.code === "invalid_argument" || e.code === "not_found");
}

const invert = (m: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [v, k]));

/**
 * An agent's side of tool search, over a {@link Client}. Before each model
 * call, {@link Agent.tools} returns the tool list to send (tool_search, the
 * always-loaded tools, and the tools the session's searches revealed); when
 * the model calls tool_search, {@link Agent.handleToolCall} runs the search,
 * which reveals the tools it finds to the session, and returns the result to
 * hand back to the model. In native client mode,
 * {@link Agent.anthropicToolResult} and {@link Agent.openAIToolSearchOutput}
 * answer the providers' own tool-search protocols. The sidecar keeps the
 * session's state, so an Agent holds only its options and may serve any
 * number of sessions concurrently.
 */
export class Agent {
  readonly client: Client;
  private readonly o: AgentOptions;

  constructor(client: Client, options: AgentOptions = {}) {
    this.client = client;
    this.o = options;
  }

  private toolset(req: MessageInitShape<typeof GetToolsetRequestSchema>): Promise<GetToolsetResponse> {
    return this.client.call("GetToolset", GetToolsetRequestSchema, GetToolsetResponseSchema, req);
  }

  /**
   * The tool list for the model's next call, for session ("" for a list
   * without revealed tools), in a provider's format. Each call's list starts
   * with the previous call's, so a provider's prompt cache keeps its prefix.
   */
  async tools(session: string, format: ToolFormat): Promise<Toolset> {
    const o = this.o;
    const r = await this.toolset({
      sessionId: session,
      format,
      alwaysLoaded: o.alwaysLoaded ?? [],
      deferralThreshold: o.deferralThreshold ?? 0,
      deferredMode: o.deferredMode ?? DeferredToolMode.UNSPECIFIED,
      searchMode: o.searchMode ?? ToolSearchMode.UNSPECIFIED,
      hostedSearch: o.hostedSearch ?? HostedToolSearch.UNSPECIFIED,
      model: o.model ?? "",
      modelSupport: (o.modelSupport ?? []).map(([modelPrefix, mode]) => create(ModelSupportSchema, { modelPrefix, mode })),
      serverDescriptions: o.serverDescriptions ?? {},
      visibleTools: o.visibleTools ?? [],
    });
    const providerNames = { ...r.providerNames };
    return {
      tools: r.toolsJson ? (JSON.parse(r.toolsJson) as unknown[]) : [],
      toolsJson: r.toolsJson,
      searchTool: r.toolSearchJson ? JSON.parse(r.toolSearchJson) : undefined,
      systemPrompt: r.systemPrompt,
      loaded: [...r.loadedTools],
      deferred: r.deferredCount,
      providerNames,
      catalogVersion: r.catalogVersion,
      searchMode: r.searchMode,
      searchModeReason: r.searchModeReason,
      changes: r.changes,
      omitted: r.omittedTools,
      catalogName: (name: string) => providerNames[name] ?? name,
    };
  }

  /** Forgets the tools revealed to session. */
  async reset(session: string): Promise<void> {
    await this.client.call("ResetSession", ResetSessionRequestSchema, ResetSessionResponseSchema, { sessionId: session });
  }

  /**
   * Tells the sidecar that the model of session called tool (its catalog
   * name: pass a provider's name through Toolset.catalogName) and how it
   * went: error undefined is a success. Call it once per tool call the
   * application executes; a sidecar with --learn learns from it. Calls of
   * tool_search are not reported. A failed report rejects, for the agent's
   * logs only.
   */
  async toolCalled(session: string, tool: string, error?: unknown): Promise<void> {
    if (tool === SEARCH_TOOL_NAME) return;
    await this.client.reportToolUse(session, tool, error === undefined || error === null ? ToolUseOutcome.SUCCESS : ToolUseOutcome.ERROR);
  }

  /**
   * Answers the model's tool_search call (arguments as the model sent them:
   * JSON text or the parsed object) with the reference-format JSON for the
   * model; the tools found are revealed to the session. A mistake the model
   * can fix is the result {"error": "…"}; the promise rejects only for what
   * the agent must handle (sidecar unreachable, deadline).
   */
  async handleToolCall(session: string, args: string | Record<string, unknown>): Promise<string> {
    let parsed: SearchArguments;
    try {
      parsed = parseSearchArguments(args);
    } catch (e) {
      if (e instanceof Fix) return errorResult(e.message);
      throw e;
    }
    let resp: SearchResponse;
    try {
      resp = await this.search(session, parsed);
    } catch (e) {
      if (fixable(e)) return errorResult(e.detail);
      throw e;
    }
    if (this.o.resultFormat !== undefined && this.o.resultFormat !== ToolFormat.UNSPECIFIED) {
      resp = await this.providerNamed(session, resp);
    }
    return renderResult(resp);
  }

  /**
   * Answers the model's tool_search tool_use block in Anthropic native client
   * mode (input: the block's input) with the tool_result block for the next
   * user message: a text and one tool_reference per tool found, named as the
   * request's tools array names them. A mistake the model can fix gives
   * is_error and the text of what to change.
   */
  async anthropicToolResult(session: string, toolUseId: string, input: string | Record<string, unknown>): Promise<AnthropicToolResult> {
    let found: Found;
    try {
      found = await this.searchAndLoad(session, input, ToolFormat.ANTHROPIC);
    } catch (e) {
      if (e instanceof Fix) return { type: "tool_result", tool_use_id: toolUseId, content: e.message, is_error: true };
      throw e;
    }
    return {
      type: "tool_result",
      tool_use_id: toolUseId,
      content: [{ type: "text", text: found.text() }, ...found.names.map((n) => ({ type: "tool_reference" as const, tool_name: n }))],
    };
  }

  /**
   * Answers a tool_search_call output item in OpenAI Responses native client
   * mode (the item: {"type":"tool_search_call","call_id":…,"arguments":…})
   * with the tool_search_output item to append to the next request's input:
   * the same call_id and the tools found in the Responses shape. Arguments
   * the model got wrong give no tools; an item that is not a
   * tool_search_call rejects.
   */
  async openAIToolSearchOutput(session: string, call: string | Record<string, unknown>): Promise<OpenAIToolSearchOutput> {
    let item: unknown = call;
    if (typeof call === "string") {
      try {
        item = JSON.parse(call);
      } catch {
        item = undefined;
      }
    }
    const it = item as Record<string, unknown> | undefined;
    if (typeof it !== "object" || it === null || it["type"] !== "tool_search_call") {
      const text = typeof call === "string" ? call : goJSON(call);
      throw new Error(`toolsearch: openAIToolSearchOutput: not a tool_search_call item: ${text.slice(0, 200)}`);
    }
    const a = it["arguments"];
    const args = typeof a === "string" ? a : a === undefined || a === null ? "" : goJSON(a);
    let tools: unknown[] = [];
    try {
      tools = (await this.searchAndLoad(session, args, ToolFormat.OPENAI_RESPONSES)).loaded;
    } catch (e) {
      if (!(e instanceof Fix)) throw e;
    }
    const callId = typeof it["call_id"] === "string" ? it["call_id"] : "";
    return { type: "tool_search_output", call_id: callId, execution: "client", status: "completed", tools };
  }

  private search(session: string, a: SearchArguments): Promise<SearchResponse> {
    return this.client.search(a.query, {
      visibleTools: this.o.visibleTools ?? [],
      sessionId: session,
      searchType: a.searchType,
      maxResults: a.maxResults,
      category: a.categoryFilter,
      pageToken: a.pageToken,
      forModel: true,
    });
  }

  private async searchAndLoad(session: string, args: string | Record<string, unknown>, format: ToolFormat): Promise<Found> {
    const a = parseSearchArguments(args);
    let resp: SearchResponse;
    try {
      resp = await this.search(session, a);
    } catch (e) {
      if (fixable(e)) throw new Fix(e.detail);
      throw e;
    }
    const found = new Found(a.query, resp.hint);
    const catalogNames = resp.toolReferences.map((r) => r.toolName);
    found.summaries = resp.toolReferences.map((r) => r.summary);
    if (catalogNames.length === 0) return found;
    // The portable list loads the found tools as the native one would, at a
    // fraction of its size (the native list holds the whole catalog).
    const ts = await this.toolset({
      sessionId: session,
      format,
      searchMode: ToolSearchMode.PORTABLE,
      deferralThreshold: 1,
      serverDescriptions: this.o.serverDescriptions ?? {},
      loadTools: catalogNames,
      visibleTools: this.o.visibleTools ?? [],
    });
    const provider = invert(ts.providerNames);
    found.names = catalogNames.map((n) => provider[n] ?? n);
    found.loaded = ts.loadedToolsJson ? (JSON.parse(ts.loadedToolsJson) as unknown[]) : [];
    return found;
  }

  private async providerNamed(session: string, resp: SearchResponse): Promise<SearchResponse> {
    const names = resp.toolReferences.map((r) => r.toolName);
    if (names.length === 0) return resp;
    const ts = await this.toolset({ sessionId: session, format: this.o.resultFormat, deferralThreshold: 1, loadTools: names, visibleTools: this.o.visibleTools ?? [] });
    const provider = invert(ts.providerNames);
    if (Object.keys(provider).length === 0) return resp;
    const out = create(SearchResponseSchema, resp);
    out.toolReferences = resp.toolReferences.map((r) => create(ToolReferenceSchema, { ...r, toolName: provider[r.toolName] ?? r.toolName }));
    return out;
  }
}

/** What a native search found. */
class Found {
  names: string[] = [];
  summaries: string[] = [];
  loaded: unknown[] = [];
  constructor(
    readonly query: string,
    readonly hint: string,
  ) {}

  /** The short text the model reads beside the tool references. */
  text(): string {
    if (this.names.length === 0) {
      let t = `No tool matched ${goQuote(this.query)}.`;
      if (this.hint) t += " " + this.hint;
      return t;
    }
    const lines = [`Found ${this.names.length} tools for ${goQuote(this.query)}; they are loaded and can be called now:`];
    this.names.forEach((n, i) => lines.push("- " + n + (this.summaries[i] ? ": " + this.summaries[i] : "")));
    return lines.join("\n");
  }
}
