"""The runs the AgentRun text goldens are made of, built with the docent
library handed in (`m`: docent-python 0.1.3a0's or docent 0.1.88's module)."""

from __future__ import annotations

import json  # noqa: F401

REPR_ARGS = {
    "plain": "2+2",
    "quotes_single": "it's",
    "quotes_double": 'say "hi"',
    "quotes_both": "it's \"both\"",
    "escapes": "tab\there\nnew\\line\rcr\x00nul\x7fdel\x1besc",
    "unicode": "café 中文 😀 ü",
    "nonprint": "zw\u200bsp nb\xa0sp ls\u2028ps\u2029 shy\xad bom\ufeff pua\ue000 \U0001F9FF\U000E0001 \x85",
    "in_list": ["it's", 'say "hi"', "a\\b", "x\ny", "é😀", "\u200b", ""],
    "nested": {"a": [1, 2, {"b": None, "c": True, "d": False}], "e": {}, "f": [], "g": {"h": "i'j"}},
    "floats": [1e-05, 1.0, -0.0, 0.0, 1e16, 1e15, 1e-4, 0.30000000000000004, 5e-324, 1.7976931348623157e308, 123456.789, 2.5e-7, 1e22, 12345678901234567.0, 0.1, -1.5e-10],
    "float_top": 1e-05,
    "float_one": 1.0,
    "float_big": 1e16,
    "float_negzero": -0.0,
    "ints": [0, -5, 2**70, -(2**64)],
    "int_top": 42,
    "flag": True,
    "off": False,
    "x": None,
    "empty_list": [],
    "empty_dict": {},
    "empty_str": "",
    "key with space": "v",
    "unicode_key_é": "k",
}

YAML_KEYS_AND_VALUES = {
    "yes": "yes", "No": "No", "ON": "on", "off": "Off", "y": "y", "n": "N", "true": "true", "False": "FALSE",
    "null": "null", "Null": "NULL", "tilde": "~", "empty": "", "one_float": "1.0", "one_int": "1", "hex": "0x1F",
    "octal": "017", "octal_o": "0o17", "binary": "0b101", "underscored": "1_000", "sexagesimal": "1:20",
    "sexagesimal_float": "1:20.5", "dot_inf": ".inf", "dot_nan": ".NaN", "exp": "1e3", "exp_signed": "1.0e+3",
    "date": "2024-01-01", "datetime": "2024-01-01 12:00:00", "datetime_t": "2001-12-14t21:59:43.10-05:00",
    "merge": "<<", "equals": "=", "colon_space": "a: b", "colon_end": "a:", "colon_inside": "a:b", "hash_space": "a #b",
    "hash_inside": "a#b", "hash_start": "#x", "dash_space": "- x", "dash_word": "-x", "question": "? x", "question_word": "?x",
    "colon_start": ": x", "leading_space": " lead", "trailing_space": "trail ", "multi_line": "line one\nline two",
    "multi_line_indented": "a\n  b\n\nc", "trailing_newline": "end\n", "leading_newline": "\nstart", "space_newline": "a \nb",
    "tab": "a\tb", "cr": "a\r\nb", "non_ascii": "café", "cjk": "中文", "emoji": "😀", "nel": "a\x85b", "ls": "a\u2028b",
    "nbsp": "a\xa0b", "bom": "\ufeffx", "bell": "\x07", "bang": "!tag", "amp": "&anchor", "star": "*alias",
    "percent": "%x", "at": "@x", "backtick": "`x", "doc_start": "---", "doc_end": "...", "brackets": "[x]",
    "braces": "{x}", "comma": "x, y", "single_quote": "it's", "double_quote": 'say "hi"', "backslash": "a\\b",
    "pipe": "|x", "gt": ">x", "long": "word " * 60 + "end", "sci_like": "1e5x", "version": "1.2.3", "plus": "+1",
    "minus_dot": "-.5", "dot5": ".5", "zero": "0", "neg": "-1",
}

