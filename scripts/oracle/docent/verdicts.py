#!/usr/bin/env python3
"""Golden verdicts for the `docent` format, from the real Docent libraries.

Docent's AgentRun JSON exists in two generations, read by two packages that
both install as `import docent` (so each gets its own venv):

- older:   PyPI `docent-python==0.1.3a0` — `transcripts` is an object keyed by
           name, run `metadata` is a BaseAgentRunMetadata (requires `scores`).
           JSON is read with `AgentRunWithoutMetadataValidator.model_validate`
           (what its SDK client does: plain `AgentRun.model_validate` rejects
           every JSON object, because its metadata validator wants an instance);
           the plain `AgentRun` verdict is recorded too, as `older_strict`.
- current: PyPI `docent==0.1.88` — `transcripts` is a list (an object is still
           accepted, with a deprecation warning), `transcript_groups`, metadata
           a free dict. Read with `AgentRun.model_validate`.

What this script does, idempotently:
1. creates the venvs (default /work/venvs/docent-{older,current}; override the
   root with ATV_VENVS) from the pinned requirements files next to it;
2. writes the rule-matrix fixtures (cases.py) and the fixtures the
   libraries write themselves (`model_dump_json()` of runs built with their own
   classes) into tests/fixtures/docent/;
3. validates every run of every fixture in tests/fixtures/docent/ and of the
   corpus folder docent/ (corpus root /work/shared/corpus, override ATV_CORPUS)
   under both libraries, and writes tests/golden/docent/verdicts.json.

A file is one JSON document (a list is a list of runs, anything else one run)
or, when it is not one document, JSON Lines with one run per line — the same
split the Rust core makes.

Usage: python3 scripts/oracle/docent/verdicts.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # appended: folders here are named like the packages they check
from pinned_venv import pinned_venv  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "docent"
GOLDEN = REPO / "tests" / "golden" / "docent" / "verdicts.json"
VENV_ROOT = Path(os.environ.get("ATV_VENVS", "/work/venvs"))
# As tests/common/mod.rs: ../shared/corpus beside the repo, or $ATV_CORPUS.
CORPUS = Path(os.environ.get("ATV_CORPUS", str(REPO.parent / "shared" / "corpus")))
PYTHON = os.environ.get("ATV_PYTHON", "python3.11")

LIBS = {
    "older": {
        "venv": VENV_ROOT / "docent-older",
        "requirements": HERE / "requirements-older.txt",
        "package": "docent-python==0.1.3a0",
        "reader": "docent.data_models.agent_run.AgentRunWithoutMetadataValidator.model_validate",
    },
    "current": {
        "venv": VENV_ROOT / "docent-current",
        "requirements": HERE / "requirements-current.txt",
        "package": "docent==0.1.88",
        "reader": "docent.data_models.agent_run.AgentRun.model_validate",
    },
}


# --------------------------------------------------------------------------
# Driver (system Python, no third-party imports)
# --------------------------------------------------------------------------


def ensure_venv(lib: dict) -> Path:
    """The venv of one Docent generation (made once per requirements hash)."""
    return pinned_venv(lib["venv"], lib["requirements"], PYTHON)


def worker(python: Path, mode: str, gen: str, payload) -> object:
    proc = subprocess.run(
        [str(python), str(Path(__file__).resolve()), "--worker", mode, gen],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"{gen} worker ({mode}) failed")
    return json.loads(proc.stdout)


def split_runs(text: str) -> tuple[str, list[dict]]:
    """The runs of a file: (layout, [{line, value} or {line, invalid_json}])."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        runs = []
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                runs.append({"line": n, "value": json.loads(line)})
            except json.JSONDecodeError as e:
                runs.append({"line": n, "invalid_json": str(e)})
        return "jsonl", runs
    if isinstance(doc, list):
        return "json-list", [{"index": i, "value": v} for i, v in enumerate(doc)]
    return "json", [{"index": 0, "value": doc}]


