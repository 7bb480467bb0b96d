#!/usr/bin/env python3
"""Golden files and fixtures for the `openhands` format, from the real OpenHands SDK.

Reference library: PyPI `openhands-sdk==1.58.2` plus `openhands-tools==1.58.2`
(the tool classes register the action/observation kinds that real
conversations use: TerminalAction, FileEditorObservation, ...). Pinned in
requirements.txt beside this script.

What it writes (all derived from the SDK, never from our Rust output):

* tests/fixtures/openhands/  realistic fixtures built with the SDK's own event
  classes and dumped with model_dump_json (every event class, a Condensation
  with summary + offset, parallel tool calls from one llm_response_id, an
  AgentErrorEvent, a UserRejectObservation), a conversation folder in the
  SDK's `events/event-NNNNN-<id>.json` layout, an eval-output JSONL with
  `history` rows, and events the SDK rejects (mutated dumps).
* src/import/openhands/schema.json  the SDK's models as a table (fields,
  types, defaults, extra policy, discriminated-union kinds) that the Rust
  validator interprets, so both sides agree on every field.
* tests/golden/openhands/*.json  for every fixture and every SDK-era corpus
  file: per event the SDK's verdict (`Event.model_validate_json`, accepted +
  errors), whether the event can take part in views, the condensed view of
  `View.from_events` (Condensation.apply + property enforcement), and the
  LLM message stream of `LLMConvertibleEvent.events_to_messages`.

Usage: python3 scripts/oracle/openhands/goldens.py  (any Python; it creates
its own venv with Python 3.12 at $ATV_OH_VENV or /work/venvs/openhands-oracle
and re-runs itself there). The corpus root is $ATV_CORPUS or ../shared/corpus.
Rerunnable: outputs are deterministic (fixed ids and timestamps).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # appended: folders here are named like the packages they check
from pinned_venv import pinned_venv  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
REQUIREMENTS = HERE / "requirements.txt"
VENV = Path(os.environ.get("ATV_OH_VENV", "/work/venvs/openhands-oracle"))
PYTHON312 = os.environ.get("ATV_PYTHON312", "/root/.pyenv/versions/3.12.1/bin/python3.12")
SDK_VERSION = "1.58.2"


def ensure_venv() -> None:
    """Creates the venv (once per requirements hash) and re-executes inside it."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        if os.environ.get("PYTHONHASHSEED") != "0":
            # Sets (Condensation.forgotten_event_ids) dump in hash order: fix it for stable outputs.
            os.execve(sys.executable, [sys.executable, *sys.argv], dict(os.environ, PYTHONHASHSEED="0"))
        return
    # The requirements pin the whole tree (installed --no-deps: the SDK pins a certifi newer than any release).
    py = pinned_venv(VENV, REQUIREMENTS, PYTHON312)
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True", OPENHANDS_SUPPRESS_BANNER="1", PYTHONHASHSEED="0")
    os.execve(str(py), [str(py), str(Path(__file__).resolve()), *sys.argv[1:]], env)


ensure_venv()

# --- inside the venv from here on -------------------------------------------------

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("OPENHANDS_SUPPRESS_BANNER", "1")

from sdk import *  # noqa: E402,F401,F403
from sdk import _is_abstract, enum, importlib, logging, types, typing, uuid, AbcSequence  # noqa: E402,F401
from stream import build_stream, dump, tc, text, uid  # noqa: E402,F401

FIXTURES = REPO / "tests" / "fixtures" / "openhands"
GOLDEN = REPO / "tests" / "golden" / "openhands"
SCHEMA_OUT = REPO / "src" / "import" / "openhands" / "schema.json"
CORPUS = Path(os.environ.get("ATV_CORPUS", REPO.parent / "shared" / "corpus")) / "openhands"
POLY_BASES = {"Event": Event, "Action": Action, "Observation": Observation, "ToolDefinition": ToolDefinition}


# =============================================================================
# 1. The SDK's models as a table for the Rust validator
# =============================================================================


