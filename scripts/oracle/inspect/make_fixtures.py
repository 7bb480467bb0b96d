#!/usr/bin/env python3
"""Writes the hand-made Inspect fixtures of tests/fixtures/inspect/.

Shapes follow inspect_ai 0.3.285's log types (inspect_ai/log/_log.py,
_transcript.py, model/_chat_message.py): every ChatMessage role, content
parts text/reasoning/image, parallel tool calls with `view`, a tool error,
nested spans (`span_begin`/`span_end` by `id`/`parent_id`), model and tool
events with timing and usage, score/state/store/info/logger/error/input/
sample_limit events and one type Inspect does not have (`mystery`, which read_eval_log refuses),
`attachment://` references, a sample `error` and `limit`, an eval that ended
in error, a log with no samples, and two documents read_eval_log refuses.
Deterministic: rerunning rewrites the same bytes.
Usage: python3 scripts/oracle/inspect/make_fixtures.py
"""

import copy
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
OUT = REPO / "tests" / "fixtures" / "inspect"
PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
T = "2025-03-01T10:00:{:02d}.000000+00:00"

EVAL = {
    "eval_id": "E1", "run_id": "R1", "created": "2025-03-01T10:00:00+00:00", "task": "arith", "task_id": "T1",
    "task_version": 0, "dataset": {"name": "arith", "samples": 2, "sample_ids": [1, 2], "shuffled": False},
    "model": "mockllm/model", "config": {"epochs": 1}, "packages": {"inspect_ai": "0.3.285"},
}
PLAN = {"name": "plan", "steps": [{"solver": "generate", "params": {}}], "config": {}}
USAGE = {"input_tokens": 120, "output_tokens": 30, "total_tokens": 200, "input_tokens_cache_read": 40, "input_tokens_cache_write": 10, "reasoning_tokens": 5}


def ev(kind, i, **kw):
    e = {"timestamp": T.format(i), "working_start": float(i), "event": kind}
    e.update(kw)
    return e


def rich_sample(sid, epoch):
    call1 = {"id": "c1", "function": "add", "arguments": {"x": 1, "y": 2}, "view": {"format": "markdown", "content": "add(1, 2)"}}
    call2 = {"id": "c2", "function": "add", "arguments": {"x": -1, "y": 2}}
    messages = [
        {"role": "system", "content": "Use the add tool."},
        {"role": "user", "content": [{"type": "text", "text": "attachment://a1"}]},
        {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "I should call add.", "redacted": False},
                                          {"type": "text", "text": "Calling add twice."}],
         "tool_calls": [call1, call2], "model": "mockllm/model"},
        {"role": "tool", "content": "3", "tool_call_id": "c1", "function": "add"},
        {"role": "tool", "content": "", "tool_call_id": "c2", "function": "add",
         "error": {"type": "unknown", "message": "negative numbers are not supported"}},
        {"role": "assistant", "content": "The answer is 3.", "model": "mockllm/model"},
    ]
    output = {"model": "mockllm/model", "choices": [{"message": messages[2], "stop_reason": "tool_calls"}], "usage": USAGE, "time": 0.5}
    events = [
        ev("span_begin", 0, id="s0", name="init", type="init"),
        ev("sample_init", 0, span_id="s0", sample={"input": "What is 1 + 2?", "target": "3"}, state={}),
        ev("span_end", 1, id="s0"),
        ev("span_begin", 1, id="s1", name="solvers", type="solvers"),
        ev("span_begin", 1, id="s2", parent_id="s1", name="generate", type="solver"),
        ev("model", 2, span_id="s2", model="mockllm/model", input=[messages[0], messages[1]], tools=[], tool_choice="auto",
           config={}, output=output, working_time=0.5),
        ev("tool", 3, span_id="s2", type="function", id="c1", function="add", arguments={"x": 1, "y": 2}, result="3", working_time=0.01),
        ev("tool", 3, span_id="s2", type="function", id="c2", function="add", arguments={"x": -1, "y": 2}, result="",
           error={"type": "unknown", "message": "negative numbers are not supported"}, working_time=0.01),
        ev("state", 4, span_id="s2", changes=[{"op": "add", "path": "/messages/3", "value": "3"}]),
        ev("store", 4, span_id="s2", changes=[{"op": "add", "path": "/count", "value": 1}]),
        ev("info", 4, span_id="s2", source="solver", data={"note": "attachment://a1"}),
        ev("logger", 4, span_id="s2", message={"level": "warning", "message": "slow tool", "created": 1.0}),
        ev("input", 4, span_id="s2", input="yes", input_ansi="yes"),
        ev("span_end", 5, id="s2"),
        ev("span_end", 5, id="s1"),
        ev("span_begin", 6, id="s3", name="scorers", type="scorers"),
        ev("score", 6, span_id="s3", score={"value": "C", "answer": "3", "explanation": "matches"}, intermediate=False),
        ev("span_end", 6, id="s3"),
    ]
    return {
        "id": sid, "epoch": epoch, "input": "What is 1 + 2?", "target": "3", "messages": messages,
        "output": {"model": "mockllm/model", "choices": [{"message": messages[-1], "stop_reason": "stop"}], "usage": USAGE},
        "scores": {"match": {"value": "C", "answer": "3", "explanation": "matches"}},
        "metadata": {"difficulty": "easy"}, "store": {"count": 1}, "events": events,
        "model_usage": {"mockllm/model": USAGE}, "total_time": 6.0, "working_time": 5.5, "uuid": f"u-{sid}-{epoch}",
        "attachments": {"a1": "What is 1 + 2? See the attached note"},
    }


