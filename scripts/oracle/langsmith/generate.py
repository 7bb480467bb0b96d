#!/usr/bin/env python3
"""Goldens for the `langsmith` format, from the `langsmith` package's own `schemas.Run`.

Usage (Python 3.9+ with `venv`):

    python3 scripts/oracle/langsmith/generate.py

    ATV_ORACLE_VENV=/path/to/venv   venv to use or create (default: /work/venvs/langsmith-oracle)

Writes `tests/golden/langsmith/oracle.json` for every fixture of
`tests/fixtures/langsmith/` and every corpus file (`../shared/corpus/langsmith/`):

- per run: the verdict of langsmith 0.15.1's `schemas.Run(**run)` (its
  `child_runs` checked one by one, each as a run of its own). An ingest
  payload's `patch` is not a run by itself (it lacks `name`, `start_time`,
  `run_type`, and in the JS SDK `id`): as LangSmith's ingest endpoint does,
  the oracle lays each patch over the posted run with its `id` (else its
  `dotted_order`), non-null fields only, and checks the result; a patch of
  no post is checked alone.
- counts computed here, independently of the Rust code: traces (runs by
  `trace_id`, else the tree root's, else their own id), runs, per
  `run_type`, parent links (a parent — `parent_run_id`, the run a child run
  is under, else the dotted order's previous step — that is a run of the
  same trace), runs with an `error`, and usage totals (`outputs.usage_metadata`,
  `outputs.usage`, `outputs.llm_output.token_usage`,
  `extra.metadata.usage_metadata`, else the run's `prompt_tokens` /
  `completion_tokens` / `total_tokens`), and cost totals: how many `llm` runs
  report a cost and its sum in USD (the run's `total_cost` / `prompt_cost` /
  `completion_cost` as `schemas.Run` parses them, else the `total_cost` /
  `input_cost` / `output_cost` of `outputs.usage_metadata` or
  `extra.metadata.usage_metadata`; a total missing is its parts' sum). Other
  run types are left out: LangSmith rolls children's costs up into parents.
"""

import glob
import json
import math
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # appended: folders here are named like the packages they check
from pinned_venv import run_inside  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
REQUIREMENTS = os.path.join(HERE, "requirements.txt")
DEFAULT_VENV = "/work/venvs/langsmith-oracle"
FIXTURES = os.path.join(REPO, "tests", "fixtures", "langsmith")
GOLDEN = os.path.join(REPO, "tests", "golden", "langsmith", "oracle.json")
CORPUS = os.path.join(REPO, "..", "shared", "corpus", "langsmith")


def ensure_venv():
    """Re-runs this script inside the pinned oracle venv, creating it when needed."""
    run_inside(os.environ.get("ATV_ORACLE_VENV", DEFAULT_VENV), REQUIREMENTS, __file__)


def verdict(run):
    from langsmith import schemas

    try:
        schemas.Run(**run)
        return {"accepted": True}
    except Exception as e:  # pydantic.ValidationError, TypeError
        lines = str(e).splitlines()
        return {"accepted": False, "error": "; ".join(l.strip() for l in lines[:3])}


def records(path):
    text = open(path, encoding="utf-8").read()
    if path.endswith(".jsonl"):
        return [(json.loads(l), "$", n + 1) for n, l in enumerate(text.splitlines()) if l.strip()]
    doc = json.loads(text)
    if isinstance(doc, list):
        return [(v, f"$[{i}]", None) for i, v in enumerate(doc)]
    return [(doc, "$", None)]


def is_payload(o):
    return isinstance(o, dict) and (isinstance(o.get("post"), list) or isinstance(o.get("patch"), list)) and set(o) <= {"post", "patch"}


def dotted_parent(d):
    if not isinstance(d, str) or "." not in d:
        return None
    prev = d.rsplit(".", 1)[0].rsplit(".", 1)[-1]
    return prev.split("Z", 1)[1] if "Z" in prev else None