YAML_VALUES = {
    "ints": [0, -7, 2**70],
    "floats": [1.0, 1e-05, 1e16, -0.0, 3.14, 1e22, 0.1, 2.5e-7, 123456789.0],
    "bools": [True, False],
    "none": None,
    "nested": {"b": {"c": [1, {"d": "e"}, [2, 3], []]}, "a": {}},
    "list_of_dicts": [{"z": 1, "a": 2}, {"m": [{"n": None}]}],
    "list_of_lists": [[1, 2], [], [[3]]],
    "empty_list": [],
    "empty_dict": {},
    "Upper": 1, "lower": 2, "_under": 3, "9digit": 4, "é_accent": 5, "中": 6,
    "k" * 130: "a key longer than 128 characters is written as a complex key",
    "x" * 127: "127 characters: over the simple-key limit once the implicit `!!str` tag counts",
    "y" * 122: "122 characters: the longest simple key",
    "z" * 123: "123 characters: the shortest complex key",
    "multi\nline key": "a key with a line break",
    "": "an empty key",
    "yes": "a key that YAML reads as a bool",
    "a: b": "a key with ': '",
}


def messages_basic(lib, gen):
    m = lib
    return [
        m.SystemMessage(content="You are a helpful agent. Use the calculator."),
        m.UserMessage(content="What is 2+2? Also, what's 'x'?"),
        m.AssistantMessage(
            content="Let me compute that.",
            tool_calls=[m.call(gen, id="call_1", function="calc", arguments={"expr": "2+2", "opts": {"a": [1, 2]}, "flag": True, "x": None})],
        ),
        m.ToolMessage(content="4", tool_call_id="call_1", function="calc"),
        m.AssistantMessage(content="2+2 = 4."),
    ]


