#!/usr/bin/env python3
"""Counts of SWE-agent `.traj` files, computed independently of the Rust reader.

No SWE-agent release on PyPI carries its trajectory types (`sweagent` 0.0.1 is
an April 2024 snapshot without `sweagent/types.py`), so there is no reference
library to run. This script reads each file with the standard library's
`json` only and counts what SWE-agent's own types (`sweagent/types.py` at
SWE-agent commit 3ea751c087f3: `HistoryItem`, `TrajectoryStep`, `AgentInfo`;
`InstanceStats` in `sweagent/agent/models.py`) say the file holds. The Rust
test `tests/swe_agent.rs` compares the parsed traces with these goldens.

Run: python3 scripts/oracle/swe-agent/counts.py   (any Python >= 3.8, no
packages: requirements.txt is empty on purpose). The corpus root is
$ATV_CORPUS or ../shared/corpus; it writes tests/golden/swe-agent/<file>.json
for every file of tests/fixtures/swe-agent/ and of the corpus's swe-agent/.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CORPUS = Path(os.environ.get("ATV_CORPUS", ROOT.parent / "shared" / "corpus"))
OUT = ROOT / "tests" / "golden" / "swe-agent"


def history_counts(history: list) -> dict:
    """Messages by role, calls in `tool_calls`, and how tool messages answer them."""
    roles: Counter = Counter()
    functions: Counter = Counter()
    calls = 0
    # A reused id (replays reuse them) names the latest call that has it.
    latest_call: dict[str, int] = {}
    answered: set[int] = set()
    unknown_ids = 0
    not_objects = 0
    tool_messages = 0
    for item in history:
        if not isinstance(item, dict):
            not_objects += 1
            continue
        role = item.get("role")
        role = role if isinstance(role, str) else ""
        roles[role] += 1
        if role == "tool":
            tool_messages += 1
            ids = item.get("tool_call_ids")
            for i in ids if isinstance(ids, list) else []:
                if not isinstance(i, str):
                    continue
                if i in latest_call:
                    answered.add(latest_call[i])
                else:
                    unknown_ids += 1
            continue
        tc = item.get("tool_calls")
        for c in tc if isinstance(tc, list) else []:
            calls += 1
            f = c.get("function") if isinstance(c, dict) else None
            name = f.get("name") if isinstance(f, dict) else None
            functions[name if isinstance(name, str) else ""] += 1
            cid = c.get("id") if isinstance(c, dict) else None
            if isinstance(cid, str):
                latest_call[cid] = calls
    return {
        "items": len(history),
        "not_objects": not_objects,
        "by_role": dict(sorted(roles.items())),
        "tool_calls": calls,
        "tool_calls_by_function": dict(sorted(functions.items())),
        "tool_messages": tool_messages,
        "calls_answered_by_id": len(answered),
        "unknown_tool_call_ids": unknown_ids,
    }


def trajectory_counts(trajectory: list) -> dict:
    steps = [s for s in trajectory if isinstance(s, dict)]
    actions = [s["action"] for s in steps if isinstance(s.get("action"), str)]
    times = [s["execution_time"] for s in steps if isinstance(s.get("execution_time"), (int, float)) and not isinstance(s.get("execution_time"), bool)]
    states_text = sum(1 for s in steps if isinstance(s.get("state"), str))
    states_json_text = 0
    for s in steps:
        if isinstance(s.get("state"), str):
            try:
                json.loads(s["state"])
                states_json_text += 1
            except ValueError:
                pass
    return {
        "items": len(trajectory),
        "steps": len(steps),
        "actions": len(actions),
        "action_commands": dict(sorted(Counter(a.split()[0] if a.split() else "" for a in actions).items())),
        "observations": sum(1 for s in steps if "observation" in s),
        "execution_time_total": sum(times),
        "steps_with_execution_time": len(times),
        "states_as_json_text": states_json_text,
        "states_as_text": states_text,
        "query_messages": sum(len(s.get("query", s.get("messages", [])) or []) for s in steps),
    }


def info_counts(info) -> dict | None:
    if not isinstance(info, dict):
        return None
    stats = info.get("model_stats")
    stats = stats if isinstance(stats, dict) else {}

    def count(k):
        v = stats.get(k)
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    sub = info.get("submission")
    return {
        "keys": sorted(info),
        "exit_status": info.get("exit_status"),
        "submission": sub,
        "tokens_sent": count("tokens_sent"),
        "tokens_received": count("tokens_received"),
        "api_calls": count("api_calls"),
        "instance_cost": stats.get("instance_cost"),
    }


def counts(path: Path) -> dict:
    doc = json.loads(path.read_text(encoding="utf-8"))
    out = {"file": path.name, "top_level_keys": sorted(doc)}
    if isinstance(doc.get("history"), list):
        out["history"] = history_counts(doc["history"])
    if isinstance(doc.get("trajectory"), list):
        out["trajectory"] = trajectory_counts(doc["trajectory"])
    if "info" in doc:
        out["info"] = info_counts(doc["info"])
    rc = doc.get("replay_config")
    if isinstance(rc, str):
        rc = json.loads(rc)
    if isinstance(rc, dict):
        out["replay_instance"] = (rc.get("problem_statement") or {}).get("id")
        out["replay_model"] = ((rc.get("agent") or {}).get("model") or {}).get("name")
    return out


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    files = sorted((ROOT / "tests" / "fixtures" / "swe-agent").glob("*.traj")) + sorted((CORPUS / "swe-agent").glob("*.traj"))
    if not files:
        print("no .traj files found", file=sys.stderr)
        return 1
    for f in files:
        (OUT / f"{f.name}.json").write_text(json.dumps(counts(f), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print("wrote", f.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