def flatten(run, path, parent, trace, out):
    """A run and its child runs: [(run without child_runs, path, parent, trace)]."""
    run = dict(run)
    kids = run.pop("child_runs", None)
    rid = run.get("id")
    parent = run.get("parent_run_id") or parent or dotted_parent(run.get("dotted_order"))
    trace = run.get("trace_id") or trace or rid or ""
    out.append({"run": run, "path": path, "parent": parent, "trace": trace})
    if isinstance(kids, list):
        for i, c in enumerate(kids):
            if isinstance(c, dict):
                flatten(c, f"{path}.child_runs[{i}]", rid, trace, out)
            else:
                out.append({"bad": f"{path}.child_runs[{i}]"})
    elif kids is not None:
        run["child_runs"] = kids


def runs_of(path):
    found = []
    for v, p, line in records(path):
        if is_payload(v):
            start = len(found)
            by_key = {}
            for i, r in enumerate(v.get("post") or []):
                if not isinstance(r, dict):
                    found.append({"bad": f"{p}.post[{i}]", "line": line})
                    continue
                n = len(found)
                if r.get("id"):
                    by_key[r["id"]] = n
                if isinstance(r.get("dotted_order"), str):
                    by_key.setdefault("dotted:" + r["dotted_order"], n)
                flatten(r, f"{p}.post[{i}]", None, None, found)
                for f in found[n:]:
                    f["line"] = line
            for i, r in enumerate(v.get("patch") or []):
                if not isinstance(r, dict):
                    found.append({"bad": f"{p}.patch[{i}]", "line": line})
                    continue
                key = r.get("id") or ("dotted:" + r["dotted_order"] if isinstance(r.get("dotted_order"), str) else None)
                n = by_key.get(key)
                if n is not None and n >= start and "patch_path" not in found[n]:
                    merged = found[n]
                    merged["run"] = dict(merged["run"], **{k: x for k, x in r.items() if x is not None})
                    merged["patch_path"] = f"{p}.patch[{i}]"
                    merged["parent"] = merged["run"].get("parent_run_id") or merged["parent"]
                    merged["trace"] = merged["run"].get("trace_id") or merged["trace"]
                else:
                    n = len(found)
                    flatten(r, f"{p}.patch[{i}]", None, None, found)
                    for f in found[n:]:
                        f["line"] = line
        elif isinstance(v, dict) and "run_type" in v:
            n = len(found)
            flatten(v, p, None, None, found)
            for f in found[n:]:
                f["line"] = line
        else:
            found.append({"bad": p, "line": line})
    return found


def whole(x):
    if isinstance(x, bool):
        return None
    if isinstance(x, int) and x >= 0:
        return x
    return None


def usage(run):
    outputs = run.get("outputs") if isinstance(run.get("outputs"), dict) else {}
    meta = ((run.get("extra") or {}).get("metadata") or {}) if isinstance(run.get("extra"), dict) else {}

    def lc(u):
        if not isinstance(u, dict) or all(whole(u.get(k)) is None for k in ("input_tokens", "output_tokens", "total_tokens")):
            return None
        i, o = whole(u.get("input_tokens")) or 0, whole(u.get("output_tokens")) or 0
        t = whole(u.get("total_tokens"))
        return (i, o, t if t is not None else i + o)

    def oa(u):
        if not isinstance(u, dict):
            return None
        i = whole(u.get("prompt_tokens"))
        i = i if i is not None else whole(u.get("input_tokens"))
        o = whole(u.get("completion_tokens"))
        o = o if o is not None else whole(u.get("output_tokens"))
        t = whole(u.get("total_tokens"))
        if i is None and o is None and t is None:
            return None
        return (i or 0, o or 0, t if t is not None else (i or 0) + (o or 0))

    for u in (lc(outputs.get("usage_metadata")), oa(outputs.get("usage")), oa((outputs.get("llm_output") or {}).get("token_usage") if isinstance(outputs.get("llm_output"), dict) else None), lc(meta.get("usage_metadata"))):
        if u:
            return u
    i, o, t = whole(run.get("prompt_tokens")), whole(run.get("completion_tokens")), whole(run.get("total_tokens"))
    if i is None and o is None and t is None:
        return (0, 0, 0)
    return (i or 0, o or 0, t if t is not None else (i or 0) + (o or 0))