def build_cases(m, gen: str) -> list[dict]:
    """Every case as {name, run, note?}; `m` carries the library's classes."""
    cases = []

    def run(case, transcripts, metadata=None, note="", **top):
        top.setdefault("name", case)
        cases.append({"name": f"{case}-{gen}", "run": m.agent_run(gen, transcripts=transcripts, metadata=metadata, **top), "note": note})

    T = m.transcript
    # basic: one transcript, a tool call and its result, name and description.
    run(
        "basic",
        [T(gen, "main", messages_basic(m, gen))],
        metadata={"scores": {"correct": True, "reward": 1.0}, "model": "gpt-4o", "task_id": "arith-1"},
        id="run-basic",
        description="A small calculator run",
        note="name and description fold into the legacy metadata",
    )
    # repr_args: tool-call arguments through Python's str()/repr().
    run(
        "repr-args",
        [
            T(
                gen,
                "main",
                [
                    m.UserMessage(content="go"),
                    m.AssistantMessage(
                        content="",
                        tool_calls=[
                            m.call(gen, id="c1", function="probe", arguments=REPR_ARGS),
                            m.call(gen, id="c2", function="noargs", arguments={}),
                        ],
                    ),
                    m.ToolMessage(content="done", tool_call_id="c1", function="probe"),
                    m.ToolMessage(content="", tool_call_id="c2", function="noargs"),
                ],
            )
        ],
        metadata={"scores": {}},
        id="run-repr",
    )
    # yaml_meta: PyYAML quoting in run metadata (keys and values).
    run(
        "yaml-meta",
        [T(gen, "main", [m.UserMessage(content="hi"), m.AssistantMessage(content="hello")], metadata={"yes": "no", "multi": "a\nb", "é": 1.0})],
        metadata={"scores": {"a": 1, "b": 0.5, "c": None, "d": False}, "strings": YAML_KEYS_AND_VALUES, **YAML_VALUES},
        id="run-yaml",
        name="yes",
        description="multi\nline description: with # and é",
    )
    # reasoning: reasoning parts first (the last one wins), only text parts joined.
    reasoning_extra = {"summary": "short summary", "redacted": True} if gen == "current" else {"redacted": True}
    run(
        "reasoning",
        [
            T(
                gen,
                "main",
                [
                    m.UserMessage(content=[m.ContentText(text="part one"), m.ContentText(text="part two")]),
                    m.AssistantMessage(
                        content=[
                            m.ContentReasoning(reasoning="first thought"),
                            m.ContentText(text="visible answer"),
                            m.ContentReasoning(reasoning="second thought\nover two lines", signature="sig"),
                            m.ContentText(text="more text"),
                        ]
                    ),
                    m.AssistantMessage(content=[m.ContentReasoning(reasoning="hidden", **reasoning_extra)]),
                    m.AssistantMessage(content=[]),
                    m.UserMessage(content=[m.ContentReasoning(reasoning="reasoning on a user message is not shown")]),
                    m.AssistantMessage(
                        content=[m.ContentReasoning(reasoning="think then call")],
                        tool_calls=[m.call(gen, id="r1", function="search", arguments={"q": "docent"})],
                    ),
                    m.ToolMessage(content=[m.ContentText(text="result a"), m.ContentText(text="result b")], tool_call_id="r1", function="search"),
                ],
            )
        ],
        metadata={"scores": {"ok": True}},
        id="run-reasoning",
    )
    # tool_view: a view replaces the arguments; errors are not rendered; several calls.
    run(
        "tool-view",
        [
            T(
                gen,
                "main",
                [
                    m.UserMessage(content="list files then read one"),
                    m.AssistantMessage(
                        content="Two calls.",
                        tool_calls=[
                            m.call(gen, id="v1", function="bash", arguments={"cmd": "ls -la"}, view=m.ToolCallContent(format="markdown", content="```bash\nls -la\n```", title="shell")),
                            m.call(gen, id="v2", function="read", arguments={"path": "/etc/hosts", "lines": [1, 2]}, parse_error="bad json"),
                        ],
                    ),
                    m.ToolMessage(content="total 0", tool_call_id="v1", function="bash"),
                    m.ToolMessage(content="permission denied", tool_call_id="v2", function="read", error={"type": "permission", "message": "denied"}),
                    m.AssistantMessage(content="I could not read it."),
                ],
            )
        ],
        metadata={"scores": {"passed": False}},
        id="run-tool-view",
    )
    # multi_transcript: several transcripts, action units, transcript metadata.
    run(
        "multi-transcript",
        [
            T(
                gen,
                "agent",
                [
                    m.SystemMessage(content="sys"),
                    m.UserMessage(content="u1"),
                    m.UserMessage(content="u2 (same unit)"),
                    m.AssistantMessage(content="a1"),
                    m.AssistantMessage(content="a2 (same unit)"),
                    m.ToolMessage(content="t1"),
                    m.AssistantMessage(content="a3 (new unit after a tool)"),
                    m.SystemMessage(content="sys again"),
                    m.AssistantMessage(content="a4 after system"),
                    m.UserMessage(content="u3"),
                ],
                metadata={"task": "demo", "internal": {"x": 1}, "notes": "hidden by 'mixed'"},
            ),
            T(gen, "judge: grader #1", [m.UserMessage(content="grade it"), m.AssistantMessage(content="B+")], metadata={"task": "judge", "grader": {"internal": True, "name": "g"}}),
            T(gen, "empty", [], metadata={}),
        ],
        metadata={"scores": {"grade": 3}, "config": {"model": "m", "secret_key": "s", "temperature": 0.2}},
        id="run-multi",
    )
    return cases


def field_description_cases(m) -> list[dict]:
    """Older only: metadata classes with field descriptions, and `_field_descriptions` in JSON."""
    from pydantic import Field

    class TaskMetadata(m.BaseAgentRunMetadata):
        task: str = Field(description="The task the agent solved")
        attempts: int = Field(description="How many tries: it's retried")
        undocumented: str = "x"

    class StepMetadata(m.BaseMetadata):
        step: int = Field(description="Step number")

    run = m.AgentRun(
        id="run-fd",
        name="described",
        description="fields with descriptions",
        transcripts={
            "main": m.Transcript(id="t-fd", messages=[m.UserMessage(content="hi")], metadata=StepMetadata(step=3, extra_key="v")),
        },
        metadata=TaskMetadata(scores={"s": 1}, task="t", attempts=2, extra_field=[1, "two"]),
    )
    inspect = m.AgentRun(
        id="run-inspect",
        transcripts={"sample": m.Transcript(id="t-inspect", messages=[m.UserMessage(content="What is 2+2?"), m.AssistantMessage(content="4")])},
        metadata=m.InspectAgentRunMetadata(
            scores={"match": True}, task_id="arith", sample_id="s1", epoch_id=1, model="claude", scoring_metadata=None, additional_metadata={"difficulty": "easy"}
        ),
    )
    return [
        {"name": "field-descriptions-older", "run": run, "note": "`key (description)` from a metadata class"},
        {"name": "inspect-metadata-older", "run": inspect, "note": "InspectAgentRunMetadata's descriptions"},
    ]