def generation(value) -> str:
    """Which library is authoritative: an object `transcripts` is the older shape."""
    if isinstance(value, dict) and isinstance(value.get("transcripts"), dict):
        return "older"
    return "current"


def collect_files() -> list[tuple[str, Path]]:
    files = [(f"fixtures/docent/{p.name}", p) for p in sorted(FIXTURES.iterdir()) if p.is_file()]
    corpus_dir = CORPUS / "docent"
    if not corpus_dir.is_dir():
        raise SystemExit(f"corpus folder missing: {corpus_dir} (set ATV_CORPUS)")
    files += [(f"corpus/docent/{p.name}", p) for p in sorted(corpus_dir.iterdir()) if p.is_file()]
    return files


def main() -> None:
    pythons = {gen: ensure_venv(lib) for gen, lib in LIBS.items()}
    versions = {gen: worker(py, "version", gen, None) for gen, py in pythons.items()}

    FIXTURES.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(HERE))
    sys.dont_write_bytecode = True  # no __pycache__ in the repo
    import cases as docent_cases  # noqa: E402  (plain data, no third-party imports)

    for name, text in docent_cases.rule_fixtures().items():
        write_if_changed(FIXTURES / name, text)
    for gen, py in pythons.items():
        for name, text in worker(py, "fixtures", gen, None).items():
            write_if_changed(FIXTURES / name, text)

    golden = {
        "generator": "scripts/oracle/docent/verdicts.py",
        "libraries": {
            gen: {"package": LIBS[gen]["package"], "reader": LIBS[gen]["reader"], "pydantic": versions[gen]["pydantic"]}
            for gen in LIBS
        },
        "files": {},
    }
    golden["libraries"]["older_strict"] = {
        "package": LIBS["older"]["package"],
        "reader": "docent.data_models.agent_run.AgentRun.model_validate (rejects any JSON metadata; informational)",
        "pydantic": versions["older"]["pydantic"],
    }
    for key, path in collect_files():
        layout, runs = split_runs(path.read_text(encoding="utf-8"))
        values = [r.get("value") for r in runs]
        per_lib = {gen: worker(py, "validate", gen, values) for gen, py in pythons.items()}
        out_runs = []
        for i, r in enumerate(runs):
            entry = {k: r[k] for k in ("index", "line") if k in r}
            if "invalid_json" in r:
                entry["invalid_json"] = r["invalid_json"]
            else:
                entry["generation"] = generation(r["value"])
                entry["older"] = per_lib["older"][i]["verdict"]
                entry["older_strict"] = per_lib["older"][i]["strict"]
                entry["current"] = per_lib["current"][i]["verdict"]
            out_runs.append(entry)
        golden["files"][key] = {"layout": layout, "runs": out_runs}

    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    write_if_changed(GOLDEN, json.dumps(golden, indent=1, ensure_ascii=False) + "\n")
    total = sum(len(f["runs"]) for f in golden["files"].values())
    print(f"{len(golden['files'])} files, {total} runs -> {GOLDEN.relative_to(REPO)}")


def write_if_changed(path: Path, text: str) -> None:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(REPO)}")


# --------------------------------------------------------------------------
# Worker (inside a venv with one Docent generation installed)
# --------------------------------------------------------------------------


def summarize(exc: Exception) -> str:
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        errs = exc.errors()
        parts = [f"{'.'.join(str(x) for x in e['loc']) or '<run>'}: {e['msg']} [{e['type']}]" for e in errs[:3]]
        more = f"; … {len(errs) - 3} more" if len(errs) > 3 else ""
        return f"{len(errs)} error(s): " + "; ".join(parts) + more
    return f"{type(exc).__name__}: {exc}"


def verdict(model, value) -> dict:
    try:
        model.model_validate(value)
    except Exception as e:  # any failure is a rejection by the library
        return {"accepted": False, "error": summarize(e)}
    return {"accepted": True, "error": None}