def text_sample(sid, epoch, answer, score):
    return {
        "id": sid, "epoch": epoch, "input": f"Question {sid}", "target": "yes",
        "messages": [
            {"role": "system", "content": "Answer yes or no."},
            {"role": "user", "content": f"Question {sid}: is it so?"},
            {"role": "assistant", "content": [{"type": "reasoning", "reasoning": "thinking…", "summary": "brief", "redacted": True},
                                              {"type": "text", "text": answer}]},
        ],
        "scores": {"match": {"value": score}, "graded": {"value": {"a": 1, "b": "P"}}},
        "metadata": {}, "model_usage": {"mockllm/model": {"input_tokens": 10, "output_tokens": 2, "total_tokens": 12}},
    }


def log(status, samples, **extra):
    d = {"version": 2, "status": status, "eval": copy.deepcopy(EVAL), "plan": PLAN}
    d.update(extra)
    if samples is not None:
        d["samples"] = samples
    return d


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    files = {
        "rich.json": log("success", [rich_sample(1, 1)], results={"total_samples": 1, "completed_samples": 1, "scores": []},
                         stats={"started_at": T.format(0), "completed_at": T.format(9), "model_usage": {"mockllm/model": USAGE}}),
        "text-epochs.json": log("success", [text_sample("a", 1, "yes", "C"), text_sample("b", 1, "no", "I"),
                                            text_sample("a", 2, "Yes", 1), text_sample("b", 2, "maybe", "0.5")]),
        "error-status.json": log("error", [
            dict(text_sample("a", 1, "yes", "C"), error={"message": "RuntimeError('sandbox died')", "traceback": "Traceback…", "traceback_ansi": "Traceback…"}),
            dict(text_sample("b", 1, "no", "I"), limit={"type": "token", "limit": 100},
                 events=[ev("sample_limit", 1, type="token", message="token limit of 100 exceeded", limit=100),
                         ev("error", 2, error={"message": "boom", "traceback": "", "traceback_ansi": ""})]),
        ], error={"message": "RuntimeError('sandbox died')", "traceback": "Traceback…", "traceback_ansi": "Traceback…"}),
        "no-samples.json": log("started", None),
        "rejected-unknown-event.json": log("success", [dict(rich_sample(1, 1), events=rich_sample(1, 1)["events"] + [ev("mystery", 9, payload={"kept": True})])]),
        "images.json": log("success", [dict(text_sample("img", 1, "yes", "C"), messages=[
            {"role": "user", "content": [{"type": "text", "text": "What is in the picture?"}, {"type": "image", "image": PNG, "detail": "auto"}]},
            {"role": "assistant", "content": "A pixel."}])]),
        "rejected-no-eval.json": {"version": 2, "status": "success", "plan": PLAN, "samples": []},
        "rejected-sample-no-id.json": log("success", [{k: v for k, v in text_sample("a", 1, "yes", "C").items() if k != "id"}]),
    }
    for name, d in files.items():
        (OUT / name).write_text(json.dumps(d, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
