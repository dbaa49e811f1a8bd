"""An agent loop in the OpenAI Responses API's shapes, with the sidecar's
tool search: each turn sends the session's tool list; tool_search calls are
answered by the Agent (portable function calls, or OpenAI's native
tool_search_call → tool_search_output protocol with --native), other
function calls are run by the application (here a stub) and reported.

create_response takes the request as a dict and returns the response as a
dict, so any client fits: with the OpenAI SDK,

    import openai
    sdk = openai.OpenAI()
    run(task, lambda req: sdk.responses.create(**req).model_dump(), agent)

Run as a script it plays a scripted model, so it runs against a sidecar
without an API key:

    PYTHONPATH=clients/python/src python3 clients/python/examples/openai_loop.py 127.0.0.1:50051 [--native]
"""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Callable
from typing import Any

from toolsearch import FORMAT_OPENAI_RESPONSES, SEARCH_NATIVE_CLIENT, SEARCH_PORTABLE, SEARCH_TOOL_NAME, Agent, Client

Item = dict[str, Any]


def run(task: str, create_response: Callable[[Item], Item], agent: Agent, native: bool, model: str = "gpt-5.4") -> str:
    session = str(uuid.uuid4())
    items: list[Item] = [{"role": "user", "content": task}]
    for _ in range(8):
        ts = agent.tools(session, FORMAT_OPENAI_RESPONSES)
        req: Item = {"model": model, "tools": ts.tools, "input": items}
        if ts.system_prompt:
            req["instructions"] = ts.system_prompt
        resp = create_response(req)
        items.extend(resp["output"])
        answered = 0
        for item in resp["output"]:
            if item["type"] == "tool_search_call":
                items.append(agent.openai_tool_search_output(session, item))
                answered += 1
            elif item["type"] == "function_call":
                if item["name"] == SEARCH_TOOL_NAME:
                    output = agent.handle_tool_call(session, item["arguments"])
                else:
                    name = ts.catalog_name(item["name"])
                    output = f"ok: {name} ran"  # run the tool here
                    agent.tool_called(session, name)
                items.append({"type": "function_call_output", "call_id": item["call_id"], "output": output})
                answered += 1
        if not answered:
            return "".join(c.get("text", "") for o in resp["output"] if o["type"] == "message" for c in o["content"])
    return "(stopped after 8 turns)"


def scripted_model(req: Item) -> Item:
    """A stand-in for the model: searches, then calls the first tool found, then answers."""
    last = req["input"][-1]
    if last.get("role") == "user":
        args = json.dumps({"query": last["content"], "max_results": 3})
        if any(t.get("type") == "tool_search" for t in req["tools"]):
            return {"output": [{"type": "tool_search_call", "call_id": "call_1", "arguments": args}]}
        return {"output": [{"type": "function_call", "call_id": "call_1", "name": SEARCH_TOOL_NAME, "arguments": args}]}
    if last.get("call_id") == "call_1":
        if last["type"] == "tool_search_output":
            first = last["tools"][0]
            name = first["tools"][0]["name"] if first.get("type") == "namespace" else first["name"]
        else:
            name = json.loads(last["output"])["tool_references"][0]["tool_name"]
        return {"output": [{"type": "function_call", "call_id": "call_2", "name": name, "arguments": "{}"}]}
    return {"output": [{"type": "message", "content": [{"type": "output_text", "text": "done"}]}]}


if __name__ == "__main__":
    addr = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"
    native = "--native" in sys.argv
    with Client(addr, timeout=30) as c:
        agent = Agent(c, deferral_threshold=1, search_mode=SEARCH_NATIVE_CLIENT if native else SEARCH_PORTABLE)
        print(run("open a github issue about the flaky test", scripted_model, agent, native))
