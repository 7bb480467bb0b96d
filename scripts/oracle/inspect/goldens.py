#!/usr/bin/env python3
"""Goldens for the inspect format, from its two references.

- inspect_ai 0.3.285 (PyPI, pinned with its dependencies in requirements.txt
  next to this script): `read_eval_log(path)`, the verdict (it reads, or it
  raises: the exception's type), the log's status, and per sample in the
  order it returns them: id, epoch, the roles of its messages, the types of
  its events, its score values.
- docent 0.1.88: `docent.loaders.load_inspect.load_inspect_log(log)` applied
  to the log with one sample at a time (so a sample the loader refuses does
  not hide the others), then `AgentRunView.from_agent_run(run).to_text()`
  under the default context config: <case>.<n>.current.txt, or `null` in the
  manifest with the loader's error.

The cases: every file of tests/fixtures/inspect/ (the hand-made ones come
from make_fixtures.py; generated.eval and generated.json are written here by
inspect_ai itself, once: a task with the mock model `mockllm/model`, an
`add` tool, two samples, two epochs and a `match` scorer; unfinished.eval is
generated.eval as a crashed run leaves it: no header, summaries or
reductions, epoch 1 only, deflated) and every file of the shared corpus
folder inspect/.

Writes tests/golden/inspect/<case>.json and <case>.<n>.current.txt; rewrites
only changed files.

Usage: python3 scripts/oracle/inspect/goldens.py
  (ATV_VENVS: where the venv goes, default /work/venvs (venv inspect-oracle);
   ATV_PYTHON: python3.11; ATV_CORPUS: the shared corpus, default
   ../shared/corpus from the repo)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
GOLDEN = REPO / "tests" / "golden" / "inspect"
FIXTURES = REPO / "tests" / "fixtures" / "inspect"
CORPUS = Path(os.environ.get("ATV_CORPUS", REPO.parent / "shared" / "corpus")) / "inspect"
VENV = Path(os.environ.get("ATV_VENVS", "/work/venvs")) / "inspect-oracle"
PYTHON = os.environ.get("ATV_PYTHON", "python3.11")


def ensure_venv() -> Path:
    python = VENV / "bin" / "python"
    req = HERE / "requirements.txt"
    stamp = VENV / ".requirements"
    if stamp.is_file() and stamp.read_text() == req.read_text():
        return python
    if not python.exists():
        subprocess.run([PYTHON, "-m", "venv", str(VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "-r", str(req)], check=True)
    stamp.write_text(req.read_text())
    return python


# Runs inside the venv: generates the inspect_ai fixtures when missing, then
# prints one JSON object per case.
WORKER = r'''
import json, shutil, sys, tempfile, traceback
from pathlib import Path

args = json.loads(sys.stdin.read())
fixtures = Path(args["fixtures"])

def generate():
    from inspect_ai import Task, eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, get_model
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate as gen, use_tools, system_message
    from inspect_ai.tool import ToolError, tool
    import inspect_ai.model._model as model_module

    # The mock model counts tokens with tiktoken's o200k_base, which tiktoken
    # downloads on first use: offline, a word count stands in.
    model_module.count_text_tokens = lambda text: max(1, len(text.split()))

    @tool
    def add():
        async def execute(x: int, y: int):
            """Add two numbers.

            Args:
              x: First number.
              y: Second number.
            """
            if x < 0:
                raise ToolError("negative numbers are not supported")
            return x + y
        return execute

    def outputs():
        # Per sample run: a tool call, then the answer (the `generate` loop
        # calls the model until it stops calling tools).
        plan = [((1, 2), "3"), ((-5, 2), "I could not add them."), ((1, 2), "3"), ((20, 22), "42")]
        while True:
            for (x, y), answer in plan:
                yield ModelOutput.for_tool_call("mockllm/model", "add", {"x": x, "y": y})
                yield ModelOutput.from_content("mockllm/model", answer)

    task = Task(
        dataset=[Sample(id=1, input="What is 1 + 2?", target="3"), Sample(id="neg", input="What is -5 + 2?", target="-3")],
        solver=[system_message("Use the add tool."), use_tools(add()), gen()],
        scorer=match(),
        epochs=2,
    )
    for fmt in ["eval", "json"]:
        out = fixtures / f"generated.{fmt}"
        if out.exists():
            continue
        with tempfile.TemporaryDirectory() as d:
            model = get_model("mockllm/model", custom_outputs=outputs())
            inspect_eval(task, model=model, log_dir=d, log_format=fmt, display="none", max_samples=1)
            files = [p for p in Path(d).iterdir() if p.suffix == "." + fmt]
            shutil.copy(files[0], out)

generate()

def generate_condensed():
    """condensed.json: inspect_ai's own JSON writer, which condenses each
    sample (`condense_sample`): model events keep `input: []` and
    `input_refs` ranges into `events_data.messages`, and their `call`
    `call_refs` into `events_data.calls`. A longer conversation (three tool
    calls before the answer) so later calls share the pool's prefix.
    condensed-bad-refs.json: the same log with refs past the pools' ends
    (inspect_ai's expansion slices them silently)."""
    out = fixtures / "condensed.json"
    if not out.exists():
        from inspect_ai import Task, eval as inspect_eval
        from inspect_ai.dataset import Sample
        from inspect_ai.model import ModelOutput, get_model
        from inspect_ai.scorer import match
        from inspect_ai.solver import generate as gen, use_tools, system_message
        from inspect_ai.tool import tool
        import inspect_ai.model._model as model_module
        model_module.count_text_tokens = lambda text: max(1, len(text.split()))

        @tool
        def add():
            async def execute(x: int, y: int):
                """Add two numbers.

                Args:
                  x: First number.
                  y: Second number.
                """
                return x + y
            return execute

        def outputs():
            for x, y in [(1, 2), (3, 4), (5, 6)]:
                yield ModelOutput.for_tool_call("mockllm/model", "add", {"x": x, "y": y})
            yield ModelOutput.from_content("mockllm/model", "21")

        task = Task(
            dataset=[Sample(id="sum", input="Add 1+2, 3+4 and 5+6, then total them.", target="21")],
            solver=[system_message("Use the add tool."), use_tools(add()), gen()],
            scorer=match(),
        )
        with tempfile.TemporaryDirectory() as d:
            model = get_model("mockllm/model", custom_outputs=outputs())
            inspect_eval(task, model=model, log_dir=d, log_format="json", display="none")
            shutil.copy(next(Path(d).glob("*.json")), out)
    bad = fixtures / "condensed-bad-refs.json"
    if not bad.exists():
        log = json.loads(out.read_text())
        models = [e for e in log["samples"][0]["events"] if e["event"] == "model"]
        pool = len(log["samples"][0]["events_data"]["messages"])
        calls = len(log["samples"][0]["events_data"]["calls"])
        models[-1]["input_refs"].append([pool - 1, pool + 3])
        models[-2]["call"]["call_refs"].append([calls + 1, calls + 2])
        bad.write_text(json.dumps(log, indent=2))

generate_condensed()

# An unfinished log (its eval crashed before the end): the generated `.eval`
# without `header.json`, `summaries.json` and `reductions.json`, its members
# deflated (the generated one is zstd), and only epoch 1's samples.
unfinished = fixtures / "unfinished.eval"
if not unfinished.exists():
    import zipfile
    import inspect_ai._util.zipfile  # registers zstd with zipfile
    with zipfile.ZipFile(fixtures / "generated.eval") as zin, zipfile.ZipFile(unfinished, "w", zipfile.ZIP_DEFLATED) as zout:
        for name in zin.namelist():
            if name in ("header.json", "summaries.json", "reductions.json") or name.endswith("_epoch_2.json"):
                continue
            zout.writestr(name, zin.read(name))

from inspect_ai.log import read_eval_log
from docent.loaders.load_inspect import load_inspect_log
from docent.data_models.agent_run import AgentRunView

def score_values(s):
    return {k: v.value for k, v in (s.scores or {}).items()}

for case in args["cases"]:
    result = {"case": case["name"], "source": case["source"]}
    try:
        log = read_eval_log(case["path"])
    except Exception as e:
        result["reads"] = False
        result["error"] = type(e).__name__
        result["message"] = str(e).splitlines()[:3]
        print(json.dumps(result))
        continue
    result["reads"] = True
    result["status"] = log.status
    samples = log.samples or []
    result["samples"] = [
        {
            "id": s.id,
            "epoch": s.epoch,
            "roles": [m.role for m in s.messages],
            "event_types": [e.event for e in s.events],
            "scores": score_values(s),
            "error": s.error.message if s.error else None,
            "limit": s.limit.type if s.limit else None,
        }
        for s in samples
    ]
    texts = []
    for s in samples:
        try:
            runs = load_inspect_log(log.model_copy(update={"samples": [s]}))
            texts.append({"text": AgentRunView.from_agent_run(runs[0]).to_text()})
        except Exception as e:
            texts.append({"text": None, "error": type(e).__name__})
    result["docent"] = texts
    if case["source"].startswith("fixtures/"):
        # inspect_ai's expansion of condensed model events (`events_data`
        # pools, resolved by read_eval_log): each model event's input
        # messages and its call's request, as inspect_ai serialises them.
        result["model_inputs"] = [
            [
                {
                    "input": [m.model_dump(mode="json", exclude_none=True) for m in e.input],
                    "call_request": e.call.request if e.call else None,
                }
                for e in s.events
                if e.event == "model"
            ]
            for s in samples
        ]
    print(json.dumps(result, default=str))
'''


def write(path: Path, text: str) -> None:
    if not path.exists() or path.read_bytes() != text.encode():
        path.write_bytes(text.encode())
        print(f"wrote {path.relative_to(REPO)}")


def main() -> None:
    python = ensure_venv()
    FIXTURES.mkdir(parents=True, exist_ok=True)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(python), str(HERE / "make_fixtures.py")], check=True)
    # The generated fixtures first (the worker writes them), then every case.
    cases = []
    names = sorted({p.name for p in FIXTURES.iterdir() if p.is_file()} | {"generated.eval", "generated.json", "unfinished.eval", "condensed.json", "condensed-bad-refs.json"})
    for name in names:
        cases.append({"name": "fixture-" + Path(name).stem + "-" + Path(name).suffix.lstrip("."), "path": str(FIXTURES / name), "source": "fixtures/" + name})
    for p in sorted(CORPUS.iterdir()) if CORPUS.is_dir() else []:
        short = p.name.split("__")[-1]
        cases.append({"name": "corpus-" + Path(short).stem + "-" + p.suffix.lstrip("."), "path": str(p), "source": "corpus/" + p.name})
    r = subprocess.run([str(python), "-c", WORKER], input=json.dumps({"fixtures": str(FIXTURES), "cases": cases}), capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stderr)
        sys.exit(r.returncode)
    for line in r.stdout.splitlines():
        if not line.startswith("{"):
            continue
        result = json.loads(line)
        name = result.pop("case")
        for n, t in enumerate(result.get("docent", [])):
            if t["text"] is not None:
                write(GOLDEN / f"{name}.{n}.current.txt", t.pop("text"))
                t["file"] = f"{name}.{n}.current.txt"
            else:
                t.pop("text")
        write(GOLDEN / f"{name}.json", json.dumps(result, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
