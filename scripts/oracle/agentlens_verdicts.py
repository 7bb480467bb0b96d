#!/usr/bin/env python3
"""Golden verdicts for the `agentlens` format from pydantic itself.

No AgentLens package can be installed, so `agentlens_models.py` next to this
script transcribes the schema of the project's issue as pydantic v2 models;
pydantic (pinned in `requirements-agentlens.txt`) then decides, in its own lax
mode, which records are valid. The Rust test `tests/agentlens.rs` checks that
we report Errors at exactly the JSON paths where pydantic reports errors.

Usage (from anywhere; Python 3.9+ with the `venv` module):

    python3 scripts/oracle/agentlens_verdicts.py

    ATV_ORACLE_VENV=/path/to/venv   venv to use or create (default: /work/venvs/agentlens-oracle)

The script creates the venv and installs the pinned requirements when the venv
is missing or the requirements changed (a hash stamp inside the venv), then
re-runs itself with the venv's Python. It rewrites
`tests/golden/agentlens/verdicts.json` deterministically.

Records (mirrors src/import/agentlens.rs): a file that parses as one JSON
document is one record (an object) or a list of records; otherwise it is JSON
Lines, one record per non-blank line. A record that is an object with an
`events` key is validated as a `Session`, anything else as an `AgentEvent`.

Output: {"files": {"<fixture file>": {"layout": "json" | "jsonl", "records":
[{"line" | "index": …, "model": "Session" | "AgentEvent", "accepted": bool,
"errors": [{"path": "$.events[0].tokens_in", "type": "int_parsing", "msg": "…"}]}]}}}.
"""

import hashlib
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
REQUIREMENTS = os.path.join(HERE, "requirements-agentlens.txt")
DEFAULT_VENV = "/work/venvs/agentlens-oracle"
GOLDEN = os.path.join(REPO, "tests", "golden", "agentlens", "verdicts.json")
FIXTURES = os.path.join(REPO, "tests", "fixtures", "agentlens")
MSG_CHARS = 200
PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def ensure_venv():
    """Re-runs this script inside the oracle venv, creating it when needed."""
    venv = os.environ.get("ATV_ORACLE_VENV", DEFAULT_VENV)
    python = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        return
    with open(REQUIREMENTS, "rb") as f:
        want = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(venv, ".requirements.sha256")
    have = open(stamp).read().strip() if os.path.exists(stamp) else None
    if not os.path.exists(python) or have != want:
        print(f"creating oracle venv {venv}", file=sys.stderr)
        subprocess.check_call([sys.executable, "-m", "venv", venv])
        subprocess.check_call([python, "-m", "pip", "install", "-q", "--no-deps", "-r", REQUIREMENTS])
        with open(stamp, "w") as f:
            f.write(want + "\n")
    os.execv(python, [python, os.path.abspath(__file__)] + sys.argv[1:])


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


def verdict(value, text):
    import pydantic

    sys.path.insert(0, HERE)
    from agentlens_models import AgentEvent, Session

    model = Session if isinstance(value, dict) and "events" in value else AgentEvent
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

    files = {}
    for name in sorted(os.listdir(FIXTURES)):
        p = os.path.join(FIXTURES, name)
        if os.path.isfile(p):
            files[f"fixtures/agentlens/{name}"] = records_of(p)
    out = {
        "generator": "scripts/oracle/agentlens_verdicts.py",
        "reference": "scripts/oracle/agentlens_models.py (the issue's schema as pydantic models)",
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
