"""The oracle scripts' Python environments: a venv with one requirements file
installed exactly, made once per requirements hash.

Every requirements file here pins every package (the transitive ones too), so
pip installs with --no-deps: what runs is what the file says, not what a
resolver picks today. A stamp in the venv holds the hash of the file it was
made from; a changed file reinstalls.

Import it from a script one folder down:

    sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from pinned_venv import pinned_venv, run_inside
"""

import hashlib
import os
import subprocess
import sys
from pathlib import Path

STAMP = ".atv-requirements.sha256"


def pinned_venv(venv, requirements, python=None) -> Path:
    """Makes (or reuses) `venv` with `requirements` installed; returns its Python.

    `python` is the interpreter the venv is made from (default: this one)."""
    venv, requirements = Path(venv), Path(requirements)
    py = venv / "bin" / "python"
    digest = hashlib.sha256(requirements.read_bytes()).hexdigest()
    stamp = venv / STAMP
    if py.exists() and stamp.exists() and stamp.read_text().strip() == digest:
        return py
    if not py.exists():
        print(f"creating venv {venv}", file=sys.stderr)
        subprocess.run([python or sys.executable, "-m", "venv", str(venv)], check=True)
    print(f"installing {requirements} into {venv}", file=sys.stderr)
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", "-r", str(requirements)], check=True)
    stamp.write_text(digest + "\n")
    return py


def run_inside(venv, requirements, script, python=None, env=None) -> None:
    """Re-executes `script` (with this process's arguments) inside the pinned
    venv; returns at once when this process already runs there."""
    if Path(sys.prefix).resolve() == Path(venv).resolve():
        return
    py = pinned_venv(venv, requirements, python)
    argv = [str(py), str(Path(script).resolve()), *sys.argv[1:]]
    os.execve(str(py), argv, dict(os.environ) if env is None else env)
