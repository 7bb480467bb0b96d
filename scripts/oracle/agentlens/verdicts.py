#!/usr/bin/env python3
"""Golden verdicts for the `agentlens` format from pydantic itself.

No AgentLens package can be installed, so `models.py` next to this
script transcribes the schema of the project's issue as pydantic v2 models;
pydantic (pinned in `requirements.txt`) then decides, in its own lax
mode, which records are valid. The Rust test `tests/agentlens.rs` checks that
we report Errors at exactly the JSON paths where pydantic reports errors.

Usage (from anywhere; Python 3.9+ with the `venv` module):

    python3 scripts/oracle/agentlens/verdicts.py

    ATV_ORACLE_VENV=/path/to/venv   venv to use or create (default: /work/venvs/agentlens-oracle)

The script creates the venv and installs the pinned requirements when the venv
is missing or the requirements changed (a hash stamp inside the venv), then
re-runs itself with the venv's Python. It rewrites
`tests/golden/agentlens/verdicts.json` deterministically.

Records (mirrors src/import/agentlens.rs): a file that parses as one JSON
document is one record (an object) or a list of records; otherwise it is JSON
Lines, one record per non-blank line. A record that is an object with an
`events` key, or with a field only a `Session` has (`agent_name`,
`started_at`, `ended_at`, `total_tokens_in`, `total_tokens_out`) and no
`event_type`, is validated as a `Session`, anything else as an `AgentEvent`.

The script writes some fixtures itself before validating them all:
`sessions_list.json` (a JSON list of sessions, with and without events),
`sessions_without_events.json` and `.jsonl` (sessions that are only
`session_id`, `agent_name`, `started_at`), and `nonfinite.jsonl` (records
with `NaN`, `Infinity` and `-Infinity`, which pydantic's JSON parser reads).

Output: {"files": {"<fixture file>": {"layout": "json" | "jsonl", "records":
[{"line" | "index": …, "model": "Session" | "AgentEvent", "accepted": bool,
"errors": [{"path": "$.events[0].tokens_in", "type": "int_parsing", "msg": "…"}]}]}}}.
"""

import json
import os
import re
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # appended: folders here are named like the packages they check
from pinned_venv import run_inside  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
REQUIREMENTS = os.path.join(HERE, "requirements.txt")
DEFAULT_VENV = "/work/venvs/agentlens-oracle"
GOLDEN = os.path.join(REPO, "tests", "golden", "agentlens", "verdicts.json")
FIXTURES = os.path.join(REPO, "tests", "fixtures", "agentlens")
MSG_CHARS = 200
PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def ensure_venv():
    """Re-runs this script inside the pinned oracle venv, creating it when needed."""
    run_inside(os.environ.get("ATV_ORACLE_VENV", DEFAULT_VENV), REQUIREMENTS, __file__)


def render_path(loc):
    out = "$"
    for seg in loc:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif PLAIN_KEY.match(seg):
            out += "." + seg
        else:
            out += "[" + json.dumps(seg) + "]"
    return out


SESSION_ONLY = ("agent_name", "started_at", "ended_at", "total_tokens_in", "total_tokens_out")


def is_session(value):
    if not isinstance(value, dict):
        return False
    return "events" in value or ("event_type" not in value and any(k in value for k in SESSION_ONLY))


def event(i, session, **extra):
    e = {"event_id": f"{session}-e{i}", "session_id": session, "event_type": "llm_call",
         "timestamp": "2025-03-01T10:00:00Z", "input_data": {"prompt": f"step {i}"},
         "output_data": {"response": f"answer {i}"}, "model": "gpt-4o", "tokens_in": 10, "tokens_out": 5}
    e.update(extra)
    return e


def session(sid, events=None, **extra):
    s = {"session_id": sid, "agent_name": "travel-agent", "started_at": "2025-03-01T10:00:00Z"}
    if events is not None:
        s["events"] = events
        s["total_tokens_in"] = 10 * len(events)
        s["total_tokens_out"] = 5 * len(events)
    s.update(extra)
    return s


LITERALS = {"__NAN__": "NaN", "__INF__": "Infinity", "__NINF__": "-Infinity"}
NAN, INF, NINF = "__NAN__", "__INF__", "__NINF__"


def with_literals(value):
    text = json.dumps(value, ensure_ascii=False)
    for placeholder, literal in LITERALS.items():
        text = text.replace(json.dumps(placeholder), literal)
    return text


