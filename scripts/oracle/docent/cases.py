"""Rule-matrix fixtures for the `docent` format: one AgentRun per JSONL line,
each breaking (or just satisfying) one rule of Docent's pydantic models.

Every run carries an `expect` field — a top-level extra field, which both
Docent libraries ignore — listing the diagnostic codes our importer must emit
for it (tests/docent.rs: every Error we emit must be listed; every listed code
must be emitted). Whether the libraries accept each run is NOT written here:
that comes from the libraries themselves (verdicts.json).
"""

from __future__ import annotations

import json

USER = {"role": "user", "content": "hi"}
MISSING = object()  # a field left out of the run


def older(messages=None, *, tmeta=..., rmeta=..., transcript=None, key="main", expect=(), name, **top):
    """An older-generation run: `transcripts` keyed by name, metadata with scores."""
    t = {"messages": [USER] if messages is None else messages}
    if tmeta is not ...:
        t["metadata"] = tmeta
    t.update(transcript or {})
    run = {"expect": list(expect), "name": name, "transcripts": {key: t}}
    if rmeta is ...:
        run["metadata"] = {"scores": {}}
    elif rmeta is not MISSING:
        run["metadata"] = rmeta
    run.update(top)
    return run


def current(messages=None, *, tmeta=..., rmeta=..., transcript=None, expect=(), name, **top):
    """A current-generation run: `transcripts` a list."""
    t = {"id": "t0", "messages": [USER] if messages is None else messages}
    if tmeta is not ...:
        t["metadata"] = tmeta
    t.update(transcript or {})
    run = {"expect": list(expect), "name": name, "transcripts": [t]}
    if rmeta is not ...:
        run["metadata"] = rmeta
    run.update(top)
    return run


def assistant(calls, **extra):
    return {"role": "assistant", "content": "", "tool_calls": calls, **extra}


CALL = {"id": "c1", "function": "lookup", "arguments": {"q": "x"}, "type": "function"}
ANSWER = {"role": "tool", "content": "ok", "tool_call_id": "c1", "function": "lookup"}


def call(**changes):
    c = dict(CALL)
    for k, v in changes.items():
        if v is ...:
            c.pop(k, None)
        else:
            c[k] = v
    return c


def part_run(make, part, expect, name):
    return make([{"role": "assistant", "content": [part]}], expect=expect, name=name)


GOOD_SCORE_VALUES = {
    "int": 1, "float": 0.5, "bool": True, "null": None, "int string": "1", "padded": " 2.5 ",
    "bool word": "yes", "underscores": "1_000", "inf": "inf", "-nan": "-nan", "exponent": "1e3",
    "+.5": "+.5", "float underscores": "1.0_0", "leading zeros": "00012", "trailing dot": "1.",
    "TRUE": "TRUE", "Infinity": "Infinity", "tab newline": "\t1\n",
    # pydantic-core's float parser drops any `_` that does not lead, trail or
    # double, wherever it stands (Python's float() would not).
    "underscore before point": "1_.5", "underscore in exponent": "1e_5", "underscore in inf": "in_f",
    "underscore after sign": "-_1", "padded int underscores": " 1_0 ",
}
BAD_SCORE_VALUES = {
    "hex": "0x10", "empty": "", "inner space": "1 000", "word": "x", "double underscore": "1__0",
    "leading underscore": "_1", "dangling exponent": "1e", "dot": ".", "padded bool": " true",
    "arabic digit": "\u0661", "list": [1], "object": {"b": 1}, "infinit": "infinit",
    # Not an int; and the float parser strips `_` only from the untrimmed text.
    "padded float underscores": " 1_.5 ",
}
GOOD_BOOLS = [0, 1, 0.0, 1.0, "0", "1", "true", "True", "yes", "no", "on", "off", "t", "f", "y", "n", "TRUE"]
BAD_BOOLS = [2, 1.5, "2", " true", None, [], {}, "maybe"]
GOOD_DATETIMES = [
    "2024-01-01", "2024-01-01T10:00:00", "2024-01-01T10:00:00Z", "2024-01-01 10:00:00", "2024-01-01T10:00",
    "2024-01-01T10:00:00.123456+02:00", "2024-01-01T10:00:00+0200", "2024-01-01T10:00:00.1234567Z",
    "1700000000", "1700000000.5", 1700000000, 1700000000.5, 0, -1, "20240101", "2024-01-01t10:00:00z",
    "2024-01-01T10:00:00,5", 2.5e14, -62135596800000, "+1700000000", ".5", "2024-02-29", "2000-02-29",
    "2024-01-01T10:00Z", "2024-01-01T10:00:00-00:00", "2024-01-01T10:00:00+23:59", "9999-12-31T23:59:59", None,
]
BAD_DATETIMES = [
    True, "2024-13-01", "2024-1-1", "2024-01-01T25:00:00", "2024-01-01T10:00:00+02", "2024-01-01T10",
    "2024-01-01T10:00:60", 1e20, "1e3", "", "2024-02-30", "2024-01-01T10:00:00.Z", 2.6e14, " 1700000000",
    "2023-02-29", "1900-02-29", "0000-01-01", "2024-01-01T24:00:00", "2024-01-01T10:00:00+24:00", "2024-01-01T",
    "1_000", "nan", "2024-01-01T10:00:00 +02:00", "2024-01-01 ", [], {},
]


