#!/usr/bin/env python3
"""Golden verdicts for the `agent-catalog` format from Couchbase Agent Catalog itself.

Every record of every file in the corpus folder `couchbase-agentc/` and in
`tests/fixtures/agent-catalog/` is handed to
`agentc_core.activity.models.log.Log.model_validate_json` (PyPI `agentc-core`
1.1.5, pinned with its dependency tree in `requirements.txt` next to
this script). The Rust test `tests/agent_catalog.rs` checks that a record's
event carries an Error diagnostic exactly when the library rejects the record,
and that our Error diagnostics sit at the same JSON paths as pydantic's errors.

Usage (from anywhere; Python 3.11–3.13 with the `venv` module):

    python3 scripts/oracle/agent-catalog/verdicts.py

    ATV_CORPUS=/path/to/corpus      corpus root (default: ../shared/corpus beside the repo,
                                    else /work/shared/corpus)
    ATV_ORACLE_VENV=/path/to/venv   venv to use or create (default: /work/venvs/agentc-oracle)

The script creates the venv and installs the pinned requirements when the venv
is missing or the requirements changed (a hash stamp inside the venv), then
re-runs itself with the venv's Python. It rewrites
`tests/golden/agent-catalog/verdicts.json` deterministically.

Records (mirrors src/import/agent_catalog.rs): a file that parses as one JSON
document is a list of records (a list) or one record (anything else); otherwise
it is JSON Lines, one record per non-blank line, validated from the line's own
text (a line that is not valid JSON is rejected as pydantic's `json_invalid`).

Records with `NaN`, `Infinity` and `-Infinity` (which pydantic's JSON parser
reads, so agentc-core accepts them where its fields take any value) come from
`NONFINITE_CASES` below: the script writes them to
`tests/fixtures/agent-catalog/nonfinite.jsonl` (one per line) and
`nonfinite_list.json` (a JSON list, the literal in its first record) before
validating every fixture.

Output: {"files": {"corpus/couchbase-agentc/<file>" | "fixtures/agent-catalog/<file>":
{"layout": "json" | "jsonl", "records": [{"line": <1-based line of a JSONL record>,
"index": <list index of a document record>, "accepted": bool, "errors":
[{"path": "$.content.tool_args", "type": "dict_type", "msg": "..."}]}]}}}.
`path` is pydantic's `loc` as a JSONPath inside the record, with the union tag
that pydantic inserts after `content` (e.g. `tool-call`) left out.
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
DEFAULT_VENV = "/work/venvs/agentc-oracle"
GOLDEN = os.path.join(REPO, "tests", "golden", "agent-catalog", "verdicts.json")
FIXTURES = os.path.join(REPO, "tests", "fixtures", "agent-catalog")
CORPUS_FOLDER = "couchbase-agentc"
MSG_CHARS = 200


def ensure_venv():
    """Re-runs this script inside the pinned oracle venv, creating it when needed."""
    run_inside(os.environ.get("ATV_ORACLE_VENV", DEFAULT_VENV), REQUIREMENTS, __file__)


def corpus_root():
    if os.environ.get("ATV_CORPUS"):
        return os.environ["ATV_CORPUS"]
    beside = os.path.join(os.path.dirname(REPO), "shared", "corpus")
    return beside if os.path.isdir(beside) else "/work/shared/corpus"


PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def render_path(loc):
    """pydantic's loc as the JSONPath our diagnostics use (without the union tag)."""
    loc = list(loc)
    if len(loc) >= 2 and loc[0] == "content":
        del loc[1]
    out = "$"
    for seg in loc:
        if isinstance(seg, int):
            out += f"[{seg}]"
        elif PLAIN_KEY.match(seg):
            out += "." + seg
        else:
            out += "[" + json.dumps(seg) + "]"
    return out


def record(kind_fields, **top):
    """One Log record as JSON text; `__NAN__`-style placeholders become literals."""
    r = {
        "identifier": top.pop("identifier", "nf"),
        "span": top.pop("span", {"session": "nf", "name": ["app"]}),
        "timestamp": top.pop("timestamp", "2025-07-07T12:00:00+05:30"),
        "content": kind_fields,
        "catalog_version": top.pop("catalog_version", {"timestamp": "2025-07-04T11:20:31.313387Z", "identifier": "502f8f9"}),
    }
    r.update(top)
    text = json.dumps(r, ensure_ascii=False)
    for placeholder, literal in LITERALS.items():
        text = text.replace(json.dumps(placeholder), literal)
    return text


LITERALS = {"__NAN__": "NaN", "__INF__": "Infinity", "__NINF__": "-Infinity",
            "__nan__": "nan", "__MNAN__": "-NaN", "__INFINITE__": "Infinite"}
NAN, INF, NINF = "__NAN__", "__INF__", "__NINF__"
CALL = {"kind": "tool-call", "tool_name": "f", "tool_call_id": "c1"}