def write_fixtures():
    listed = [
        session("s-1", [event(0, "s-1"), event(1, "s-1", event_type="tool_call", tool_call={"tool_call_id": "t1", "tool_name": "search", "tool_input": {"q": "rome"}, "tool_output": {"result": "ok"}})]),
        session("s-2", [event(0, "s-2")], status="completed", ended_at="2025-03-01T10:05:00Z"),
        session("s-3"),
        # Events that carry no event field but `event_type` (every field has a default).
        session("s-4", [{"event_type": "llm_call", "model": "gpt-4o"}, {}], total_tokens_in=0, total_tokens_out=0),
    ]
    with open(os.path.join(FIXTURES, "sessions_list.json"), "w") as f:
        json.dump(listed, f, indent=2)
        f.write("\n")
    with open(os.path.join(FIXTURES, "sessions_without_events.json"), "w") as f:
        json.dump(session("s-9"), f, indent=2)
        f.write("\n")
    with open(os.path.join(FIXTURES, "sessions_without_events.jsonl"), "w") as f:
        for sid in ("s-7", "s-8"):
            f.write(json.dumps(session(sid)) + "\n")
        f.write(json.dumps(session("s-bad", started_at="yesterday")) + "\n")
    cases = [
        event(0, "nf", input_data={"x": NAN, "y": [INF, NINF]}),
        event(1, "nf", duration_ms=NAN),
        event(2, "nf", event_type="tool_call", tool_call={"tool_name": "f", "tool_input": {"v": INF}, "tool_output": {"r": NINF}, "duration_ms": INF}),
        event(3, "nf", tokens_in=NAN),
        event(4, "nf", event_type="decision", decision_trace={"reasoning": "r", "confidence": NAN}),
        event(5, "nf", event_type="decision", decision_trace={"reasoning": "r", "step": INF}),
        event(6, "nf", timestamp=NINF),
        session("nf-s", [event(7, "nf-s", output_data={"response": "ok", "score": NAN})], metadata={"m": INF}),
        session("nf-t", [], total_tokens_in=NAN),
    ]
    with open(os.path.join(FIXTURES, "nonfinite.jsonl"), "w") as f:
        for c in cases:
            f.write(with_literals(c) + "\n")


def verdict(value, text):
    import pydantic

    sys.path.insert(0, HERE)
    from models import AgentEvent, Session

    model = Session if is_session(value) else AgentEvent
    try:
        model.model_validate_json(text)
        return {"model": model.__name__, "accepted": True, "errors": []}
    except pydantic.ValidationError as e:
        errors = [{"path": render_path(x["loc"]), "type": x["type"], "msg": x["msg"][:MSG_CHARS]} for x in e.errors()]
        return {"model": model.__name__, "accepted": False, "errors": errors}


def records_of(path):
    with open(path, "rb") as f:
        text = f.read().decode("utf-8-sig")
    try:
        doc = json.loads(text)
    except ValueError:
        pass
    else:
        items = doc if isinstance(doc, list) else [doc]
        records = []
        for i, item in enumerate(items):
            r = {"index": i if isinstance(doc, list) else None}
            r.update(verdict(item, json.dumps(item, ensure_ascii=False)))
            records.append(r)
        return {"layout": "json", "records": records}
    records = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            value = None
        r = {"line": n}
        r.update(verdict(value, line))
        records.append(r)
    return {"layout": "jsonl", "records": records}


def main():
    ensure_venv()
    import pydantic

    write_fixtures()
    files = {}
    for name in sorted(os.listdir(FIXTURES)):
        p = os.path.join(FIXTURES, name)
        if os.path.isfile(p):
            files[f"fixtures/agentlens/{name}"] = records_of(p)
    out = {
        "generator": "scripts/oracle/agentlens/verdicts.py",
        "reference": "scripts/oracle/agentlens/models.py (the issue's schema as pydantic models)",
        "pydantic": pydantic.VERSION,
        "files": files,
    }
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    with open(GOLDEN, "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    total = sum(len(v["records"]) for v in files.values())
    rejected = sum(1 for v in files.values() for r in v["records"] if not r["accepted"])
    print(f"wrote {GOLDEN}: {len(files)} files, {total} records, {rejected} rejected")


if __name__ == "__main__":
    main()