def older_cases() -> list[dict]:
    c = [
        older(name="minimal"),
        older(
            name="as the older library dumps it",
            id="r1", description=None,
            rmeta={"allow_fields_without_descriptions": True, "scores": {"reward": 1.0}, "model": "m",
                   "_field_descriptions": {"scores": "A dict of score_key -> score_value."}},
            tmeta={"allow_fields_without_descriptions": True, "_field_descriptions": {}},
            transcript={"id": "t1", "name": None, "description": None},
        ),
        older(name="metadata missing", rmeta=MISSING, expect=["missing-metadata"]),
        older(name="metadata null", rmeta=None, expect=["metadata-type"]),
        older(name="metadata a list", rmeta=[1], expect=["metadata-type"]),
        older(name="metadata a string", rmeta="x", expect=["metadata-type"]),
        older(name="metadata without scores", rmeta={"model": "m"}, expect=["missing-scores"]),
        older(name="scores null", rmeta={"scores": None}, expect=["scores-type"]),
        older(name="scores a list", rmeta={"scores": [1]}, expect=["scores-type"]),
        older(name="_field_descriptions of any type", rmeta={"scores": {}, "_field_descriptions": 5}),
        older(name="metadata extra keys", rmeta={"scores": {}, "_foo": 1, "model_config": 2}),
    ]
    for label, v in GOOD_SCORE_VALUES.items():
        c.append(older(name=f"score {label}", rmeta={"scores": {"s": v}}))
    for label, v in BAD_SCORE_VALUES.items():
        c.append(older(name=f"score {label}", rmeta={"scores": {"s": v}}, expect=["score-type"]))
    for v in GOOD_BOOLS[:6]:
        c.append(older(name=f"allow_fields_without_descriptions {v!r}", rmeta={"scores": {}, "allow_fields_without_descriptions": v}))
    for v in ["maybe", 2, None]:
        c.append(older(name=f"allow_fields_without_descriptions {v!r}", rmeta={"scores": {}, "allow_fields_without_descriptions": v}, expect=["field-type"]))
    c += [
        older(name="transcript metadata null", tmeta=None, expect=["metadata-type"]),
        older(name="transcript metadata a string", tmeta="s", expect=["metadata-type"]),
        older(name="transcript metadata bad flag", tmeta={"allow_fields_without_descriptions": "x"}, expect=["field-type"]),
        older(name="transcript metadata free form", tmeta={"k": [1], "_field_descriptions": 5}),
        {"expect": ["empty-transcripts"], "name": "no transcripts", "transcripts": {}, "metadata": {"scores": {}}},
        {"expect": ["transcript-not-object"], "name": "transcript null", "transcripts": {"k": None}, "metadata": {"scores": {}}},
        {"expect": ["transcript-not-object"], "name": "transcript a string", "transcripts": {"k": "s"}, "metadata": {"scores": {}}},
        {"expect": ["missing-messages"], "name": "transcript without messages", "transcripts": {"k": {}}, "metadata": {"scores": {}}},
        older(name="messages a string", messages="x", expect=["messages-type"]),
        older(name="messages null", messages=None, transcript={"messages": None}, expect=["messages-type"]),
        older(name="no messages", messages=[]),
        older(name="transcript id a number", transcript={"id": 3}, expect=["field-type"]),
        older(name="transcript id null", transcript={"id": None}, expect=["field-type"]),
        older(name="transcript name a number", transcript={"name": 5}, expect=["field-type"]),
        older(name="transcript description a number", transcript={"description": 5}, expect=["field-type"]),
        older(name="key with spaces and dots", key="sub agent.1"),
        # Messages.
        older([{"role": "robot", "content": "x"}], name="unknown role", expect=["unknown-role"]),
        older([{"content": "x"}], name="no role", expect=["missing-role"]),
        older([{"role": 3, "content": "x"}], name="role a number", expect=["unknown-role"]),
        older([{"role": "User", "content": "x"}], name="role capitalised", expect=["unknown-role"]),
        older([{"role": None, "content": "x"}], name="role null", expect=["unknown-role"]),
        older(["hi"], name="message a string", expect=["message-not-object"]),
        older([None], name="message null", expect=["message-not-object"]),
        older([{"role": "user"}], name="content missing", expect=["missing-content"]),
        older([{"role": "user", "content": None}], name="content null", expect=["content-type"]),
        older([{"role": "user", "content": 5}], name="content a number", expect=["content-type"]),
        older([{"role": "user", "content": {"text": "x"}}], name="content an object", expect=["content-type"]),
        older([{"role": "user", "content": []}], name="content no parts"),
        older([{"role": "user", "content": "x", "id": 5}], name="message id a number", expect=["field-type"]),
        older([{"role": "user", "content": "x", "id": None, "foo": 1}], name="message id null, extra field"),
        older([{"role": "user", "content": "x", "tool_call_id": "c1"}], name="user tool_call_id a string", expect=["field-type"]),
        older([{"role": "user", "content": "x", "tool_call_id": [1]}], name="user tool_call_id a list of numbers", expect=["field-type"]),
        older([{"role": "user", "content": "x", "tool_call_id": ["c1"], "tool_calls": [5]}], name="user tool_call_id list; tool_calls ignored on user"),
        older([{"role": "assistant", "content": "x", "model": 5}], name="assistant model a number", expect=["field-type"]),
        older([{"role": "system", "content": "x", "model": 5}], name="system model ignored"),
        older([{"role": "tool", "content": "r", "error": "boom"}], name="tool error a string", expect=["field-type"]),
        older([{"role": "tool", "content": "r", "tool_call_id": 1}], name="tool tool_call_id a number", expect=["field-type"]),
        older([{"role": "tool", "content": "r", "function": 1}], name="tool function a number", expect=["field-type"]),
        older([{"role": "tool", "content": "r", "error": {"type": "x", "message": "m"}}], name="tool error object"),
    ]
    # Content parts.
    c += [
        part_run(older, {"type": "text", "text": "a", "refusal": None}, [], "text part"),
        part_run(older, {"type": "reasoning", "reasoning": "r", "signature": None, "redacted": False}, [], "reasoning part"),
        part_run(older, {"type": "image", "image": "x"}, ["content-part-type"], "image part"),
        part_run(older, {"type": "bogus"}, ["content-part-type"], "bogus part"),
        part_run(older, {"text": "x"}, ["content-part-type"], "part without type"),
        part_run(older, {"type": 5, "text": "x"}, ["content-part-type"], "part type a number"),
        part_run(older, "x", ["content-part-invalid"], "part a string"),
        part_run(older, {"type": "text"}, ["content-part-invalid"], "text part without text"),
        part_run(older, {"type": "text", "text": 5}, ["content-part-invalid"], "text a number"),
        part_run(older, {"type": "text", "text": "t", "refusal": "x"}, ["content-part-invalid"], "refusal a word"),
        part_run(older, {"type": "text", "text": "t", "refusal": "yes"}, [], "refusal yes"),
        part_run(older, {"type": "reasoning"}, ["content-part-invalid"], "reasoning part without reasoning"),
        part_run(older, {"type": "reasoning", "reasoning": "r", "signature": 5}, ["content-part-invalid"], "signature a number"),
        part_run(older, {"type": "reasoning", "reasoning": "r", "summary": 5}, ["rejected-by-current-docent"], "summary a number"),
        older([{"role": "user", "content": [{"type": "reasoning", "reasoning": "r"}]}], name="reasoning on a user message"),
    ]
    for v in GOOD_BOOLS:
        c.append(part_run(older, {"type": "reasoning", "reasoning": "r", "redacted": v}, [], f"redacted {v!r}"))
    for v in BAD_BOOLS:
        c.append(part_run(older, {"type": "reasoning", "reasoning": "r", "redacted": v}, ["content-part-invalid"], f"redacted {v!r}"))
    # Tool calls.
    c += [
        older([assistant([CALL]), ANSWER], name="tool call answered"),
        older([assistant([call(id=...)])], name="tool call without id", expect=["tool-call-missing-id"]),
        older([assistant([call(function=...)])], name="tool call without function", expect=["tool-call-missing-function"]),
        older([assistant([call(arguments=...)])], name="tool call without arguments", expect=["tool-call-missing-arguments"]),
        older([assistant([call(type=...)]), ANSWER], name="tool call without type", expect=["tool-call-missing-type"]),
        older([assistant([call(type=None)]), ANSWER], name="tool call type null"),
        older([assistant([call(type="tool")]), ANSWER], name="tool call type other", expect=["field-type"]),
        older([assistant([call(arguments='{"q": "x"}')]), ANSWER], name="arguments a JSON string", expect=["arguments-type"]),
        older([assistant([call(arguments=None)]), ANSWER], name="arguments null", expect=["arguments-type"]),
        older([assistant([call(arguments=[1])]), ANSWER], name="arguments a list", expect=["arguments-type"]),
        older([assistant([call(function={"name": "lookup"})]), ANSWER], name="function an OpenAI object", expect=["field-type"]),
        older([assistant([call(function=None)]), ANSWER], name="function null", expect=["field-type"]),
        older([assistant([call(id=5)])], name="tool call id a number", expect=["field-type"]),
        older([assistant([call(id=None)])], name="tool call id null", expect=["field-type"]),
        older([assistant([call(view={"format": "markdown", "content": "c", "title": "t", "x": 1})]), ANSWER], name="view"),
        older([assistant([call(view=None)]), ANSWER], name="view null"),
        older([assistant([call(view={"format": "html", "content": "c"})]), ANSWER], name="view format html", expect=["tool-call-view-invalid"]),
        older([assistant([call(view="s")]), ANSWER], name="view a string", expect=["tool-call-view-invalid"]),
        older([assistant([call(view={"format": "text"})]), ANSWER], name="view without content", expect=["tool-call-view-invalid"]),
        older([assistant([call(view={"format": "text", "content": "c", "title": 5})]), ANSWER], name="view title a number", expect=["tool-call-view-invalid"]),
        older([assistant([call(extra=1)]), ANSWER], name="tool call extra field"),
        older([assistant([call(parse_error=5)]), ANSWER], name="parse_error a number", expect=["field-type"]),
        older([assistant([call(parse_error="bad json")]), ANSWER], name="parse_error a string"),
        older([assistant([call(google_thought_signature=5)]), ANSWER], name="google_thought_signature a number", expect=["rejected-by-current-docent"]),
        older([assistant({})], name="tool_calls an object", expect=["tool-calls-type"]),
        older([assistant(None)], name="tool_calls null"),
        older([assistant(["x"])], name="tool call a string", expect=["tool-call-not-object"]),
        older([assistant([None])], name="tool call null", expect=["tool-call-not-object"]),
    ]
    # Fields only the current library reads: accepted here, rejected there.
    c += [
        older([{"role": "user", "content": "x", "metadata": "s"}], name="message metadata a string", expect=["rejected-by-current-docent"]),
        older([{"role": "user", "content": "x", "metadata": {"k": 1}}], name="message metadata object"),
        older(name="transcript created_at a word", transcript={"created_at": "yesterday"}, expect=["rejected-by-current-docent"]),
        older(name="transcript transcript_group_id a number", transcript={"transcript_group_id": 5}, expect=["rejected-by-current-docent"]),
        older(name="transcript_groups a string", transcript_groups="x", expect=["rejected-by-current-docent"]),
        older(name="transcript_groups valid", transcript_groups=[{"id": "g", "name": "G"}]),
        older(name="run id a number", id=5, expect=["field-type"]),
        older(name="run id null", id=None, expect=["field-type"]),
        older(name="run description a number", description=5, expect=["field-type"]),
        {"expect": ["field-type"], "name": 5, "transcripts": {"k": {"messages": []}}, "metadata": {"scores": {}}},
    ]
    return c


