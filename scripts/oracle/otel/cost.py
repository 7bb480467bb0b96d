#!/usr/bin/env python3
"""The `otel` cost fixture and its golden, from the pinned references.

Writes tests/fixtures/otel/openinference-cost.json: OpenInference LLM spans
made with the OpenTelemetry SDK and encoded by its OTLP encoder (as
generate.py makes its fixtures), whose cost attributes are named by
openinference-semantic-conventions 0.1.42 (`SpanAttributes.LLM_COST_TOTAL`,
`LLM_COST_PROMPT`, `LLM_COST_COMPLETION`; a `*_details.*` breakdown that is
part of the prompt cost, not added to it). And tests/golden/otel/cost.json:
the attribute names as the package defines them, every GenAI attribute of
opentelemetry-semantic-conventions 0.66b2 whose name mentions cost (none: the
GenAI conventions define no cost), and the cost totals of the fixture
computed here (spans reporting a cost; per model; a total missing is the sum
of prompt and completion).

Usage: python3 scripts/oracle/otel/cost.py  (same venv as generate.py)
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate as g  # noqa: E402  (its fixture helpers; its main does not run on import)

FIXTURE = os.path.join(g.FIXTURES, "openinference-cost.json")
GOLDEN = os.path.join(g.REPO, "tests", "golden", "otel", "cost.json")


def fixture():
    from openinference.semconv.trace import OpenInferenceSpanKindValues as K, SpanAttributes as S

    tr, ex = g.tracer(7, "oi-cost")
    c = g.Clock()

    def llm(model, tokens, cost):
        a = {S.OPENINFERENCE_SPAN_KIND: K.LLM.value, S.LLM_MODEL_NAME: model,
             S.LLM_TOKEN_COUNT_PROMPT: tokens[0], S.LLM_TOKEN_COUNT_COMPLETION: tokens[1]}
        a.update(cost)
        return a

    calls = [
        ("gpt-4.1", (100, 20), {S.LLM_COST_TOTAL: 0.00036, S.LLM_COST_PROMPT: 0.0002, S.LLM_COST_COMPLETION: 0.00016,
                                S.LLM_COST_PROMPT_DETAILS_CACHE_READ: 0.00005}),
        ("gpt-4.1-mini", (400, 50), {S.LLM_COST_PROMPT: 0.00016, S.LLM_COST_COMPLETION: 0.00008}),
        ("gpt-4.1", (80, 10), {S.LLM_COST_TOTAL: 0.00024}),
        ("gpt-4.1", (60, 5), {}),
    ]
    g.span(tr, c, "agent", {S.OPENINFERENCE_SPAN_KIND: K.AGENT.value}, ms=500, body=lambda r: [
        g.span(tr, c, "ChatCompletion", llm(m, t, cost), parent=r) for m, t, cost in calls])
    return g.otlp_json(ex.get_finished_spans()), calls


def totals(calls):
    from openinference.semconv.trace import SpanAttributes as S

    out = {"events": 0, "total": 0.0, "byModel": {}}
    for model, _, cost in calls:
        parts = [cost.get(S.LLM_COST_TOTAL), cost.get(S.LLM_COST_PROMPT), cost.get(S.LLM_COST_COMPLETION)]
        if all(p is None for p in parts):
            continue
        total = parts[0] if parts[0] is not None else sum(p for p in parts[1:] if p is not None)
        out["events"] += 1
        out["total"] += total
        out["byModel"][model] = out["byModel"].get(model, 0.0) + total
    return out


def main():
    g.run_inside(os.environ.get("ATV_ORACLE_VENV", g.DEFAULT_VENV), g.REQUIREMENTS, __file__)
    from openinference.semconv.trace import SpanAttributes as S
    from opentelemetry.semconv._incubating.attributes import gen_ai_attributes

    doc, calls = fixture()
    with open(FIXTURE, "w") as f:
        f.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    genai = sorted(v for k, v in vars(gen_ai_attributes).items() if k.isupper() and isinstance(v, str) and "cost" in v.lower())
    golden = {
        "versions": {"openinference-semantic-conventions": "0.1.42", "opentelemetry-semantic-conventions": "0.66b2"},
        "names": {"total": S.LLM_COST_TOTAL, "prompt": S.LLM_COST_PROMPT, "completion": S.LLM_COST_COMPLETION},
        "genai_cost_attributes": genai,
        "cost": totals(calls),
    }
    with open(GOLDEN, "w") as f:
        f.write(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    print(f"wrote {FIXTURE} and {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    main()