def work(mode: str, gen: str) -> object:
    import logging

    # The current library logs a deprecation warning per object-shaped `transcripts`.
    logging.disable(logging.CRITICAL)
    import pydantic

    from docent.data_models import agent_run as ar

    if mode == "version":
        return {"pydantic": pydantic.VERSION}
    if mode == "fixtures":
        return make_fixtures(gen)
    values = json.load(sys.stdin)
    out = []
    for v in values:
        if gen == "older":
            out.append({"verdict": verdict(ar.AgentRunWithoutMetadataValidator, v), "strict": verdict(ar.AgentRun, v)})
        else:
            out.append({"verdict": verdict(ar.AgentRun, v)})
    return out


def make_fixtures(gen: str) -> dict[str, str]:
    """Runs built with the library's own classes, serialized the ways it writes them."""
    runs = older_runs() if gen == "older" else current_runs()
    prefix = f"lib_{gen}"
    return {
        # What `model_dump_json()` writes: one run per file, pretty.
        f"{prefix}_run.json": runs[0].model_dump_json(indent=2) + "\n",
        # One run per line.
        f"{prefix}_runs.jsonl": "".join(r.model_dump_json() + "\n" for r in runs),
        # A list of runs the way the SDK uploads them (`model_dump(mode="json")`;
        # the older SDK adds a rendered `text` field).
        f"{prefix}_runs_list.json": json.dumps([r.model_dump(mode="json") for r in runs], indent=2, ensure_ascii=False)
        + "\n",
    }


def older_runs() -> list:
    from docent.data_models.agent_run import AgentRun
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
    from docent.data_models.metadata import BaseAgentRunMetadata, BaseMetadata, InspectAgentRunMetadata
    from docent.data_models.transcript import Transcript

    main = Transcript(
        id="older-t-main",
        name="agent",
        description="The agent's conversation",
        messages=[
            SystemMessage(content="You are an airline agent. Use the tools."),
            UserMessage(id="m1", content="Book me a flight from JFK to SEA on May 20."),
            AssistantMessage(
                id="m2",
                model="gpt-4o-2024-08-06",
                content=[
                    ContentReasoning(reasoning="I need the user's profile first.", signature="sig-1"),
                    ContentText(text="Let me look up your profile."),
                ],
                tool_calls=[
                    ToolCall(
                        id="call_1",
                        type="function",
                        function="get_user_details",
                        arguments={"user_id": "mia_li_3668"},
                        view=ToolCallContent(title="lookup", format="markdown", content="`get_user_details(mia_li_3668)`"),
                    ),
                    ToolCall(id="call_2", type=None, function="search_direct_flight", arguments={"origin": "JFK", "destination": "SEA", "date": "2024-05-20"}),
                ],
            ),
            ToolMessage(id="m3", content='{"name": "Mia Li", "membership": "gold"}', tool_call_id="call_1", function="get_user_details"),
            ToolMessage(
                id="m4",
                content=[ContentText(text="flight search timed out")],
                tool_call_id="call_2",
                function="search_direct_flight",
                error={"type": "timeout", "message": "search took longer than 30s"},
            ),
            AssistantMessage(content="Your profile is found; the flight search failed. Shall I retry?"),
            UserMessage(content="Yes please.", tool_call_id=["call_2"]),
        ],
        metadata=BaseMetadata(turns=7, environment={"name": "tau-bench", "domain": "airline"}),
    )
    judge = Transcript(
        id="older-t-judge",
        messages=[UserMessage(content="Did the agent book the flight?"), AssistantMessage(content="No.")],
    )
    run1 = AgentRun(
        id="older-run-1",
        name="tau-bench airline task 0",
        description="Docent's older AgentRun: transcripts keyed by name",
        transcripts={"main": main, "judge": judge},
        metadata=BaseAgentRunMetadata(scores={"reward": 0.0, "passed": False, "turns": 7, "cost": None}, model="gpt-4o", task_id="0"),
    )
    run2 = AgentRun(
        id="older-run-2",
        transcripts={
            "sample": Transcript(
                id="older-t-sample",
                messages=[UserMessage(content="What is 2+2?"), AssistantMessage(content="4")],
            )
        },
        metadata=InspectAgentRunMetadata(
            scores={"match": True},
            task_id="arith",
            sample_id="s1",
            epoch_id=1,
            model="claude-3-5-sonnet",
            scoring_metadata=None,
            additional_metadata={"difficulty": "easy"},
        ),
    )
    return [run1, run2]