def amount(x):
    """A cost figure: a finite number (not a bool), a Decimal, or a decimal string."""
    if isinstance(x, bool) or x is None:
        return None
    try:
        f = float(x.strip() if isinstance(x, str) else x)
    except (TypeError, ValueError):
        return None
    return f if math.isfinite(f) else None


def cost(run):
    """An llm run's cost: (total, input, output), or None."""
    from langsmith import schemas

    if run.get("run_type") != "llm":
        return None

    def parts(total, i, out):
        if total is None and i is None and out is None:
            return None
        return (total if total is not None else sum(x for x in (i, out) if x is not None), i, out)

    try:
        r = schemas.Run(**run)
        own = (r.total_cost, r.prompt_cost, r.completion_cost)
    except Exception:
        own = (run.get("total_cost"), run.get("prompt_cost"), run.get("completion_cost"))
    c = parts(*(amount(x) for x in own))
    if c:
        return c
    outputs = run.get("outputs") if isinstance(run.get("outputs"), dict) else {}
    meta = ((run.get("extra") or {}).get("metadata") or {}) if isinstance(run.get("extra"), dict) else {}
    for u in (outputs.get("usage_metadata"), meta.get("usage_metadata")):
        if isinstance(u, dict):
            c = parts(*(amount(u.get(k)) for k in ("total_cost", "input_cost", "output_cost")))
            if c:
                return c
    return None


def check_file(path):
    found = runs_of(path)
    objects = []
    counts = {"traces": 0, "runs": 0, "by_type": {}, "parent_links": 0, "errors": 0, "usage": {"input": 0, "output": 0, "total": 0}, "cost": {"events": 0, "total": 0.0}}
    good = [f for f in found if "bad" not in f]
    ids_by_trace = {}
    for f in good:
        ids_by_trace.setdefault(f["trace"], set()).add(f["run"].get("id"))
    counts["traces"] = len(ids_by_trace)
    for f in found:
        if "bad" in f:
            objects.append({"path": f["bad"], "line": f.get("line"), "accepted": False, "error": "not an object"})
            continue
        run = f["run"]
        o = {"path": f["path"], "line": f.get("line"), **verdict(run)}
        if "patch_path" in f:
            o["patch_path"] = f["patch_path"]
        objects.append(o)
        counts["runs"] += 1
        t = run.get("run_type")
        counts["by_type"][str(t)] = counts["by_type"].get(str(t), 0) + 1
        if f["parent"] and f["parent"] in ids_by_trace.get(f["trace"], ()) and f["parent"] != run.get("id"):
            counts["parent_links"] += 1
        if run.get("error"):
            counts["errors"] += 1
        i, o_, tot = usage(run)
        counts["usage"]["input"] += i
        counts["usage"]["output"] += o_
        counts["usage"]["total"] += tot
        c = cost(run)
        if c is not None:
            counts["cost"]["events"] += 1
            counts["cost"]["total"] += c[0]
    return {"objects": objects, "counts": counts}


def main():
    ensure_venv()
    import langsmith

    files = {}
    for p in sorted(glob.glob(os.path.join(FIXTURES, "*"))):
        if os.path.isfile(p):
            files["fixtures/" + os.path.basename(p)] = check_file(p)
    for p in sorted(glob.glob(os.path.join(CORPUS, "*"))):
        files["corpus/" + os.path.basename(p)] = check_file(p)
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    with open(GOLDEN, "w") as f:
        json.dump({"langsmith": langsmith.__version__, "files": files}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {GOLDEN}: {len(files)} files", file=sys.stderr)


if __name__ == "__main__":
    main()
