#!/usr/bin/env python3
"""Goldens for the `langfuse` format, from the `langfuse` package's own API models.

Usage (Python 3.9+ with `venv`):

    python3 scripts/oracle/langfuse/generate.py

    ATV_ORACLE_VENV=/path/to/venv   venv to use or create (default: /work/venvs/langfuse-oracle)

Writes `tests/golden/langfuse/oracle.json` for every fixture of
`tests/fixtures/langfuse/` and every corpus file (`../shared/corpus/langfuse/`):

- per object (a trace, an observation, a score): the verdict of langfuse
  4.18.0's models, read the way its API client reads a response
  (`langfuse.api.core.pydantic_utilities.parse_obj_as`): `Trace` for the
  trace of a UI export, `TraceWithFullDetails` (its observations checked one
  by one) for an API trace, `ObservationsView` for an observation, the
  `ScoreV1` union for a score of an API trace. The UI's "download trace"
  export is not what the API returns, and these models reject it as written
  in two places; the oracle undoes those deviations before checking (as the
  OTLP/JSON oracle undoes hex ids): a trace `metadata` that is a JSON string
  is parsed, and an observation without the deprecated `usage` object is
  checked without it (the model requires it). Both are documented in
  docs/formats/langfuse.md.
- counts computed here, independently of the Rust code: traces (runs),
  observations, per type, parent links (observations whose
  `parentObservationId` names an observation of the same trace), ERROR
  levels, scores, and usage totals (`usageDetails` input/output/total, else
  the deprecated `usage`, else `promptTokens`/`completionTokens`/`totalTokens`),
  and cost totals (how many observations report one, and their sum in USD),
  each observation's cost read from the fields `ObservationsView` parses.
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
DEFAULT_VENV = "/work/venvs/langfuse-oracle"
FIXTURES = os.path.join(REPO, "tests", "fixtures", "langfuse")
GOLDEN = os.path.join(REPO, "tests", "golden", "langfuse", "oracle.json")
CORPUS = os.path.join(REPO, "..", "shared", "corpus", "langfuse")


def ensure_venv():
    """Re-runs this script inside the pinned oracle venv, creating it when needed."""
    run_inside(os.environ.get("ATV_ORACLE_VENV", DEFAULT_VENV), REQUIREMENTS, __file__)


OBSERVATION_TYPES = {"SPAN", "GENERATION", "EVENT", "AGENT", "TOOL", "CHAIN", "RETRIEVER", "EVALUATOR", "EMBEDDING", "GUARDRAIL"}


def verdict(model, value):
    from langfuse.api.core.pydantic_utilities import parse_obj_as

    try:
        parse_obj_as(model, value)
        return {"accepted": True}
    except Exception as e:  # pydantic.ValidationError, or a discriminator error
        return {"accepted": False, "error": str(e).splitlines()[0] + ": " + "; ".join(l.strip() for l in str(e).splitlines()[1:3])}


def whole(x):
    """A token count as the viewer reads it: a whole number, or its decimal string; else 0."""
    if isinstance(x, bool):
        return 0
    if isinstance(x, int):
        return max(x, 0)
    if isinstance(x, float) and x.is_integer() and x >= 0:
        return int(x)
    if isinstance(x, str) and x.strip().isdigit():
        return int(x.strip())
    return 0


def amount(x):
    """A cost figure as the viewer reads it: a finite number (not a bool), or a decimal string."""
    if isinstance(x, bool):
        return None
    if isinstance(x, (int, float)):
        return float(x) if math.isfinite(x) else None
    if isinstance(x, str):
        try:
            f = float(x.strip())
        except ValueError:
            return None
        return f if math.isfinite(f) else None
    return None


def cost(o):
    """The observation's cost in USD, from the fields of ObservationsView as the
    langfuse model parses them (the raw object when the model rejects it):
    costDetails (total, else the sum of its kinds), the deprecated calculated*Cost,
    the deprecated usage.*Cost, and the UI export's own totalCost/inputCost/outputCost
    only when there is no costDetails. (total, input, output) or None."""
    from langfuse.api import ObservationsView
    from langfuse.api.core.pydantic_utilities import parse_obj_as

    try:
        v = parse_obj_as(ObservationsView, o)
        details = v.cost_details
        calculated = (v.calculated_total_cost, v.calculated_input_cost, v.calculated_output_cost)
        u = v.usage
        legacy = (u.total_cost, u.input_cost, u.output_cost) if u is not None else (None, None, None)
    except Exception:
        details = o.get("costDetails") if isinstance(o.get("costDetails"), dict) else None
        calculated = tuple(amount(o.get(k)) for k in ("calculatedTotalCost", "calculatedInputCost", "calculatedOutputCost"))
        u = o.get("usage") if isinstance(o.get("usage"), dict) else {}
        legacy = tuple(amount(u.get(k)) for k in ("totalCost", "inputCost", "outputCost"))

    def parts(total, i, out, others=()):
        if total is None and i is None and out is None and not others:
            return None
        return (total if total is not None else sum([x for x in (i, out) if x is not None] + list(others)), i, out)

    if details:
        got = {k: amount(x) for k, x in details.items()}
        others = [x for k, x in got.items() if k not in ("total", "input", "output") and x is not None]
        c = parts(got.get("total"), got.get("input"), got.get("output"), others)
        if c:
            return c
    c = parts(*calculated) or parts(*legacy)
    if c or "costDetails" in o:
        return c
    return parts(*(amount(o.get(k)) for k in ("totalCost", "inputCost", "outputCost")))


def records(path):
    """The top-level records and their JSONPaths, as the viewer numbers them."""
    text = open(path, encoding="utf-8").read()
    if path.endswith(".jsonl"):
        return [(json.loads(l), "$", n + 1) for n, l in enumerate(text.splitlines()) if l.strip()]
    doc = json.loads(text)
    if isinstance(doc, list):
        return [(v, f"$[{i}]", None) for i, v in enumerate(doc)]
    return [(doc, "$", None)]


def is_observation(o):
    return isinstance(o, dict) and o.get("type") in OBSERVATION_TYPES and "traceId" in o and "startTime" in o and "spanId" not in o


def traces_of(path):
    """[(trace id, trace fields or None, shape, path, [(observation, path)], [(score, path)], line)]."""
    out = []
    loose = {}
    for v, p, line in records(path):
        if not isinstance(v, dict):
            out.append(("(not a trace)", None, "invalid", p, [], [], line))
            continue
        if isinstance(v.get("trace"), dict) and isinstance(v.get("observations"), list):
            t = dict(v["trace"])
            scores = t.pop("scores", []) or []
            out.append((t.get("id", ""), t, "ui-export", p + ".trace", [(o, f"{p}.observations[{i}]") for i, o in enumerate(v["observations"])], [(s, f"{p}.trace.scores[{i}]") for i, s in enumerate(scores)], line))
        elif "id" in v and isinstance(v.get("observations"), list):
            t = dict(v)
            obs = t.pop("observations")
            scores = t.get("scores", []) if isinstance(t.get("scores"), list) else []
            out.append((t.get("id", ""), t, "api-trace", p, [(o, f"{p}.observations[{i}]") for i, o in enumerate(obs)], [(s, f"{p}.scores[{i}]") for i, s in enumerate(scores)], line))
        else:
            items = [(v, p)] if is_observation(v) else [(o, f"{p}.data[{i}]") for i, o in enumerate(v.get("data", []))]
            for o, op in items:
                tid = o.get("traceId", "")
                if tid not in loose:
                    loose[tid] = len(out)
                    out.append((tid, None, "observations", op, [], [], line))
                out[loose[tid]][4].append((o, op))
    return out


def check_file(path):
    from langfuse.api import ObservationsView, Trace, TraceWithFullDetails
    from langfuse.api.commons.types.score_v1 import ScoreV1

    objects = []
    counts = {"runs": 0, "observations": 0, "by_type": {}, "parent_links": 0, "errors": 0, "scores": 0, "usage": {"input": 0, "output": 0, "total": 0}, "cost": {"events": 0, "total": 0.0}}
    for tid, t, shape, tpath, obs, scores, line in traces_of(path):
        if shape == "invalid":
            objects.append({"path": tpath, "line": line, "model": "(none)", "accepted": False, "error": "not an object"})
            continue
        counts["runs"] += 1
        if t is not None:
            if shape == "ui-export":
                t = dict(t)
                if isinstance(t.get("metadata"), str):
                    try:
                        m = json.loads(t["metadata"])
                        if isinstance(m, dict):
                            t["metadata"] = m
                    except ValueError:
                        pass
                objects.append(dict(path=tpath, line=line, model="Trace", **verdict(Trace, t)))
            else:
                objects.append(dict(path=tpath, line=line, model="TraceWithFullDetails", **verdict(TraceWithFullDetails, dict(t, observations=[], scores=[]))))
                for s, sp in scores:
                    objects.append(dict(path=sp, line=line, model="ScoreV1", **verdict(ScoreV1, s)))
        ids = {o.get("id") for o, _ in obs if isinstance(o, dict)}
        for o, op in obs:
            if not isinstance(o, dict):
                objects.append({"path": op, "line": line, "model": "(none)", "accepted": False, "error": "not an object"})
                continue
            counts["observations"] += 1
            ty = o.get("type")
            counts["by_type"][ty] = counts["by_type"].get(ty, 0) + 1
            parent = o.get("parentObservationId")
            if parent and parent in ids and parent != o.get("id"):
                counts["parent_links"] += 1
            if o.get("level") == "ERROR":
                counts["errors"] += 1
            checked = o
            if shape == "ui-export" and "usage" not in o:
                checked = dict(o, usage={"input": 0, "output": 0, "total": 0})
            objects.append(dict(path=op, line=line, model="ObservationsView", **verdict(ObservationsView, checked)))
            ud = o.get("usageDetails") if isinstance(o.get("usageDetails"), dict) else {}
            legacy = o.get("usage") if isinstance(o.get("usage"), dict) else {}
            src = None
            if any(k in ud for k in ("input", "output", "total")):
                src = (ud.get("input"), ud.get("output"), ud.get("total"))
            elif any(k in legacy for k in ("input", "output", "total")):
                src = (legacy.get("input"), legacy.get("output"), legacy.get("total"))
            elif any(k in o for k in ("promptTokens", "completionTokens", "totalTokens")):
                src = (o.get("promptTokens"), o.get("completionTokens"), o.get("totalTokens"))
            if src:
                i, out_, tot = (whole(x) for x in src)
                counts["usage"]["input"] += i
                counts["usage"]["output"] += out_
                counts["usage"]["total"] += tot if src[2] is not None else i + out_
            c = cost(o)
            if c is not None:
                counts["cost"]["events"] += 1
                counts["cost"]["total"] += c[0]
        counts["scores"] += len(scores)
    return {"objects": objects, "counts": counts}


def main():
    ensure_venv()
    import langfuse

    files = {}
    for p in sorted(glob.glob(os.path.join(FIXTURES, "*"))):
        if os.path.isfile(p):
            files["fixtures/" + os.path.basename(p)] = check_file(p)
    for p in sorted(glob.glob(os.path.join(CORPUS, "*"))):
        files["corpus/" + os.path.basename(p)] = check_file(p)
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    with open(GOLDEN, "w") as f:
        json.dump({"langfuse": langfuse.__version__ if hasattr(langfuse, "__version__") else "4.18.0", "files": files}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {GOLDEN}: {len(files)} files", file=sys.stderr)


if __name__ == "__main__":
    main()