def current_runs() -> list:
    from datetime import datetime, timezone

    from docent.data_models.agent_run import AgentRun
    from docent.data_models.chat import (
        AssistantMessage,
        ContentReasoning,
        ContentText,
        SystemMessage,
        ToolCall,
        ToolCallContent,
        ToolMessage,
        UserMessage,
    )
    from docent.data_models.transcript import Transcript, TranscriptGroup

    t0 = datetime(2025, 3, 1, 12, 0, 0, tzinfo=timezone.utc)
    group = TranscriptGroup(
        id="current-g-1",
        name="attempts",
        description="Both attempts at the task",
        agent_run_id="current-run-1",
        created_at=t0,
        metadata={"strategy": "retry"},
    )
    attempt1 = Transcript(
        id="current-t-1",
        name="attempt 1",
        transcript_group_id="current-g-1",
        created_at=t0,
        messages=[
            SystemMessage(content="You are a coding agent.", metadata={"source": "harness"}),
            UserMessage(content="Fix the failing test in test_math.py."),
            AssistantMessage(
                id="a1",
                model="claude-sonnet-4",
                content=[
                    ContentReasoning(reasoning="Run the tests first.", summary="plan: run tests", signature="sig"),
                    ContentText(text="Running the tests."),
                ],
                tool_calls=[
                    ToolCall(
                        id="toolu_01",
                        function="bash",
                        arguments={"cmd": "pytest -q"},
                        type="function",
                        view=ToolCallContent(format="markdown", content="```bash\npytest -q\n```"),
                    )
                ],
                metadata={"usage": {"input_tokens": 812, "output_tokens": 40}},
            ),
            ToolMessage(content="1 failed, 3 passed", tool_call_id="toolu_01", function="bash"),
            AssistantMessage(
                content="Patching.",
                tool_calls=[ToolCall(id="toolu_02", function="edit", arguments={"path": "math.py", "old": "a-b", "new": "a+b"})],
            ),
            ToolMessage(
                content="permission denied",
                tool_call_id="toolu_02",
                function="edit",
                error={"type": "permission", "message": "read-only file system"},
            ),
        ],
        metadata={"attempt": 1, "outcome": "error"},
    )
    attempt2 = Transcript(
        id="current-t-2",
        name="attempt 2",
        transcript_group_id="current-g-1",
        created_at=datetime(2025, 3, 1, 12, 5, 0, tzinfo=timezone.utc),
        messages=[UserMessage(content="Try again."), AssistantMessage(content="Done: 4 passed.")],
        metadata={"attempt": 2, "outcome": "pass"},
    )
    run1 = AgentRun(
        id="current-run-1",
        name="fix failing test",
        description="Docent's current AgentRun: a list of transcripts with groups",
        transcripts=[attempt1, attempt2],
        transcript_groups=[group],
        metadata={"scores": {"resolved": True}, "model": "claude-sonnet-4", "tags": ["swe", "python"]},
    )
    run2 = AgentRun(
        id="current-run-2",
        transcripts=[Transcript(id="current-t-3", messages=[UserMessage(content="ping"), AssistantMessage(content="pong")])],
    )
    return [run1, run2]


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        json.dump(work(sys.argv[2], sys.argv[3]), sys.stdout)
    else:
        main()