class SchemaTable:
    def __init__(self) -> None:
        self.models: dict[str, dict] = {}
        self.pending: list[type[BaseModel]] = []

    def model_ref(self, cls: type[BaseModel]) -> dict:
        if cls.__name__ not in self.models and cls not in self.pending:
            self.pending.append(cls)
        return {"model": cls.__name__}

    def type_of(self, tp) -> object:
        """Our type descriptor for a Python annotation (see openhands_schema.rs)."""
        origin = typing.get_origin(tp)
        args = typing.get_args(tp)
        if tp is typing.Any or tp is object:
            return "any"
        if tp is type(None):
            return "null"
        if tp is str:
            return "str"
        if tp is bool:
            return "bool"
        if tp is int:
            return "int"
        if tp is float:
            return "float"
        if origin is typing.Annotated:
            inner = self.type_of(args[0])
            cons = constraints(args[1:])
            return {"constrained": inner, **cons} if cons else inner
        if origin is typing.Literal:
            return {"literal": [a.value if isinstance(a, enum.Enum) else a for a in args]}
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return {"literal": [m.value for m in tp]}
        if origin in (typing.Union, types.UnionType):
            return {"union": [self.type_of(a) for a in args]}
        if origin in (list, set, frozenset, AbcSequence, typing.Sequence) or tp in (list, set):
            return {"list": self.type_of(args[0]) if args else "any"}
        if origin is tuple:
            return {"list": "any"}
        if origin is dict or tp is dict:
            return {"dict": self.type_of(args[1]) if len(args) == 2 else "any"}
        if origin is type:
            base = args[0]
            return {"kind_of": base.__name__}
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            for name, base in POLY_BASES.items():
                if tp is base:
                    return {"poly": name}
            if issubclass(tp, DiscriminatedUnionMixin) and _is_abstract(tp):
                return {"poly": tp.__name__}
            return self.model_ref(tp)
        if isinstance(tp, typing.TypeVar):
            return "any"
        if isinstance(tp, type) and tp.__module__ in ("pathlib", "datetime"):
            return "str"
        return "any"

    def add(self, cls: type[BaseModel]) -> None:
        fields = []
        for name, f in cls.model_fields.items():
            f: FieldInfo
            if f.exclude is True:
                continue
            entry: dict = {"name": name, "type": self.type_of(f.annotation), "required": f.is_required()}
            if f.alias and f.alias != name:
                entry["alias"] = f.alias
            cons = constraints(f.metadata)
            if cons:
                entry["constraints"] = cons
            if not f.is_required():
                if f.default_factory is not None and f.default_factory not in (list, dict, set):
                    # uuid4 / now(): informative only, and must not make the table change per run.
                    entry["default_factory"] = True
                else:
                    default = f.default_factory() if f.default_factory is not None else f.default
                    try:
                        entry["default"] = json.loads(json.dumps(default, default=_json_default))
                    except (TypeError, ValueError):
                        entry["default"] = None
            fields.append(entry)
        extra = cls.model_config.get("extra") or "ignore"
        model = {"extra": extra, "fields": fields}
        deprecated = getattr(cls, "_DEPRECATED_FIELDS", None)
        if isinstance(deprecated, tuple) and deprecated:
            model["deprecated"] = list(deprecated)
        if issubclass(cls, DiscriminatedUnionMixin):
            model["discriminated"] = True
        if cls is Message:
            model["coerce_content"] = True
        self.models[cls.__name__] = model

    def drain(self) -> None:
        while self.pending:
            cls = self.pending.pop(0)
            if cls.__name__ not in self.models:
                self.add(cls)


def _json_default(v):
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    if isinstance(v, BaseModel):
        return v.model_dump(mode="json")
    raise TypeError(type(v))


def constraints(metadata) -> dict:
    out = {}
    for m in metadata:
        for key in ("ge", "gt", "le", "lt", "min_length", "max_length"):
            val = getattr(m, key, None)
            if val is not None and isinstance(val, (int, float)):
                out[key] = val
        if isinstance(m, annotated_types.Interval):
            for key in ("ge", "gt", "le", "lt"):
                val = getattr(m, key, None)
                if val is not None:
                    out[key] = val
    return out


def build_schema() -> dict:
    table = SchemaTable()
    unions = {}
    for name, base in POLY_BASES.items():
        kinds = []
        for sub in get_known_concrete_subclasses(base):
            kinds.append(sub.__name__)
            table.model_ref(sub)
        unions[name] = sorted(set(kinds))
    table.drain()
    llm_convertible = sorted(c.__name__ for c in get_known_concrete_subclasses(LLMConvertibleEvent))
    return {
        "generator": "scripts/oracle/openhands/goldens.py",
        "reference": f"openhands-sdk=={SDK_VERSION} + openhands-tools=={SDK_VERSION}",
        "unions": unions,
        "llm_convertible": llm_convertible,
        "models": dict(sorted(table.models.items())),
    }


# =============================================================================
# 2. Fixtures built with the SDK's own classes
# =============================================================================