def long_case(m) -> dict:
    """A run long enough that token limits split it every way docent-python does."""
    gen = "older"
    para = "The quick brown fox jumps over the lazy dog. "
    big_unit = [
        m.UserMessage(content="Summarize the log below.\n" + ("ERROR 42: disk full on /dev/sda1 😀😀 中文字符 " * 120)),
        m.AssistantMessage(content="It is full. " + "🙂" * 400),
    ]
    small = [[m.UserMessage(content=f"step {i}: " + para * 3), m.AssistantMessage(content=f"ack {i}")] for i in range(8)]
    transcripts = [
        m.transcript(gen, "short", [m.SystemMessage(content="be brief"), m.UserMessage(content="hi"), m.AssistantMessage(content="hello")], metadata={"kind": "short"}),
        m.transcript(gen, "medium", [msg for pair in small for msg in pair], metadata={"kind": "medium"}),
        m.transcript(gen, "huge", [m.SystemMessage(content="sys " + para * 10)] + big_unit + [m.UserMessage(content="thanks"), m.AssistantMessage(content="bye")], metadata={"kind": "huge"}),
        m.transcript(gen, "tail", [m.UserMessage(content="last " + para * 20), m.AssistantMessage(content="ok")]),
    ]
    run = m.agent_run(gen, name="long", transcripts=transcripts, metadata={"scores": {"r": 0.5}, "blob": para * 5}, id="run-long")
    return {"name": "long-older", "run": run, "note": "token-limit chunking", "limits": [100, 300, 600, 1200, 2500, 100000]}


def tiny_limit_case(m) -> dict:
    """Token limits at and below docent-python's 50-token margin (the fuzzer's
    render_legacy found one): an empty transcript next to a short one, with
    metadata longer than the limit. Whatever docent-python returns — even no
    chunks at all — is what we must return."""
    gen = "older"
    transcripts = [
        m.transcript(gen, "empty", []),
        m.transcript(gen, "short", [m.UserMessage(content="hi"), m.AssistantMessage(content="hello there")]),
    ]
    run = m.agent_run(gen, name="tiny", transcripts=transcripts, metadata={"scores": {"ok": True}, "notes": "a note long enough to need a few tokens " * 3}, id="run-tiny")
    return {"name": "tiny-limit-older", "run": run, "note": "token limits below the 50-token margin", "limits": [1, 38, 49, 50, 51, 60, 90, 120]}


def empty_transcript_case(m) -> dict:
    """Only an empty transcript and metadata over the limit: docent-python
    returns no chunks at all (the fuzzer's input, reduced)."""
    gen = "older"
    run = m.agent_run(gen, name="empty", transcripts=[m.transcript(gen, "default", [])], metadata={"scores": {}, "agent": {"kind": "ProbeAgent", "tools": ["file_editor", "terminal"], "llm": {"model": "gpt-4o-mini", "temperature": 0.0}}}, id="run-empty")
    return {"name": "empty-transcript-older", "run": run, "note": "no chunks at limits under the margin", "limits": [1, 38, 60, 100, 1000]}