def nonfinite_cases():
    """(name, record text): accepted where the field takes any value, rejected elsewhere."""
    return [
        ("tool_args NaN", record({**CALL, "tool_args": {"x": NAN}})),
        ("tool_args Infinity", record({**CALL, "tool_args": {"x": INF}})),
        ("tool_args -Infinity", record({**CALL, "tool_args": {"x": NINF}})),
        ("tool_args nested", record({**CALL, "tool_args": {"x": [NAN, {"y": INF, "z": [NINF, 1e400, 1.5]}]}})),
        ("tool_result", record({"kind": "tool-result", "tool_call_id": "c1", "tool_result": [INF, {"n": NAN}]})),
        ("key-value value", record({"kind": "key-value", "key": "k", "value": NINF})),
        ("chat-completion meta", record({"kind": "chat-completion", "output": "o", "meta": {"t": NAN}})),
        ("content extra", record({"kind": "assistant", "value": "v", "extra": {"e": INF}})),
        ("annotations", record({"kind": "assistant", "value": "v"}, annotations={"score": NAN})),
        ("undeclared keys", record({"kind": "assistant", "value": "v", "zzz": NAN}, zzz=NINF)),
        ("tool_args NaN, tool_name NaN", record({**CALL, "tool_args": {"x": NAN}, "tool_name": NAN})),
        ("timestamp NaN", record({"kind": "assistant", "value": "v"}, timestamp=NAN)),
        ("timestamp -Infinity", record({"kind": "assistant", "value": "v"}, timestamp=NINF)),
        ("identifier NaN", record({"kind": "assistant", "value": "v"}, identifier=NAN)),
        ("span.name item", record({"kind": "assistant", "value": "v"}, span={"session": "nf", "name": ["app", INF]})),
        ("span.session", record({"kind": "assistant", "value": "v"}, span={"session": NAN, "name": ["app"]})),
        ("catalog_version.is_dirty", record({"kind": "assistant", "value": "v"}, catalog_version={"timestamp": "2025-07-04T11:20:31Z", "identifier": "i", "is_dirty": NAN})),
        ("catalog_version.timestamp", record({"kind": "assistant", "value": "v"}, catalog_version={"timestamp": INF, "identifier": "i"})),
        ("catalog_version.metadata", record({"kind": "assistant", "value": "v"}, catalog_version={"timestamp": "2025-07-04T11:20:31Z", "identifier": "i", "metadata": {"m": NAN}})),
        ("annotations NaN", record({"kind": "assistant", "value": "v"}, annotations=NAN)),
        ("user value", record({"kind": "user", "value": NAN})),
        ("tool_args NaN itself", record({**CALL, "tool_args": NAN})),
        ("status", record({**CALL, "tool_args": {}, "status": NINF})),
        ("lower-case nan", record({**CALL, "tool_args": {"x": "__nan__"}})),
        ("-NaN", record({**CALL, "tool_args": {"x": "__MNAN__"}})),
        ("Infinite", record({**CALL, "tool_args": {"x": "__INFINITE__"}})),
        ("the whole record NaN", "NaN"),
    ]


def write_nonfinite_fixtures():
    cases = nonfinite_cases()
    with open(os.path.join(FIXTURES, "nonfinite.jsonl"), "w") as f:
        for _, text in cases:
            f.write(text + "\n")
    listed = [text for name, text in cases if name in ("tool_args nested", "tool_result", "key-value value", "timestamp NaN")]
    with open(os.path.join(FIXTURES, "nonfinite_list.json"), "w") as f:
        f.write("[\n" + ",\n".join(listed) + "\n]\n")


def verdict(text):
    import pydantic
    from agentc_core.activity.models.log import Log

    try:
        Log.model_validate_json(text)
        return {"accepted": True, "errors": []}
    except pydantic.ValidationError as e:
        errors = [{"path": render_path(x["loc"]), "type": x["type"], "msg": x["msg"][:MSG_CHARS]} for x in e.errors()]
        return {"accepted": False, "errors": errors}


def records_of(path):
    with open(path, "rb") as f:
        data = f.read()
    text = data.decode("utf-8-sig")
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
        is_doc = False
    else:
        is_doc = True
    if is_doc:
        items = doc if isinstance(doc, list) else [doc]
        records = []
        for i, item in enumerate(items):
            r = {"index": i if isinstance(doc, list) else None}
            r.update(verdict(json.dumps(item, ensure_ascii=False)))
            records.append(r)
        return {"layout": "json", "records": records}
    records = []
    for n, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        r = {"line": n}
        r.update(verdict(line))
        records.append(r)
    return {"layout": "jsonl", "records": records}


def main():
    ensure_venv()
    import pydantic

    write_nonfinite_fixtures()
    files = {}
    corpus = os.path.join(corpus_root(), CORPUS_FOLDER)
    for name in sorted(os.listdir(corpus)):
        p = os.path.join(corpus, name)
        if os.path.isfile(p):
            files[f"corpus/{CORPUS_FOLDER}/{name}"] = records_of(p)
    for name in sorted(os.listdir(FIXTURES)):
        p = os.path.join(FIXTURES, name)
        if os.path.isfile(p):
            files[f"fixtures/agent-catalog/{name}"] = records_of(p)
    out = {
        "generator": "scripts/oracle/agent-catalog/verdicts.py",
        "reference": "agentc-core==1.1.5 Log.model_validate_json",
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
