#!/usr/bin/env python3
"""Times docent 0.1.88's current AgentRun text of one run, for the benchmark kit.

    python3 scripts/bench/docent_text.py RUN.json

RUN.json is an AgentRun as Docent ingests it (the kit writes it with
`trace.toAgentRun`). Re-runs itself inside the pinned venv of the AgentRun
text oracle (scripts/oracle/agentrun-text/requirements-current.txt; venv
$ATV_VENVS/agentrun-current, /work/venvs by default), validates the run with
`AgentRun.model_validate_json` (not timed), then times
`AgentRunView.from_agent_run(run).to_text()` once, as a first call, the way
scripts/bench/agentrun-docent.mjs times ours. Prints one JSON line:
{"ms", "chars", "sha256"} (sha256 of the text's UTF-8; chars in code points,
not the UTF-16 units JavaScript counts).
"""

import hashlib
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.append(str(HERE.parent / "oracle"))
from pinned_venv import run_inside  # noqa: E402

VENV = Path(os.environ.get("ATV_VENVS", "/work/venvs")) / "agentrun-current"
run_inside(VENV, HERE.parent / "oracle" / "agentrun-text" / "requirements-current.txt", __file__)

from docent.data_models.agent_run import AgentRun, AgentRunView  # noqa: E402

run = AgentRun.model_validate_json(Path(sys.argv[1]).read_bytes())
start = time.perf_counter()
text = AgentRunView.from_agent_run(run).to_text()
ms = (time.perf_counter() - start) * 1000
print(json.dumps({"ms": ms, "chars": len(text), "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}))