def current_cases() -> list[dict]:
    c = [
        current(name="minimal"),
        current(name="metadata free form", rmeta={"scores": {"a": "x"}, "k": [1]}),
        current(name="metadata null", rmeta=None, expect=["metadata-type"]),
        current(name="metadata a string", rmeta="x", expect=["metadata-type"]),
        current(name="metadata a list", rmeta=[], expect=["metadata-type"]),
        {"expect": ["missing-transcripts"], "name": "transcripts missing", "metadata": {}},
        {"expect": ["empty-transcripts"], "name": "transcripts empty", "transcripts": []},
        {"expect": ["transcripts-type"], "name": "transcripts a string", "transcripts": "x"},
        {"expect": ["transcripts-type"], "name": "transcripts null", "transcripts": None},
        {"expect": ["transcript-not-object"], "name": "transcript null", "transcripts": [None]},
        {"expect": ["missing-messages"], "name": "transcript without messages", "transcripts": [{"id": "t"}]},
        {"expect": [], "name": "transcript without id", "transcripts": [{"messages": []}]},
        current(name="transcript metadata null", tmeta=None, expect=["metadata-type"]),
        current(name="transcript metadata a string", tmeta="s", expect=["metadata-type"]),
        current(name="transcript metadata with odd flag", tmeta={"allow_fields_without_descriptions": "x"}),
        current(name="transcript id null", transcript={"id": None}, expect=["field-type"]),
        current(name="transcript id a number", transcript={"id": 7}, expect=["field-type"]),
        current(name="transcript_group_id a number", transcript={"transcript_group_id": 5}, expect=["field-type"]),
        current(name="transcript_group_id a string", transcript={"transcript_group_id": "g"}),
        current([{"role": "user", "content": "x", "metadata": "s"}], name="message metadata a string", expect=["metadata-type"]),
        current([{"role": "user", "content": "x", "metadata": None}], name="message metadata null"),
        current([{"role": "user", "content": "x", "metadata": [1]}], name="message metadata a list", expect=["metadata-type"]),
        current([{"role": "robot", "content": "x"}], name="unknown role", expect=["unknown-role"]),
        current([{"role": "developer", "content": "x"}], name="OpenAI developer role", expect=["unknown-role"]),
        current([{"role": "user", "content": None}], name="content null", expect=["content-type"]),
        part_run(current, {"type": "image", "image": "x"}, ["content-part-type"], "image part"),
        part_run(current, {"type": "reasoning", "reasoning": "r", "summary": "s"}, [], "summary"),
        part_run(current, {"type": "reasoning", "reasoning": "r", "summary": 5}, ["content-part-invalid"], "summary a number"),
        current([assistant([call(type=...)]), ANSWER], name="tool call without type"),
        current([assistant([call(id=...)])], name="tool call without id", expect=["tool-call-missing-id"]),
        current([assistant([call(function=...)])], name="tool call without function", expect=["tool-call-missing-function"]),
        current([assistant([call(google_thought_signature=5)]), ANSWER], name="google_thought_signature a number", expect=["field-type"]),
        current([assistant([call(google_thought_signature="c2ln")]), ANSWER], name="google_thought_signature"),
        current(name="transcript_groups", transcript_groups=[{"id": "g", "name": "G", "description": None, "agent_run_id": "r",
                                                               "parent_transcript_group_id": None, "created_at": "2025-01-01T00:00:00Z", "metadata": {"k": 1}}]),
        current(name="transcript_groups null", transcript_groups=None, expect=["field-type"]),
        current(name="transcript_groups a string", transcript_groups="x", expect=["field-type"]),
        current(name="transcript_groups an object of groups", transcript_groups={"g": {"name": "G"}}),
        current(name="transcript_groups object with bad group", transcript_groups={"g": {"name": 5}}, expect=["field-type"]),
        current(name="transcript group a string", transcript_groups=["x"], expect=["transcript-group-not-object"]),
        current(name="transcript group id null", transcript_groups=[{"id": None}], expect=["field-type"]),
        current(name="transcript group agent_run_id a number", transcript_groups=[{"agent_run_id": 5}], expect=["field-type"]),
        current(name="transcript group parent a number", transcript_groups=[{"parent_transcript_group_id": 5}], expect=["field-type"]),
        current(name="transcript group created_at a word", transcript_groups=[{"created_at": "x"}], expect=["datetime-invalid"]),
        current(name="transcript group metadata a string", transcript_groups=[{"metadata": "s"}], expect=["metadata-type"]),
        {"expect": ["duplicate-transcript-id"], "name": "duplicate transcript ids",
         "transcripts": [{"id": "t", "messages": [USER]}, {"id": "t", "messages": [USER]}]},
    ]
    for v in GOOD_DATETIMES:
        c.append(current(name=f"created_at {v!r}", transcript={"created_at": v}))
    for v in BAD_DATETIMES:
        c.append(current(name=f"created_at {v!r}", transcript={"created_at": v}, expect=["datetime-invalid"]))
    return c


def jsonl(runs: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in runs)


def rule_fixtures() -> dict[str, str]:
    return {"rules_older.jsonl": jsonl(older_cases()), "rules_current.jsonl": jsonl(current_cases())}
