#!/usr/bin/env python3
"""The `inspect` cost fixture and its golden, from inspect_ai 0.3.285.

`ModelUsage.total_cost` ("Total cost in dollars for this usage"; None when
Inspect has no price for the model) is the cost an Inspect log reports.
Writes tests/fixtures/inspect/cost/model-usage.json (tests/fixtures/inspect/rich.json
with a sample's `model_usage` of three models: two with a `total_cost`, one
without) and tests/golden/inspect/cost/model-usage.json: per sample, each
model's `total_cost` as `read_eval_log` parses it, and the sum over the models
that have one computed here (None when none has).

Usage: python3 scripts/oracle/inspect/cost.py  (the venv of goldens.py)
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.append(os.path.dirname(HERE))
from pinned_venv import run_inside  # noqa: E402

FIXTURE = os.path.join(REPO, "tests", "fixtures", "inspect", "cost", "model-usage.json")
GOLDEN = os.path.join(REPO, "tests", "golden", "inspect", "cost", "model-usage.json")
VENV = os.path.join(os.environ.get("ATV_VENVS", "/work/venvs"), "inspect-oracle")


def main():
    run_inside(VENV, os.path.join(HERE, "requirements.txt"), __file__, os.environ.get("ATV_PYTHON", "python3.11"))
    from inspect_ai.log import read_eval_log

    log = json.load(open(os.path.join(REPO, "tests", "fixtures", "inspect", "rich.json"), encoding="utf-8"))
    usage = {
        "mockllm/model": dict(log["samples"][0]["model_usage"]["mockllm/model"], total_cost=0.0125),
        "openai/gpt-4o-mini": {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12, "total_cost": 0.0000075},
        "anthropic/claude-haiku": {"input_tokens": 5, "output_tokens": 1, "total_tokens": 6},
    }
    log["samples"][0]["model_usage"] = usage
    log["stats"]["model_usage"] = usage
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    with open(FIXTURE, "w", encoding="utf-8") as f:
        f.write(json.dumps(log, indent=2, ensure_ascii=False) + "\n")

    parsed = read_eval_log(FIXTURE)
    samples = []
    for s in parsed.samples or []:
        costs = {m: u.total_cost for m, u in s.model_usage.items()}
        known = [c for c in costs.values() if c is not None]
        samples.append({"id": s.id, "total_cost": costs, "sum": sum(known) if known else None, "reporting": len(known)})
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    with open(GOLDEN, "w") as f:
        f.write(json.dumps({"inspect_ai": "0.3.285", "samples": samples}, indent=1, sort_keys=True) + "\n")
    print(f"wrote {FIXTURE} and {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    main()
