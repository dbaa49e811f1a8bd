"""An agent loop in the Anthropic Messages API's shapes, with the sidecar's
tool search: each turn sends the session's tool list; tool_search calls are
answered by the Agent (portable, or Anthropic's native tool_reference
protocol with --native), other tool calls are run by the application (here
a stub) and reported for learning.

create_message takes the request as a dict and returns the response as a
dict, so any client fits: with the Anthropic SDK,

    import anthropic
    sdk = anthropic.Anthropic()
    run(task, lambda req: sdk.messages.create(**req).model_dump(), agent)

Run as a script it plays a scripted model (search, call what it found,
answer), so it runs against a sidecar without an API key:

    PYTHONPATH=clients/python/src python3 clients/python/examples/anthropic_loop.py 127.0.0.1:50051 [--native]
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Callable
from typing import Any

from toolsearch import FORMAT_ANTHROPIC, SEARCH_NATIVE_CLIENT, SEARCH_PORTABLE, SEARCH_TOOL_NAME, Agent, Client

Message = dict[str, Any]


def run(task: str, create_message: Callable[[Message], Message], agent: Agent, native: bool, model: str = "claude-sonnet-4-6") -> str:
    session = str(uuid.uuid4())
    messages: list[Message] = [{"role": "user", "content": task}]
    for _ in range(8):
        ts = agent.tools(session, FORMAT_ANTHROPIC)
        req: Message = {"model": model, "max_tokens": 1024, "tools": ts.tools, "messages": messages}
        if ts.system_prompt:
            req["system"] = ts.system_prompt
        resp = create_message(req)
        messages.append({"role": "assistant", "content": resp["content"]})
        results: list[Message] = []
        for block in resp["content"]:
            if block["type"] != "tool_use":
                continue
            if block["name"] == SEARCH_TOOL_NAME:
                if native:
                    results.append(agent.anthropic_tool_result(session, block["id"], block["input"]))
                else:
                    results.append({"type": "tool_result", "tool_use_id": block["id"], "content": agent.handle_tool_call(session, block["input"])})
                continue
            name = ts.catalog_name(block["name"])
            results.append({"type": "tool_result", "tool_use_id": block["id"], "content": f"ok: {name} ran"})  # run the tool here
            agent.tool_called(session, name)
        if not results:
            return "\n".join(b["text"] for b in resp["content"] if b["type"] == "text")
        messages.append({"role": "user", "content": results})
    return "(stopped after 8 turns)"


def scripted_model(req: Message) -> Message:
    """A stand-in for the model: searches, then calls the first tool found, then answers."""
    last = req["messages"][-1]
    if last["role"] == "user" and isinstance(last["content"], str):
        return {"content": [{"type": "tool_use", "id": "toolu_1", "name": SEARCH_TOOL_NAME, "input": {"query": last["content"], "max_results": 3}}]}
    for block in last["content"]:
        if block.get("tool_use_id") == "toolu_1":
            content = block["content"]
            if isinstance(content, list):  # native: tool_reference blocks
                found = [c["tool_name"] for c in content if c.get("type") == "tool_reference"]
            else:  # portable: the reference format
                found = [r["tool_name"] for r in json.loads(content)["tool_references"]]
            if not found or not any(t.get("name") == found[0] for t in req["tools"]):
                raise SystemExit(f"the tool found is not in the next turn's tools: {found}")
            return {"content": [{"type": "tool_use", "id": "toolu_2", "name": found[0], "input": {}}]}
    return {"content": [{"type": "text", "text": "done"}]}


if __name__ == "__main__":
    addr = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"
    native = "--native" in sys.argv
    with Client(addr, timeout=30) as c:
        agent = Agent(c, deferral_threshold=1, search_mode=SEARCH_NATIVE_CLIENT if native else SEARCH_PORTABLE)
        print(run("send 'deploy done' to the ops channel on slack", scripted_model, agent, native))