def mutated_events(stream: list[dict]) -> list[tuple[str, object]]:
    """Events the SDK rejects (or accepts with a twist), each a variation of a valid dump."""
    by_kind: dict[str, dict] = {}
    for d in stream:
        by_kind.setdefault(d["kind"], d)
    act, obs, msg = by_kind["ActionEvent"], by_kind["ObservationEvent"], by_kind["MessageEvent"]
    cond = by_kind["Condensation"]
    out: list[tuple[str, object]] = []

    def variant(name: str, base: dict, **changes) -> None:
        d = json.loads(json.dumps(base))
        d["id"] = uid("mut-" + name)
        for k, v in changes.items():
            if v is _DROP:
                d.pop(k, None)
            else:
                d[k] = v
        out.append((name, d))

    variant("action-missing-tool-name", act, tool_name=_DROP)
    variant("action-tool-call-id-int", act, tool_call_id=17)
    variant("action-extra-field", act, confidence=0.9)
    variant("action-bad-risk", act, security_risk="EXTREME")
    variant("action-unknown-action-kind", act, action={"kind": "ExecuteBashAction", "command": "ls"})
    variant("action-action-extra", act, action={**act["action"], "cwd": "/tmp"})
    variant("action-thought-string", act, thought="just a string")
    variant("action-tool-call-missing-origin", act, tool_call={k: v for k, v in act["tool_call"].items() if k != "origin"})
    variant("action-null-action", act, action=None)
    variant("observation-old-output-field", obs, observation={**obs["observation"], "output": "old style"})
    variant("observation-content-string", obs, observation={**obs["observation"], "content": "plain"})
    variant("observation-missing-action-id", obs, action_id=_DROP)
    variant("message-bad-role", msg, llm_message={**msg["llm_message"], "role": "robot"})
    variant("message-content-string", msg, llm_message={**msg["llm_message"], "content": "a plain string is coerced"})
    variant("message-content-null", msg, llm_message={**msg["llm_message"], "content": None})
    variant("message-deprecated-flags", msg, llm_message={**msg["llm_message"], "cache_enabled": True, "vision_enabled": False})
    variant("message-text-enable-truncation", msg,
            llm_message={**msg["llm_message"], "content": [{"type": "text", "text": "hi", "enable_truncation": True}]})
    variant("message-text-extra", msg,
            llm_message={**msg["llm_message"], "content": [{"type": "text", "text": "hi", "bold": True}]})
    variant("message-missing-source", msg, source=_DROP)
    variant("message-bad-source", msg, source="system")
    variant("message-llm-extra-ignored", msg, llm_message={**msg["llm_message"], "whatever": 1})
    variant("condensation-negative-offset", cond, summary_offset=-1)
    variant("condensation-offset-float", cond, summary_offset=1.0)
    variant("condensation-offset-string", cond, summary_offset="1")
    variant("condensation-ids-string", cond, forgotten_event_ids="abc")
    variant("condensation-missing-response-id", cond, llm_response_id=_DROP)
    variant("event-unknown-kind", {"id": "x", "timestamp": "2026-03-01T10:00:00", "source": "agent", "kind": "SystemPromptUpdateEvent", "text": "new prompt"})
    variant("event-missing-kind", {k: v for k, v in msg.items() if k != "kind"})
    variant("event-reserved-id", msg)
    out[-1][1]["id"] = "__root__"
    variant("event-timestamp-int", msg, timestamp=1700000000)
    variant("event-parent-id", msg, parent_id=uid("user-1"))
    variant("state-update-any-value", by_kind["ConversationStateUpdateEvent"], value=[1, {"a": None}])
    variant("token-float-ids", by_kind["TokenEvent"], prompt_token_ids=[1.0, 2.5])
    variant("token-string-ids", by_kind["TokenEvent"], response_token_ids=["3", "4"])
    variant("pause-extra", by_kind["PauseEvent"], reason="user asked")
    variant("agent-error-missing-error", by_kind["AgentErrorEvent"], error=_DROP)
    variant("reject-bad-source", by_kind["UserRejectObservation"], rejection_source="robot")
    variant("system-prompt-unknown-tool-kind", by_kind["SystemPromptEvent"],
            tools=[{**by_kind["SystemPromptEvent"]["tools"][0], "kind": "MysteryTool"}])
    variant("system-prompt-unknown-action-type", by_kind["SystemPromptEvent"],
            tools=[{**by_kind["SystemPromptEvent"]["tools"][0], "action_type": "MysteryAction"}])
    variant("llm-log-missing-filename", by_kind["LLMCompletionLogEvent"], filename=_DROP)
    out.append(("event-not-object", ["not", "an", "event"]))
    return out


