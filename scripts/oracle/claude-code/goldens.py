#!/usr/bin/env python3
"""Goldens for the claude-code format, from its two references.

- Docent 0.1.88 (PyPI `docent==0.1.88`, pinned with its pydantic in
  requirements.txt next to this script): `load_claude_code_session(records)`
  then `AgentRunView.from_agent_run(run).to_text()` under the default context
  config, for every session file. The loader sets sidechain records aside; a
  sub-agent file's golden is the loader applied to its records with
  `isSidechain` removed (read as a conversation of its own), which is the
  mapping the viewer uses for sub-agent runs.
- ccusage 18.0.11 (npm, package.json next to this script):
  `ccusage session --json --offline` over a throwaway CLAUDE_CONFIG_DIR: each
  file alone (its own project folder, so one ccusage "session" per file), and
  the files of a case laid out together as Claude Code writes them (totals
  over all of them); and the same with `--mode display`, whose cost is the
  sum of the counted records' own `costUSD` (what the viewer's cost is).

Writes tests/golden/claude-code/<case>.json (the manifest of one case: its
files in the order the viewer reads them, the Docent text file of each, the
loader's run metadata, ccusage's totals per file and combined) and
<case>.<n>.current.txt (Docent's text of file n). Rewrites only changed files.

Usage: python3 scripts/oracle/claude-code/goldens.py
  (ATV_VENVS: where the venv goes, default /work/venvs; ATV_PYTHON: python3.11;
   ATV_CORPUS: the shared corpus, default ../shared/corpus from the repo;
   the fixtures come from scripts/oracle/claude-code/make_fixtures.py, but
   fixtures/cost/, written by hand: older records with `costUSD`)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # appended: folders here are named like the packages they check
from pinned_venv import pinned_venv  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
GOLDEN = REPO / "tests" / "golden" / "claude-code"
FIXTURES = REPO / "tests" / "fixtures" / "claude-code"
CORPUS = Path(os.environ.get("ATV_CORPUS", REPO.parent / "shared" / "corpus")) / "claude-code"
VENV = Path(os.environ.get("ATV_VENVS", "/work/venvs")) / "claude-code-oracle"
NPM_DIR = Path(os.environ.get("ATV_VENVS", "/work/venvs")) / "claude-code-ccusage"
PYTHON = os.environ.get("ATV_PYTHON", "python3.11")

S = "11111111-2222-4333-8444-555555555555"
S2 = "66666666-7777-4888-8999-aaaaaaaaaaaa"
S3 = "77777777-8888-4999-8aaa-bbbbbbbbbbbb"
C = "marot__spotter__test__fixtures__transcripts__"
BIG = "4d5611e5-241a-462a-8d15-5122611a9569"

# (case, [(path, kind, ccusage layout path)]): the main session first, then
# its sub-agents by name. Paths under "fixtures/" or "corpus/".
CASES = [
    ("session", [
        (f"fixtures/session/{S}.jsonl", "main", f"proj/{S}.jsonl"),
        (f"fixtures/session/{S}/subagents/agent-b1f2c3d.jsonl", "subagent", f"proj/{S}/subagents/agent-b1f2c3d.jsonl"),
    ]),
    ("older", [
        (f"fixtures/older/{S2}.jsonl", "main", f"proj/{S2}.jsonl"),
        ("fixtures/older/agent-c9d8e7f.jsonl", "subagent", "proj/agent-c9d8e7f.jsonl"),
    ]),
    ("corpus-big", [
        (f"corpus/{C}{BIG}.jsonl", "main", f"proj/{BIG}.jsonl"),
        (f"corpus/{C}{BIG}__subagents__agent-a2898e3.jsonl", "subagent", f"proj/{BIG}/subagents/agent-a2898e3.jsonl"),
        (f"corpus/{C}{BIG}__subagents__agent-acompact-e1f845.jsonl", "subagent", f"proj/{BIG}/subagents/agent-acompact-e1f845.jsonl"),
    ]),
    ("cost", [(f"fixtures/cost/{S3}.jsonl", "main", f"proj/{S3}.jsonl")]),
    ("corpus-short", [(f"corpus/{C}short.jsonl", "main", "proj/short.jsonl")]),
    ("corpus-subagent", [(f"corpus/{C}subagent.jsonl", "main", "proj/subagent.jsonl")]),
    ("corpus-tool-heavy", [(f"corpus/{C}tool_heavy.jsonl", "main", "proj/tool_heavy.jsonl")]),
]


def resolve(p: str) -> Path:
    root, rest = p.split("/", 1)
    return (FIXTURES if root == "fixtures" else CORPUS) / rest


def ensure_venv() -> Path:
    return pinned_venv(VENV, HERE / "requirements.txt", PYTHON)


def ensure_ccusage() -> Path:
    bin_ = NPM_DIR / "node_modules" / ".bin" / "ccusage"
    pkg = (HERE / "package.json").read_bytes()
    if not (bin_.exists() and (NPM_DIR / "package.json").read_bytes() == pkg):
        NPM_DIR.mkdir(parents=True, exist_ok=True)
        (NPM_DIR / "package.json").write_bytes(pkg)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-package-lock"], cwd=NPM_DIR, check=True)
    return bin_


WORKER = r"""
import json, sys
from docent.loaders.load_claude_code import load_claude_code_session
from docent.data_models.agent_run import AgentRunView
out = {}
for path, kind in json.load(sys.stdin):
    records = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    if kind == "subagent":
        for r in records:
            r.pop("isSidechain", None)
    run = load_claude_code_session(records)
    out[path] = {"text": AgentRunView.from_agent_run(run).to_text(), "metadata": run.metadata}
