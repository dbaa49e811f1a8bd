"""The Python driver of the conformance suite (clients/conformance): plays
script.json's loops with the Python Agent against the sidecar at ADDR and
prints the transcript as JSON.

    PYTHONPATH=clients/python/src python3 clients/python/conformance.py ADDR SCRIPT PREFIX
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

from toolsearch import FORMAT_ANTHROPIC, FORMAT_OPENAI_RESPONSES, Agent, Client, pb


def main(addr: str, script_path: str, prefix: str) -> None:
    with open(script_path, encoding="utf-8") as f:
        script = json.load(f)
    loops: list[dict[str, Any]] = []
    with Client(addr, timeout=60) as client:
        for loop in script["loops"]:
            mode = pb.ToolSearchMode.Value(loop["search_mode"])
            fmt = pb.ToolFormat.Value(loop["format"])
            agent = Agent(
                client,
                always_loaded=loop["always_loaded"],
                visible_tools=loop.get("visible_tools", []),
                deferral_threshold=loop["deferral_threshold"],
                search_mode=mode,
            )
            session = f"{prefix}-{loop['session']}"
            agent.reset(session)
            turns: list[dict[str, Any]] = []
            for i, turn in enumerate(loop["turns"], start=1):
                ts = agent.tools(session, fmt)
                record: dict[str, Any] = {
                    "toolset": {
                        "loaded": ts.loaded,
                        "deferred": ts.deferred,
                        "search_mode": ts.search_mode,
                        "tools_sha256": hashlib.sha256(ts.tools_json.encode()).hexdigest(),
                    }
                }
                if turn.get("call_tool"):
                    name = ts.catalog_name(turn["call_tool"])
                    agent.tool_called(session, name)
                    record["result"] = {"reported": name}
                elif mode == pb.TOOL_SEARCH_MODE_NATIVE_CLIENT and fmt == FORMAT_ANTHROPIC:
                    record["result"] = agent.anthropic_tool_result(session, f"toolu_{i}", turn["tool_search"])
                elif mode == pb.TOOL_SEARCH_MODE_NATIVE_CLIENT and fmt == FORMAT_OPENAI_RESPONSES:
                    item = {"type": "tool_search_call", "call_id": f"call_{i}", "arguments": turn["tool_search"]}
                    record["result"] = agent.openai_tool_search_output(session, item)
                else:
                    record["result"] = agent.handle_tool_call(session, turn["tool_search"])
                turns.append(record)
            loops.append({"name": loop["name"], "turns": turns})
    json.dump({"loops": loops}, sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: conformance.py ADDR SCRIPT PREFIX")
    main(*sys.argv[1:])
