"""toolsearch: the Python client of the toolsearch sidecar (tool search for
LLM agents), with the Agent helper that builds each turn's tool list per
provider and answers tool_search calls (portable, Anthropic tool_reference,
OpenAI tool_search_output). The same surface as the Go client
(clients/go); it runs on Debian's python3-grpcio and python3-protobuf.

    from toolsearch import Client, Agent, FORMAT_ANTHROPIC

    with Client("127.0.0.1:50051") as c:
        agent = Agent(c, always_loaded=["weather__get_current_weather"])
        tools = agent.tools("session-1", FORMAT_ANTHROPIC).tools
        result = agent.handle_tool_call("session-1", '{"query": "send slack message"}')
"""

from toolsearch.agent import (
    FORMAT_ANTHROPIC,
    FORMAT_GEMINI,
    FORMAT_MCP,
    FORMAT_OPENAI_CHAT,
    FORMAT_OPENAI_RESPONSES,
    SEARCH_AUTO,
    SEARCH_NATIVE_CLIENT,
    SEARCH_NATIVE_HOSTED,
    SEARCH_PORTABLE,
    SEARCH_TOOL_NAME,
    Agent,
    Toolset,
)
from toolsearch.client import Client
from toolsearch.render import render_result
from toolsearch.v1 import toolsearch_pb2 as pb

__all__ = [
    "Agent",
    "Client",
    "Toolset",
    "render_result",
    "pb",
    "SEARCH_TOOL_NAME",
    "FORMAT_ANTHROPIC",
    "FORMAT_GEMINI",
    "FORMAT_MCP",
    "FORMAT_OPENAI_CHAT",
    "FORMAT_OPENAI_RESPONSES",
    "SEARCH_AUTO",
    "SEARCH_NATIVE_CLIENT",
    "SEARCH_NATIVE_HOSTED",
    "SEARCH_PORTABLE",
]