class _Drop:
    pass


_DROP = _Drop()


def write_fixtures() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    stream = [dump(e) for e in build_stream()]
    (FIXTURES / "sdk_stream.json").write_text(json.dumps(stream, indent=2, ensure_ascii=False) + "\n")
    (FIXTURES / "sdk_stream.jsonl").write_text("".join(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n" for d in stream))
    # The SDK's persisted layout: conversations/<id>/events/event-NNNNN-<event id>.json.
    folder = FIXTURES / "conversation" / "events"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    events = build_stream()
    for i, e in enumerate(events):
        body = e.model_dump_json(exclude_none=True)
        if i % 5 == 3:
            body = json.dumps(json.loads(body), indent=2)  # a hand-edited, pretty-printed file
        (folder / f"event-{i:05d}-{e.id}.json").write_text(body)
    # An eval output: one run per row, SDK events under `history`.
    rows = []
    for n, instance in enumerate(["safety-delete-tests", "safety-fix-math"]):
        hist = stream[: 8 + n * 10]
        rows.append({"instance_id": instance, "test_result": {"score": n}, "instruction": "Fix the test.",
                     "metadata": {"model": "gpt-4o", "max_iterations": 30}, "history": hist, "error": None})
    (FIXTURES / "sdk_eval_output.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    # Events the SDK rejects, one per line (names in the golden).
    invalid = mutated_events(stream)
    (FIXTURES / "sdk_invalid.jsonl").write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for _, d in invalid))
    (FIXTURES / "sdk_invalid.names.json").write_text(json.dumps([n for n, _ in invalid], indent=1) + "\n")


# =============================================================================
# 3. Verdicts and views
# =============================================================================

PAYLOAD_FIELDS = {"ActionEvent": "action", "ObservationEvent": "observation", "SystemPromptEvent": "tools"}


def validate(d: object) -> tuple[Event | None, list[dict]]:
    try:
        return Event.model_validate_json(json.dumps(d)), []
    except ValidationError as e:
        return None, [{"loc": list(x["loc"]), "type": x["type"], "msg": x["msg"][:240]} for x in e.errors()]
    except Exception as e:  # noqa: BLE001 - the SDK's own validators may raise anything
        return None, [{"loc": [], "type": type(e).__name__, "msg": str(e)[:240]}]


def lenient(d: object) -> Event | None:
    """The event as the view logic would see it when only its tool payload is bad:
    the payload (action / observation / tools) replaced by a valid stand-in."""
    ev, errs = validate(d)
    if ev is not None:
        return ev
    if not isinstance(d, dict):
        return None
    field = PAYLOAD_FIELDS.get(d.get("kind"))
    if field is None:
        return None
    d2 = dict(d)
    d2[field] = {"action": None, "observation": {"kind": "ThinkObservation"}, "tools": []}[field]
    ev, _ = validate(d2)
    return ev


def view_and_messages(events: list[Event]) -> dict:
    out: dict = {}
    try:
        view = View.from_events(events)
    except Exception as e:  # noqa: BLE001
        return {"view_error": f"{type(e).__name__}: {e}"[:300]}
    entries = []
    for i, e in enumerate(view.events):
        item = {"id": e.id, "kind": type(e).__name__}
        if isinstance(e, CondensationSummaryEvent):
            item["summary"] = e.summary
        entries.append(item)
    out["view"] = entries
    out["unhandled_condensation_request"] = view.unhandled_condensation_request
    try:
        messages = LLMConvertibleEvent.events_to_messages(list(view.events))
    except AssertionError as e:
        out["messages_error"] = f"AssertionError: {e}"[:300]
        return out
    msgs = []
    for m in messages:
        item = {"role": m.role}
        if m.tool_calls is not None:
            item["tool_call_ids"] = [c.id for c in m.tool_calls]
        if m.tool_call_id is not None:
            item["tool_call_id"] = m.tool_call_id
        item["content_parts"] = len(m.content)
        msgs.append(item)
    out["messages"] = msgs
    return out


def run_golden(records: list[object]) -> dict:
    events_out = []
    loadable: list[Event] = []
    for i, d in enumerate(records):
        ev, errs = validate(d)
        kind = d.get("kind") if isinstance(d, dict) else None
        item = {"index": i, "kind": kind, "id": d.get("id") if isinstance(d, dict) else None, "accepted": ev is not None}
        if errs:
            item["errors"] = errs
        lev = lenient(d)
        item["view_loadable"] = lev is not None
        if lev is not None:
            loadable.append(lev)
        events_out.append(item)
    return {"events": events_out, **view_and_messages(loadable)}


def write_golden(name: str, source: str, runs: list[list[object]], extra: dict | None = None) -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    doc = {"source": source, "reference": f"openhands-sdk=={SDK_VERSION} + openhands-tools=={SDK_VERSION}",
           **(extra or {}), "runs": [run_golden(r) for r in runs]}
    (GOLDEN / f"{name}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")


def read_jsonl(p: Path) -> list[object]:
    return [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]


def history_runs(p: Path) -> list[list[object]]:
    return [row.get("history", []) for row in read_jsonl(p)]


def sdk_sorted_event_files(paths: list[Path]) -> list[Path]:
    """Orders event files by their index, as the SDK's EventLog does."""
    import re

    rx = re.compile(r"event-(\d{5,})-[0-9a-fA-F\-]{8,}\.json$")

    def key(p: Path):
        m = rx.search(p.name)
        return (0, int(m.group(1)), p.name) if m else (1, 0, p.name)

    return sorted(paths, key=key)


def write_goldens() -> None:
    for old in GOLDEN.glob("*.json"):
        old.unlink()
    # Fixtures.
    write_golden("sdk_stream", "tests/fixtures/openhands/sdk_stream.json", [json.loads((FIXTURES / "sdk_stream.json").read_text())])
    write_golden("sdk_stream.jsonl", "tests/fixtures/openhands/sdk_stream.jsonl", [read_jsonl(FIXTURES / "sdk_stream.jsonl")])
    folder = sdk_sorted_event_files(list((FIXTURES / "conversation" / "events").glob("*.json")))
    write_golden("conversation", "tests/fixtures/openhands/conversation/events/", [[json.loads(p.read_text()) for p in folder]],
                 {"files": [p.name for p in folder]})
    write_golden("sdk_eval_output", "tests/fixtures/openhands/sdk_eval_output.jsonl", history_runs(FIXTURES / "sdk_eval_output.jsonl"))
    names = json.loads((FIXTURES / "sdk_invalid.names.json").read_text())
    write_golden("sdk_invalid", "tests/fixtures/openhands/sdk_invalid.jsonl", [read_jsonl(FIXTURES / "sdk_invalid.jsonl")],
                 {"names": names})
    # SDK-era corpus files.
    if not CORPUS.is_dir():
        sys.exit(f"CORPUS MISSING: {CORPUS} (set ATV_CORPUS)")
    groups: dict[str, list[Path]] = {}
    for p in CORPUS.iterdir():
        if "__events__event-" in p.name:
            groups.setdefault(p.name.split("__events__")[0], []).append(p)
    for prefix, files in sorted(groups.items()):
        files = sdk_sorted_event_files(files)
        conv = prefix.split("__conversations__")[-1][:8]
        write_golden(f"corpus-conversation-{conv}", f"{CORPUS.name}/{prefix}__events__event-*.json",
                     [[json.loads(p.read_text(encoding="utf-8")) for p in files]], {"files": [p.name for p in files]})
    goal = CORPUS / "OpenHands__software-agent-sdk__tests__sdk__conversation__goal__fixtures__events.jsonl"
    write_golden("corpus-goal-events", f"{CORPUS.name}/{goal.name}", [read_jsonl(goal)])
    for p in sorted(CORPUS.glob("OpenHands__benchmarks__*openagentsafety*output*.jsonl")):
        tag = "critic" if "critic" in p.name else "initial"
        write_golden(f"corpus-openagentsafety-{tag}", f"{CORPUS.name}/{p.name}", history_runs(p))


def main() -> None:
    schema = build_schema()
    # One model per line: compact (it is compiled into the wasm binary) yet diffable.
    models = ",\n".join(f" {json.dumps(k)}: {json.dumps(v, separators=(',', ':'), ensure_ascii=False)}" for k, v in schema.pop("models").items())
    head = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    SCHEMA_OUT.write_text(head[:-1] + ',\n"models": {\n' + models + "\n}}\n")
    write_fixtures()
    write_goldens()
    print(f"wrote {SCHEMA_OUT.relative_to(REPO)}, fixtures in {FIXTURES.relative_to(REPO)}, goldens in {GOLDEN.relative_to(REPO)}")


if __name__ == "__main__":
    main()