json.dump(out, sys.stdout)
"""


def docent_texts(python: Path, files: list[tuple[str, str]]) -> dict:
    r = subprocess.run([str(python), "-c", WORKER], input=json.dumps(files), capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def ccusage_sessions(bin_: Path, layout: list[tuple[Path, str]], *mode: str) -> list:
    with tempfile.TemporaryDirectory() as d:
        for src, rel in layout:
            dst = Path(d) / "projects" / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        env = {**os.environ, "CLAUDE_CONFIG_DIR": d, "TZ": "UTC"}
        r = subprocess.run([str(bin_), "session", "--json", "--offline", *mode], capture_output=True, text=True, check=True, env=env)
    return json.loads(r.stdout).get("sessions", [])


def ccusage_cost(bin_: Path, layout: list[tuple[Path, str]]) -> dict:
    """What ccusage reports as cost in `--mode display`: the sum of the counted
    records' own `costUSD` (0 for a record without one), in all and per model."""
    total, by_model = 0.0, {}
    for s in ccusage_sessions(bin_, layout, "--mode", "display"):
        total += s["totalCost"]
        for m in s.get("modelBreakdowns", []):
            by_model[m["modelName"]] = by_model.get(m["modelName"], 0.0) + m["cost"]
    return {"total": total, "byModel": dict(sorted(by_model.items()))}


def ccusage(bin_: Path, layout: list[tuple[Path, str]]) -> dict:
    sessions = ccusage_sessions(bin_, layout)
    total = {"input": 0, "output": 0, "cacheCreation": 0, "cacheRead": 0, "total": 0}
    by_model: dict[str, dict] = {}
    for s in sessions:
        for k, src in [("input", "inputTokens"), ("output", "outputTokens"), ("cacheCreation", "cacheCreationTokens"), ("cacheRead", "cacheReadTokens"), ("total", "totalTokens")]:
            total[k] += s[src]
        for m in s.get("modelBreakdowns", []):
            b = by_model.setdefault(m["modelName"], {"input": 0, "output": 0, "cacheCreation": 0, "cacheRead": 0})
            for k, src in [("input", "inputTokens"), ("output", "outputTokens"), ("cacheCreation", "cacheCreationTokens"), ("cacheRead", "cacheReadTokens")]:
                b[k] += m[src]
    return {"total": total, "byModel": dict(sorted(by_model.items()))}


def write_if_changed(path: Path, text: str) -> None:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print("wrote", path.relative_to(REPO))


def main() -> None:
    python = ensure_venv()
    ccu = ensure_ccusage()
    versions = subprocess.run([str(python), "-c", "import importlib.metadata as m; print(m.version('docent'))"], capture_output=True, text=True, check=True).stdout.strip()
    ccu_version = subprocess.run([str(ccu), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    for case, files in CASES:
        texts = docent_texts(python, [(str(resolve(p)), kind) for p, kind, _ in files])
        entries = []
        for n, (p, kind, rel) in enumerate(files):
            got = texts[str(resolve(p))]
            write_if_changed(GOLDEN / f"{case}.{n}.current.txt", got["text"])
            entries.append({"path": p, "kind": kind, "text": f"{case}.{n}.current.txt", "metadata": got["metadata"],
                            "ccusage": ccusage(ccu, [(resolve(p), f"f{n}/" + rel.rsplit('/', 1)[-1])]),
                            "ccusage_cost": ccusage_cost(ccu, [(resolve(p), f"f{n}/" + rel.rsplit('/', 1)[-1])])})
        manifest = {
            "references": {"docent": versions, "ccusage": ccu_version,
                           "text": "AgentRunView.from_agent_run(load_claude_code_session(records)).to_text()",
                           "usage": "ccusage session --json --offline",
                           "cost": "ccusage session --json --offline --mode display"},
            "files": entries,
            "ccusage_combined": ccusage(ccu, [(resolve(p), rel) for p, _, rel in files]),
            "ccusage_cost_combined": ccusage_cost(ccu, [(resolve(p), rel) for p, _, rel in files]),
        }
        write_if_changed(GOLDEN / f"{case}.json", json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    sys.exit(main())
