#!/usr/bin/env python3
"""Golden verdicts for the `openai` format from Invariant's own loader.

For every file of the corpus folder `invariant/` and of `tests/fixtures/openai/`,
split the file into traces the way `src/import/openai.rs` does, hand each
trace to `invariant.analyzer.runtime.input.Input` (PyPI `invariant-ai`, pinned
in `requirements.txt` next to this script), and record whether it
accepted it. The Rust test `tests/openai_oracle.rs` checks that our verdict
(a run with an Error diagnostic = rejected) equals Invariant's, trace by trace.

Usage (from anywhere; Python 3.10+ with the `venv` module):

    python3 scripts/oracle/openai/verdicts.py

    ATV_CORPUS=/path/to/corpus      corpus root (default: ../shared/corpus beside the repo,
                                    else /work/shared/corpus)
    ATV_ORACLE_VENV=/path/to/venv   venv to use or create (default: /work/venvs/invariant-oracle)

The script creates the venv and installs the pinned requirements when the venv
is missing or the requirements changed (a hash stamp inside the venv), then
re-runs itself with the venv's Python. Rerun it after adding a fixture; it
rewrites `tests/golden/openai/invariant_verdicts.json` deterministically.

Splitting a file into traces (mirrors our module):
- The file is one JSON document when it parses as one; otherwise JSON Lines
  (one value per non-blank line).
- Document: a list whose first item is a list or a row is a list of traces;
  any other list is one trace; an object is one row.
- A row is an object with `messages` (or a wrapper with `traj` or `trace`)
  and none of `role`/`type`/`tools` (those make it an event); Invariant gets
  `row.get("messages")` — so a non-list `messages` is passed as is and
  rejected — or the wrapper's `traj` / `trace` / `trace.trace` list.
- JSON Lines: a list line or a row line is one trace; a line holding only
  `{"metadata": ...}` is dataset metadata, not a trace; consecutive other lines
  (single events) form one trace.

Output: {"corpus/invariant/<file>" | "fixtures/openai/<file>": [{"trace": i,
"accepted": bool, "error": "<ExceptionType: message>" (first 300 chars) or
null, "events": <items in the trace list, or null when it is not a list>}]}.
"""

import json
import os
import sys
import warnings

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # appended: folders here are named like the packages they check
from pinned_venv import run_inside  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
REQUIREMENTS = os.path.join(HERE, "requirements.txt")
DEFAULT_VENV = "/work/venvs/invariant-oracle"
DEFAULT_CORPUS = "/work/shared/corpus"
GOLDEN = os.path.join(REPO, "tests", "golden", "openai", "invariant_verdicts.json")
FIXTURES = os.path.join(REPO, "tests", "fixtures", "openai")
CORPUS_FOLDER = "invariant"
ERROR_CHARS = 300
EVENT_KEYS = ("role", "type", "tools")


def ensure_venv():
    """Re-runs this script inside the pinned oracle venv, creating it when needed."""
    run_inside(os.environ.get("ATV_ORACLE_VENV", DEFAULT_VENV), REQUIREMENTS, __file__)


def corpus_root():
    root = os.environ.get("ATV_CORPUS")
    if not root:
        # Beside the repo (main checkout), else the shared location (worktrees live deeper).
        beside = os.path.join(REPO, "..", "shared", "corpus")
        root = beside if os.path.isdir(beside) else DEFAULT_CORPUS
    folder = os.path.join(root, CORPUS_FOLDER)
    if not os.path.isdir(folder):
        sys.exit(f"CORPUS MISSING: {folder} is not a directory; set ATV_CORPUS=<corpus root>")
    return folder


ROW_KEYS = ("messages", "traj", "trace")


def is_row(v):
    return isinstance(v, dict) and any(k in v for k in ROW_KEYS) and not any(k in v for k in EVENT_KEYS)


def trace_input(v):
    """What Invariant gets for one trace value: a list as is, a row's messages,
    a wrapper's `traj` / `trace` list, or an invariant-testing `trace.trace`."""
    if not isinstance(v, dict):
        return v
    if "messages" in v:
        return v.get("messages")
    for k in ("traj", "trace"):
        if isinstance(v.get(k), list):
            return v[k]
    inner = v.get("trace")
    if isinstance(inner, dict):
        for k in ("trace", "messages"):
            if isinstance(inner.get(k), list):
                return inner[k]
    return None


def load_values(path):
    """The file's top-level values and whether it is one JSON document."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8-sig")
    try:
        return True, [json.loads(text)]
    except json.JSONDecodeError:
        pass
    values = []
    for n, line in enumerate(text.split("\n"), 1):
        if line.strip():
            try:
                values.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{n}: not JSON and not JSON Lines ({e}); the oracle needs valid input")
    return False, values


def split_traces(path):
    is_document, values = load_values(path)
    if is_document:
        doc = values[0]
        if isinstance(doc, list):
            if doc and (isinstance(doc[0], list) or is_row(doc[0])):
                return [trace_input(item) for item in doc]
            return [doc]
        return [trace_input(doc)]
    traces, loose = [], []

    def flush():
        if loose:
            traces.append(list(loose))
            loose.clear()

    for v in values:
        if isinstance(v, list) or is_row(v):
            flush()
            traces.append(trace_input(v))
        elif isinstance(v, dict) and list(v.keys()) == ["metadata"]:
            flush()
        else:
            loose.append(v)
    flush()
    return traces


def verdict(Input, index, trace):
    entry = {"trace": index, "accepted": True, "error": None}
    entry["events"] = len(trace) if isinstance(trace, list) else None
    with warnings.catch_warnings():
        # parse_input warns with the whole event before re-raising; the error says enough.
        warnings.simplefilter("ignore")
        try:
            Input(trace)
        except Exception as e:  # noqa: BLE001 - any exception is Invariant rejecting the trace
            entry["accepted"] = False
            entry["error"] = f"{type(e).__name__}: {e}"[:ERROR_CHARS]
    return entry


def files_in(folder):
    return sorted(n for n in os.listdir(folder) if os.path.isfile(os.path.join(folder, n)))


def main():
    ensure_venv()
    from invariant.analyzer.runtime.input import Input

    sources = [("corpus/" + CORPUS_FOLDER, corpus_root()), ("fixtures/openai", FIXTURES)]
    golden = {}
    for label, folder in sources:
        for name in files_in(folder):
            traces = split_traces(os.path.join(folder, name))
            golden[f"{label}/{name}"] = [verdict(Input, i, t) for i, t in enumerate(traces)]
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    with open(GOLDEN, "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    total = sum(len(v) for v in golden.values())
    rejected = sum(1 for v in golden.values() for e in v if not e["accepted"])
    print(f"wrote {GOLDEN}: {len(golden)} files, {total} traces, {rejected} rejected", file=sys.stderr)


if __name__ == "__main__":
    main()