def current_only_cases(m) -> list[dict]:
    from datetime import datetime, timedelta

    # Naive times: Docent sorts siblings with None as the naive datetime.max,
    # so an aware time beside a missing one raises TypeError in Docent itself.
    t0 = datetime(2025, 3, 1, 12, 0, 0)
    groups = [
        m.TranscriptGroup(id="g-outer", name="attempts", created_at=t0, metadata={"strategy": "retry", "task": "x"}),
        m.TranscriptGroup(id="g-inner", name="inner group", parent_transcript_group_id="g-outer", created_at=t0 + timedelta(seconds=5), metadata={"level": 2}),
        m.TranscriptGroup(id="g-skipped", name="skipped group", created_at=t0 + timedelta(hours=1)),
        m.TranscriptGroup(id="g-empty", name="no transcripts"),
    ]
    messages = [
        m.SystemMessage(content="sys", metadata={"source": "harness"}),
        m.UserMessage(content="do it", metadata={"tags": ["a", "é"], "usage": {"input_tokens": 3, "output_tokens": 0}}),
        m.AssistantMessage(content="done", metadata={"usage": {"input_tokens": 812, "output_tokens": 40}, "cost": 1e-05}),
        m.AssistantMessage(content="no metadata", metadata={}),
    ]
    transcripts = [
        # Listed out of order: children sort by created_at, None last.
        m.Transcript(id="t-late", name="attempt 2", transcript_group_id="g-outer", created_at=t0 + timedelta(minutes=10), messages=[m.UserMessage(content="second")], metadata={"task": "b"}),
        m.Transcript(id="t-early", name="attempt 1", transcript_group_id="g-outer", created_at=t0 + timedelta(minutes=1), messages=messages, metadata={"task": "a", "notes": "n"}),
        m.Transcript(id="t-inner", name="inner", transcript_group_id="g-inner", messages=[m.UserMessage(content="inner")], metadata={}),
        m.Transcript(id="t-root", name=None, messages=[m.UserMessage(content="root, no name: matched by id")], metadata={"task": "root"}),
        m.Transcript(id="t-skip", name="in skipped", transcript_group_id="g-skipped", messages=[m.UserMessage(content="skipped?")]),
        m.Transcript(id="t-judge", name="judge", messages=[m.UserMessage(content="grade")], metadata={"task": "judge"}),
        m.Transcript(id="t-orphan", name="orphan", transcript_group_id="g-missing", messages=[m.UserMessage(content="parent group missing")]),
    ]
    grouped = m.AgentRun(
        id="run-groups",
        name="groups",
        description="nested transcript groups",
        transcripts=transcripts,
        transcript_groups=groups,
        metadata={
            "scores": {"a": 1, "b1": 2, "bb": 3},
            "config": {"model": "m", "secret_key": "s", "nested": {"model": "inner"}},
            "empty": {},
            "unicode": "é中😀\u2028\x7f\x00",
            "floats": [1e-05, 1e16, -0.0, 1.0, 2**70, 0.1],
            "quote": 'say "hi" \\ /',
        },
    )
    # Aware times order by instant across offsets; an unnamed group prints as None;
    # a transcript named "" matches no name pattern, so Docent hides it.
    aware = m.AgentRun(
        id="run-tz",
        transcripts=[
            m.Transcript(id="tz-a", name="ten utc", created_at="2025-03-01T12:00:00+02:00", transcript_group_id="g-anon", messages=[m.UserMessage(content="10:00Z")]),
            m.Transcript(id="tz-b", name="eleven utc", created_at="2025-03-01T11:00:00Z", transcript_group_id="g-anon", messages=[m.UserMessage(content="11:00Z")]),
            m.Transcript(id="tz-c", name="ten thirty", created_at="2025-03-01T05:30:00-05:00", transcript_group_id="g-anon", messages=[m.UserMessage(content="10:30Z")]),
            m.Transcript(id="tz-empty", name="", created_at="2025-03-01T00:00:00Z", messages=[m.UserMessage(content="named empty")]),
            m.Transcript(id="tz-d", name="unix", created_at="2025-03-01T09:00:00Z", messages=[m.UserMessage(content="09:00Z")], metadata={"clé": "välue", "日本": ["語", 1e-07]}),
        ],
        transcript_groups=[m.TranscriptGroup(id="g-anon", created_at="2025-03-01T08:00:00Z", metadata={"ünïcode": True})],
        metadata={"naïve": "no"},
    )
    mixed = m.AgentRun(
        id="run-tz-mixed",
        transcripts=[
            m.Transcript(id="mx-a", name="aware", created_at="2025-03-01T12:00:00Z", messages=[m.UserMessage(content="a")]),
            m.Transcript(id="mx-b", name="missing", messages=[m.UserMessage(content="b")]),
        ],
    )
    return [
        {"name": "groups-current", "run": grouped, "note": "transcript groups, created_at order, context configs"},
        {"name": "timezones-current", "run": aware, "note": "aware created_at ordered by instant; unnamed group; empty transcript name"},
        {"name": "timezones-mixed-current", "run": mixed, "note": "docent 0.1.88 raises TypeError: aware and missing created_at among siblings"},
    ]


# --------------------------------------------------------------------------
# Workers (inside a venv with one Docent generation installed)
# --------------------------------------------------------------------------
