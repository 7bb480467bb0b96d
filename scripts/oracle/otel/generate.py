#!/usr/bin/env python3
"""Fixtures and goldens for the `otel` format, from the reference libraries.

Usage (Python 3.9+ with `venv`; the schemas are the three JSON files of
open-telemetry/semantic-conventions v1.41.0 `docs/gen-ai/`:
gen-ai-input-messages.json, gen-ai-output-messages.json,
gen-ai-system-instructions.json — not committed here):

    python3 scripts/oracle/otel/generate.py --schemas DIR

    ATV_ORACLE_VENV=/path/to/venv   venv to use or create (default: /work/venvs/otel-oracle)

1. Writes the generated fixtures `tests/fixtures/otel/sdk-*.json(l)`: spans
   made with opentelemetry-sdk (fixed ids and times), encoded by the SDK's
   OTLP encoder (`encode_spans`) and written as OTLP/JSON (protobuf's JSON
   mapping, ids as hex, enums as integers). OpenInference attribute names
   come from openinference-semantic-conventions.
2. Writes `tests/golden/otel/oracle.json` for every fixture and every
   corpus file (`../shared/corpus/otel-genai/`):
   - per record (a JSON document, a list item, or a JSON Lines line): the
     verdict of `google.protobuf.json_format.Parse` into
     `ExportTraceServiceRequest` (a lone span: into `Span`), after OTLP/JSON's
     deviations are undone (hex ids to base64); records that are flat
     attribute objects have no protobuf verdict;
   - per span attribute `gen_ai.input.messages` / `gen_ai.output.messages`
     / `gen_ai.system_instructions`: whether the conventions' JSON schema
     accepts it;
   - counts computed here, independently of the Rust code: runs (trace ids),
     spans, messages the conversation shows (after removing what earlier
     calls re-send), tool calls, and tool calls linked to a result.
"""

import base64
import json
import os
import sys

sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # appended: folders here are named like the packages they check
from pinned_venv import run_inside  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
REQUIREMENTS = os.path.join(HERE, "requirements.txt")
DEFAULT_VENV = "/work/venvs/otel-oracle"
FIXTURES = os.path.join(REPO, "tests", "fixtures", "otel")
GOLDEN = os.path.join(REPO, "tests", "golden", "otel", "oracle.json")
CORPUS = os.path.join(REPO, "..", "shared", "corpus", "otel-genai")
T0 = 1_767_225_600_000_000_000  # 2026-01-01T00:00:00Z


def ensure_venv():
    """Re-runs this script inside the pinned oracle venv, creating it when needed."""
    run_inside(os.environ.get("ATV_ORACLE_VENV", DEFAULT_VENV), REQUIREMENTS, __file__)


# ---------------------------------------------------------------- fixtures


class Ids:
    """Deterministic trace and span ids (an SDK IdGenerator)."""

    def __init__(self, seed):
        self.n = seed * 1000

    def is_trace_id_random(self):
        return False

    def generate_span_id(self):
        self.n += 1
        return 0x1000_0000_0000_0000 + self.n

    def generate_trace_id(self):
        self.n += 1
        return 0xABCD_0000_0000_0000_0000_0000_0000_0000 + self.n


def tracer(seed, service):
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource({"service.name": service, "service.version": "1.0.0"}), id_generator=Ids(seed))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider.get_tracer("atv.fixtures", "0.1.0"), exporter


def otlp_json(spans):
    """The SDK's OTLP encoding of `spans` as OTLP/JSON."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    d = MessageToDict(encode_spans(spans), use_integers_for_enums=True)

    def hexify(o):
        if isinstance(o, dict):
            for k, v in list(o.items()):
                if k in ("traceId", "spanId", "parentSpanId") and isinstance(v, str):
                    o[k] = base64.b64decode(v).hex()
                else:
                    hexify(v)
        elif isinstance(o, list):
            for v in o:
                hexify(v)

    hexify(d)
    return d


class Clock:
    def __init__(self):
        self.t = T0

    def tick(self, ms):
        self.t += ms * 1_000_000
        return self.t


def span(tr, clock, name, attrs, parent=None, ms=100, events=(), error=None, body=None):
    from opentelemetry import trace
    from opentelemetry.trace import SpanKind, Status, StatusCode

    ctx = trace.set_span_in_context(parent) if parent is not None else None
    s = tr.start_span(name, context=ctx, kind=SpanKind.CLIENT if name.startswith(("chat", "embeddings")) else SpanKind.INTERNAL,
                      attributes=attrs, start_time=clock.tick(1))
    for ev_name, ev_attrs in events:
        s.add_event(ev_name, ev_attrs, timestamp=clock.tick(1))
    if body:
        body(s)
    if error:
        s.add_event("exception", {"exception.type": "ToolError", "exception.message": error}, timestamp=clock.tick(1))
        s.set_status(Status(StatusCode.ERROR, error))
    s.end(end_time=clock.tick(ms))
    return s


def j(v):
    return json.dumps(v, ensure_ascii=False)


def text(role, t):
    return {"role": role, "parts": [{"type": "text", "content": t}]}


def sdk_genai():
    """GenAI conventions (current): two agents in one trace, re-sent history, tool spans."""
    tr, ex = tracer(1, "travel-agent")
    c = Clock()
    sys_w = [{"type": "text", "content": "You are a weather assistant."}]
    u1 = text("user", "Weather in Paris?")
    a1 = {"role": "assistant", "parts": [{"type": "text", "content": "Let me check."},
                                         {"type": "tool_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}],
          "finish_reason": "tool_call"}
    r1 = {"role": "tool", "parts": [{"type": "tool_call_response", "id": "call_1", "response": "rainy, 14°C"}]}
    a2 = {"role": "assistant", "parts": [{"type": "reasoning", "content": "The tool said rainy."},
                                         {"type": "text", "content": "It is rainy in Paris, 14°C."}], "finish_reason": "stop"}
    u2 = {"role": "user", "parts": [{"type": "text", "content": "And this picture?"},
                                    {"type": "uri", "modality": "image", "mime_type": "image/png", "uri": "https://example.com/p.png"},
                                    {"type": "blob", "modality": "image", "mime_type": "image/png", "content": "iVBORw0KGgo="}]}
    a3 = {"role": "assistant", "parts": [{"type": "text", "content": "A cloudy sky."}], "finish_reason": "stop"}

    def chat(parent, inp, out, usage, model="gpt-4o"):
        return {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": model,
                "gen_ai.response.model": model + "-2024-08-06", "gen_ai.usage.input_tokens": usage[0],
                "gen_ai.usage.output_tokens": usage[1], "gen_ai.system_instructions": j(sys_w),
                "gen_ai.input.messages": j(inp), "gen_ai.output.messages": j(out), "gen_ai.response.finish_reasons": ["stop"]}

    root = span(tr, c, "invoke_agent weather", {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "weather",
                                                 "gen_ai.provider.name": "openai"}, ms=900,
                body=lambda root: [
                    span(tr, c, "chat gpt-4o", chat(root, [u1], [a1], (120, 30)), parent=root),
                    span(tr, c, "execute_tool get_weather", {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "get_weather",
                                                             "gen_ai.tool.call.id": "call_1", "gen_ai.tool.type": "function",
                                                             "gen_ai.tool.call.arguments": j({"city": "Paris"}),
                                                             "gen_ai.tool.call.result": "rainy, 14°C"}, parent=root, ms=40),
                    span(tr, c, "chat gpt-4o", chat(root, [u1, a1, r1], [a2], (180, 25)), parent=root),
                    span(tr, c, "chat gpt-4o", chat(root, [u1, a1, r1, a2, u2], [a3], (400, 8)), parent=root),
                    span(tr, c, "execute_tool send_email", {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "send_email",
                                                            "gen_ai.tool.call.arguments": j({"to": "a@example.com"})},
                         parent=root, ms=5, error="SMTP refused"),
                    span(tr, c, "invoke_agent planner", {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "planner"},
                         parent=root, ms=300, body=lambda p: [
                             span(tr, c, "chat claude", {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "anthropic",
                                                         "gen_ai.request.model": "claude-sonnet-4",
                                                         "gen_ai.input.messages": j([text("user", "Plan a trip")]),
                                                         "gen_ai.output.messages": j([text("assistant", "Day 1: Louvre.")]),
                                                         "gen_ai.usage.input_tokens": 20, "gen_ai.usage.output_tokens": 6}, parent=p),
                             span(tr, c, "chat claude", {"gen_ai.operation.name": "chat", "gen_ai.provider.name": "anthropic",
                                                         "gen_ai.request.model": "claude-sonnet-4",
                                                         "gen_ai.input.messages": j([text("user", "Plan a trip"), text("assistant", "Day 1: Louvre."), text("user", "More")]),
                                                         "gen_ai.output.messages": j([text("assistant", "Day 2: Orsay.")]),
                                                         "gen_ai.usage.input_tokens": 40, "gen_ai.usage.output_tokens": 6}, parent=p),
                         ]),
                    span(tr, c, "embeddings text-embedding-3-small", {"gen_ai.operation.name": "embeddings",
                                                                        "gen_ai.request.model": "text-embedding-3-small",
                                                                        "gen_ai.usage.input_tokens": 9}, parent=root, ms=10),
                ])
    # A second trace: an agent created, then a chat whose messages are on
    # the inference details event.
    root2 = span(tr, c, "create_agent helper", {"gen_ai.operation.name": "create_agent", "gen_ai.agent.name": "helper"}, ms=20,
                 body=lambda r: [span(tr, c, "chat gpt-4o-mini", {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini"},
                                      parent=r, events=[("gen_ai.client.inference.operation.details",
                                                         {"gen_ai.input.messages": j([text("user", "hi")]),
                                                          "gen_ai.output.messages": j([text("assistant", "hello")])})])])
    del root, root2
    return otlp_json(ex.get_finished_spans())


def sdk_openinference():
    """OpenInference attributes (names from openinference-semantic-conventions); two requests, one per line."""
    from openinference.semconv.trace import (MessageAttributes as M, MessageContentAttributes as MC, OpenInferenceSpanKindValues as K,
                                             SpanAttributes as S, ToolCallAttributes as T)

    tr, ex = tracer(2, "oi-app")
    c = Clock()

    def msgs(prefix, items):
        out = {}
        for i, m in enumerate(items):
            base = f"{prefix}.{i}."
            out[base + M.MESSAGE_ROLE] = m["role"]
            if "content" in m:
                out[base + M.MESSAGE_CONTENT] = m["content"]
            for k, t in enumerate(m.get("contents", [])):
                cb = f"{base}{M.MESSAGE_CONTENTS}.{k}."
                out[cb + MC.MESSAGE_CONTENT_TYPE] = "text"
                out[cb + MC.MESSAGE_CONTENT_TEXT] = t
            for k, (cid, name, args) in enumerate(m.get("calls", [])):
                tb = f"{base}{M.MESSAGE_TOOL_CALLS}.{k}."
                out[tb + T.TOOL_CALL_ID] = cid
                out[tb + T.TOOL_CALL_FUNCTION_NAME] = name
                out[tb + T.TOOL_CALL_FUNCTION_ARGUMENTS_JSON] = args
            if "call_id" in m:
                out[base + M.MESSAGE_TOOL_CALL_ID] = m["call_id"]
        return out

    sysm = {"role": "system", "content": "You search docs."}
    u = {"role": "user", "contents": ["Find the refund policy"]}
    a1 = {"role": "assistant", "calls": [("c-9", "search", j({"q": "refund policy"})), ("c-10", "lookup", j({"id": 7}))]}
    t1 = {"role": "tool", "content": "Refunds within 30 days.", "call_id": "c-9"}
    t2 = {"role": "tool", "content": "Policy #7", "call_id": "c-10"}
    a2 = {"role": "assistant", "content": "Refunds are accepted within 30 days."}

    def llm(inp, out, tokens):
        a = {S.OPENINFERENCE_SPAN_KIND: K.LLM.value, S.LLM_MODEL_NAME: "gpt-4.1", S.LLM_PROVIDER: "openai",
             S.LLM_TOKEN_COUNT_PROMPT: tokens[0], S.LLM_TOKEN_COUNT_COMPLETION: tokens[1], S.LLM_TOKEN_COUNT_TOTAL: sum(tokens),
             S.INPUT_MIME_TYPE: "application/json", S.INPUT_VALUE: j({"n": len(inp)})}
        a.update(msgs(S.LLM_INPUT_MESSAGES, inp))
        a.update(msgs(S.LLM_OUTPUT_MESSAGES, out))
        return a

    def tool(name, cid, args, result):
        return {S.OPENINFERENCE_SPAN_KIND: K.TOOL.value, S.TOOL_NAME: name, S.TOOL_PARAMETERS: j({"type": "object"}),
                S.INPUT_VALUE: args, S.INPUT_MIME_TYPE: "application/json", S.OUTPUT_VALUE: result, S.OUTPUT_MIME_TYPE: "text/plain",
                "tool_call.id": cid}

    span(tr, c, "agent", {S.OPENINFERENCE_SPAN_KIND: K.AGENT.value, S.INPUT_VALUE: "Find the refund policy", S.OUTPUT_VALUE: "Refunds are accepted within 30 days."},
         ms=800, body=lambda r: [
             span(tr, c, "guardrail", {S.OPENINFERENCE_SPAN_KIND: K.GUARDRAIL.value, S.INPUT_VALUE: "Find the refund policy", S.OUTPUT_VALUE: "pass"}, parent=r),
             span(tr, c, "ChatCompletion", llm([sysm, u], [a1], (50, 20)), parent=r),
             span(tr, c, "search", tool("search", "c-9", j({"q": "refund policy"}), "Refunds within 30 days."), parent=r, body=lambda t: [
                 span(tr, c, "retrieve", {S.OPENINFERENCE_SPAN_KIND: K.RETRIEVER.value, S.INPUT_VALUE: "refund policy",
                                          "retrieval.documents.0.document.content": "Refunds within 30 days.",
                                          "retrieval.documents.0.document.score": 0.9}, parent=t),
                 span(tr, c, "embed", {S.OPENINFERENCE_SPAN_KIND: K.EMBEDDING.value, S.EMBEDDING_MODEL_NAME: "text-embedding-3-small",
                                       "embedding.embeddings.0.embedding.text": "refund policy"}, parent=t),
                 span(tr, c, "rerank", {S.OPENINFERENCE_SPAN_KIND: K.RERANKER.value, "reranker.top_k": 1}, parent=t),
             ]),
             span(tr, c, "lookup", tool("lookup", "c-10", j({"id": 7}), "Policy #7"), parent=r),
             span(tr, c, "ChatCompletion", llm([sysm, u, a1, t1, t2], [a2], (90, 12)), parent=r),
             span(tr, c, "chain", {S.OPENINFERENCE_SPAN_KIND: K.CHAIN.value, S.INPUT_VALUE: "x", S.OUTPUT_VALUE: "y"}, parent=r),
             span(tr, c, "evaluate", {S.OPENINFERENCE_SPAN_KIND: K.EVALUATOR.value, S.INPUT_VALUE: "answer", S.OUTPUT_VALUE: "correct"}, parent=r),
         ])
    spans = ex.get_finished_spans()
    # The file exporter writes one request per export batch: two lines.
    return [otlp_json(spans[:4]), otlp_json(spans[4:])]


def sdk_deprecated():
    """Deprecated GenAI attributes and message events."""
    tr, ex = tracer(3, "legacy")
    c = Clock()
    a = {"gen_ai.system": "openai", "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-3.5-turbo",
         "gen_ai.usage.prompt_tokens": 30, "gen_ai.usage.completion_tokens": 10,
         "gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": "Be brief.",
         "gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": "Time in Tokyo?",
         "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.finish_reason": "tool_calls",
         "gen_ai.completion.0.tool_calls.0.id": "t1", "gen_ai.completion.0.tool_calls.0.name": "clock",
         "gen_ai.completion.0.tool_calls.0.arguments": j({"tz": "Asia/Tokyo"})}
    b = {"gen_ai.system": "openai", "gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-3.5-turbo",
         "gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": "Be brief.",
         "gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": "Time in Tokyo?",
         "gen_ai.prompt.2.role": "assistant", "gen_ai.prompt.2.tool_calls.0.id": "t1", "gen_ai.prompt.2.tool_calls.0.name": "clock",
         "gen_ai.prompt.2.tool_calls.0.arguments": j({"tz": "Asia/Tokyo"}),
         "gen_ai.prompt.3.role": "tool", "gen_ai.prompt.3.content": "09:00", "gen_ai.prompt.3.tool_call_id": "t1",
         "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "It is 9 am."}
    ev = [("gen_ai.system.message", {"gen_ai.system": "openai", "content": "Be brief."}),
          ("gen_ai.user.message", {"gen_ai.system": "openai", "content": "Hello"}),
          ("gen_ai.choice", {"gen_ai.system": "openai", "index": 0, "finish_reason": "stop", "message": j({"content": "Hi!"})})]
    span(tr, c, "workflow", {"traceloop.span.kind": "workflow"}, ms=500, body=lambda r: [
        span(tr, c, "openai.chat", a, parent=r),
        span(tr, c, "openai.chat", b, parent=r),
        span(tr, c, "chat gpt-3.5-turbo", {"gen_ai.system": "openai", "gen_ai.operation.name": "chat"}, parent=r, events=ev),
    ])
    return otlp_json(ex.get_finished_spans())


def write_fixtures():
    os.makedirs(FIXTURES, exist_ok=True)
    with open(os.path.join(FIXTURES, "sdk-genai.json"), "w") as f:
        f.write(json.dumps(sdk_genai(), ensure_ascii=False, indent=1) + "\n")
    with open(os.path.join(FIXTURES, "sdk-openinference.jsonl"), "w") as f:
        for req in sdk_openinference():
            f.write(json.dumps(req, ensure_ascii=False) + "\n")
    with open(os.path.join(FIXTURES, "sdk-deprecated.json"), "w") as f:
        f.write(json.dumps(sdk_deprecated(), ensure_ascii=False, indent=1) + "\n")


# ---------------------------------------------------------------- verdicts

ID_KEYS = ("traceId", "spanId", "parentSpanId", "trace_id", "span_id", "parent_span_id")


def unhex(o, bad):
    """OTLP/JSON ids (hex) as protobuf's JSON mapping wants them (base64)."""
    if isinstance(o, dict):
        out = {}
        for k, v in o.items():
            if k in ID_KEYS and isinstance(v, str):
                try:
                    out[k] = base64.b64encode(bytes.fromhex(v)).decode() if len(v) % 2 == 0 else bad.append(k)
                except ValueError:
                    bad.append(k)
                    out[k] = v
            else:
                out[k] = unhex(v, bad)
        return out
    if isinstance(o, list):
        return [unhex(v, bad) for v in o]
    return o


def verdict(value):
    from google.protobuf.json_format import Parse, ParseError
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
    from opentelemetry.proto.trace.v1.trace_pb2 import Span

    if not isinstance(value, dict):
        return {"kind": "other", "accepted": False, "error": "not an object"}
    if "resourceSpans" in value or "resource_spans" in value:
        kind, message = "request", ExportTraceServiceRequest()
    elif ("traceId" in value or "trace_id" in value) and ("spanId" in value or "span_id" in value):
        kind, message = "span", Span()
    elif any(k.startswith(("gen_ai.", "llm.", "openinference.")) or k in ("input.value", "output.value") for k in value):
        return {"kind": "attributes"}
    else:
        return {"kind": "other", "accepted": False, "error": "not an OTLP request, span or attribute object"}
    bad = []
    converted = unhex(value, bad)
    if bad:
        return {"kind": kind, "accepted": False, "error": f"ids not hex: {sorted(set(bad))}"}
    try:
        Parse(json.dumps(converted), message)
        return {"kind": kind, "accepted": True}
    except ParseError as e:
        return {"kind": kind, "accepted": False, "error": str(e)[:300]}


def records_of(path):
    text = open(path, encoding="utf-8-sig").read()
    try:
        doc = json.loads(text)
    except ValueError:
        out = []
        for n, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    out.append(({"line": n}, json.loads(line)))
                except ValueError:
                    out.append(({"line": n}, None))
        return "jsonl", out
    if isinstance(doc, list):
        return "json", [({"index": i}, v) for i, v in enumerate(doc)]
    return "json", [({}, doc)]


# ---------------------------------------------------------------- spans and counts


def any_value(v):
    if not isinstance(v, dict):
        return v
    for k in ("stringValue", "boolValue", "doubleValue", "bytesValue", "string_value", "bool_value", "double_value", "bytes_value"):
        if k in v:
            return v[k]
    for k in ("intValue", "int_value"):
        if k in v:
            try:
                return int(v[k])
            except (TypeError, ValueError):
                return v[k]
    for k in ("arrayValue", "array_value"):
        if k in v:
            return [any_value(x) for x in (v[k] or {}).get("values", [])]
    for k in ("kvlistValue", "kvlist_value"):
        if k in v:
            return attrs_of((v[k] or {}).get("values"))
    return None


def attrs_of(kvs):
    out = {}
    for kv in kvs or []:
        if isinstance(kv, dict) and isinstance(kv.get("key"), str):
            out[kv["key"]] = any_value(kv.get("value") or {})
    return out


def pick(o, *keys):
    for k in keys:
        if isinstance(o, dict) and o.get(k) is not None:
            return o[k]
    return None


def spans_of(path):
    """(trace id, span dict with decoded attrs) of every span of a file, in file order."""
    _, recs = records_of(path)
    out = []
    for _, v in recs:
        if not isinstance(v, dict):
            continue
        if "resourceSpans" in v or "resource_spans" in v:
            for rs in pick(v, "resourceSpans", "resource_spans") or []:
                for ss in pick(rs, "scopeSpans", "scope_spans") or []:
                    for s in (ss or {}).get("spans") or []:
                        if isinstance(s, dict):
                            out.append(dict(s, _attrs=attrs_of(s.get("attributes")), _flat=False))
        elif ("traceId" in v or "trace_id" in v) and ("spanId" in v or "span_id" in v):
            out.append(dict(v, _attrs=attrs_of(pick(v, "attributes")), _flat=False))
        elif verdict(v)["kind"] == "attributes":
            out.append({"_attrs": v, "_flat": True})
    return out


def loads_maybe(v):
    if isinstance(v, str):
        try:
            return json.loads(v)
        except ValueError:
            return v
    return v


def schema_checks(path, schemas):
    import jsonschema

    out = []
    for i, s in enumerate(spans_of(path)):
        for attr, schema in (("gen_ai.input.messages", "input"), ("gen_ai.output.messages", "output"), ("gen_ai.system_instructions", "system")):
            if attr in s["_attrs"]:
                value = loads_maybe(s["_attrs"][attr])
                try:
                    jsonschema.validate(value, schemas[schema])
                    out.append({"span": i, "attribute": attr, "valid": True})
                except jsonschema.ValidationError as e:
                    out.append({"span": i, "attribute": attr, "valid": False, "error": e.message[:200]})
    return out


def to_msgs(a, events):
    """(input, output) messages of a span as [(role, [parts])], by the first convention present."""
    def genai_list(v, role):
        v = loads_maybe(v)
        if not isinstance(v, list):
            v = [v]
        return [(m.get("role", role), [p if not isinstance(p, str) else {"type": "text", "content": p} for p in m.get("parts", [])])
                if isinstance(m, dict) else (role, [{"type": "text", "content": m}]) for m in v]

    for src in (a, *(attrs_of(e.get("attributes")) for e in events if e.get("name") == "gen_ai.client.inference.operation.details")):
        if any(k in src for k in ("gen_ai.system_instructions", "gen_ai.input.messages", "gen_ai.output.messages")):
            inp = []
            if "gen_ai.system_instructions" in src:
                si = loads_maybe(src["gen_ai.system_instructions"])
                inp.append(("system", si if isinstance(si, list) else [si]))
            inp += genai_list(src.get("gen_ai.input.messages", []), "user")
            return inp, genai_list(src.get("gen_ai.output.messages", []), "assistant")

    def indexed(prefix):
        groups = {}
        for k, v in a.items():
            if k.startswith(prefix):
                n, _, rest = k[len(prefix):].partition(".")
                if n.isdigit():
                    groups.setdefault(int(n), {})[rest] = v
        return [groups[n] for n in sorted(groups)]

    def calls(fields, prefix, idk, namek, argk):
        groups = {}
        for k, v in fields.items():
            if k.startswith(prefix):
                n, _, rest = k[len(prefix):].partition(".")
                groups.setdefault(int(n), {})[rest] = v
        return [{"type": "tool_call", "id": groups[n].get(idk), "name": groups[n].get(namek), "arguments": loads_maybe(groups[n].get(argk))}
                for n in sorted(groups)]

    def oi(f):
        parts = []
        if "message.content" in f:
            if "message.tool_call_id" in f:
                parts.append({"type": "tool_call_response", "id": f["message.tool_call_id"], "response": f["message.content"]})
            else:
                parts.append({"type": "text", "content": f["message.content"]})
        groups = {}
        for k, v in f.items():
            if k.startswith("message.contents."):
                n, _, rest = k[len("message.contents."):].partition(".")
                groups.setdefault(int(n), {})[rest] = v
        parts += [{"type": "text", "content": groups[n].get("message_content.text")} for n in sorted(groups)]
        parts += calls(f, "message.tool_calls.", "tool_call.id", "tool_call.function.name", "tool_call.function.arguments")
        return (f.get("message.role", "user"), parts)

    def old(f):
        parts = []
        if "content" in f:
            if f.get("role") == "tool" and "tool_call_id" in f:
                parts.append({"type": "tool_call_response", "id": f["tool_call_id"], "response": f["content"]})
            else:
                parts.append({"type": "text", "content": f["content"]})
        parts += calls(f, "tool_calls.", "id", "name", "arguments")
        return (f.get("role", "user"), parts)

    if indexed("llm.input_messages.") or indexed("llm.output_messages."):
        return [oi(f) for f in indexed("llm.input_messages.")], [oi(f) for f in indexed("llm.output_messages.")]
    if indexed("gen_ai.prompt.") or indexed("gen_ai.completion."):
        return [old(f) for f in indexed("gen_ai.prompt.")], [old(f) for f in indexed("gen_ai.completion.")]
    if "gen_ai.prompt" in a or "gen_ai.completion" in a:
        p = loads_maybe(a.get("gen_ai.prompt"))
        inp = genai_list(p, "user") if isinstance(p, list) else ([("user", [{"type": "text", "content": p}])] if p is not None else [])
        c = loads_maybe(a.get("gen_ai.completion"))
        if isinstance(c, dict) and "role" not in c:
            out = [("assistant", [{"type": "text", "content": c.get("text", c.get("content"))}])]
        else:
            out = genai_list(c, "assistant") if c is not None else []
        return inp, out
    inp, out = [], []
    roles = {"gen_ai.system.message": "system", "gen_ai.user.message": "user", "gen_ai.assistant.message": "assistant", "gen_ai.tool.message": "tool"}
    for e in events:
        ea = attrs_of(e.get("attributes"))
        if e.get("name") in roles:
            inp.append((roles[e["name"]], [{"type": "text", "content": ea.get("content")}] if "content" in ea else []))
        elif e.get("name") == "gen_ai.choice":
            m = loads_maybe(ea.get("message"))
            content = m.get("content") if isinstance(m, dict) else ea.get("content")
            out.append(((m or {}).get("role", "assistant") if isinstance(m, dict) else "assistant", [{"type": "text", "content": content}] if content is not None else []))
    return inp, out


def counts(path):
    """Runs, spans, shown messages, tool calls and linked calls, by the rules of docs/formats/otel.md."""
    spans = spans_of(path)
    traces = {}
    for s in spans:
        tid = "" if s["_flat"] else str(pick(s, "traceId", "trace_id") or "").lower()
        traces.setdefault(tid, []).append(s)
    c = {"runs": len(traces), "spans": len(spans), "messages": 0, "tool_results": 0, "tool_calls": 0, "linked_tool_calls": 0}
    for members in traces.values():
        by_id = {}
        for s in members:
            sid = pick(s, "spanId", "span_id")
            if sid:
                by_id[sid] = s
        kids, roots = {}, []
        for s in members:
            p = pick(s, "parentSpanId", "parent_span_id")
            if p and p in by_id and by_id[p] is not s:
                kids.setdefault(id(by_id[p]), []).append(s)
            else:
                roots.append(s)
        start = lambda s: int(pick(s, "startTimeUnixNano", "start_time_unix_nano") or 0)
        order = []

        def walk(s):
            order.append(s)
            for k in sorted(kids.get(id(s), []), key=start):
                walk(k)

        for r in sorted(roots, key=start):
            walk(r)
        shown, calls, answered = set(), set(), set()

        def chain(h, m):
            return hash((h, json.dumps(m, sort_keys=True)))

        def show(role, parts):
            rest = [p for p in parts if p.get("type") != "tool_call_response"]
            resp = [p for p in parts if p.get("type") == "tool_call_response"]
            if rest or not resp:
                c["messages"] += 1
            for p in rest:
                if p.get("type") == "tool_call":
                    c["tool_calls"] += 1
                    if p.get("id") is not None:
                        calls.add(p["id"])
            for p in resp:
                if p.get("id") in answered:
                    continue
                c["tool_results"] += 1
                if p.get("id") in calls:
                    answered.add(p["id"])
                    c["linked_tool_calls"] += 1

        for s in order:
            a = s["_attrs"]
            inp, out = to_msgs(a, s.get("events") or [])
            h, known, hs = 0, 0, []
            for n, m in enumerate(inp):
                h = chain(h, m)
                hs.append(h)
                if h in shown:
                    known = n + 1
            for m in out:
                h = chain(h, m)
                hs.append(h)
            shown.update(hs)
            for role, parts in inp[known:] + out:
                show(role, parts)
            kind = a.get("openinference.span.kind")
            if a.get("gen_ai.operation.name") == "execute_tool" or (isinstance(kind, str) and kind.upper() == "TOOL"):
                cid = next((a[k] for k in ("gen_ai.tool.call.id", "tool_call.id", "tool.id") if a.get(k) is not None), None)
                cid = cid if cid is None or isinstance(cid, str) else json.dumps(cid)
                if cid is None or cid not in calls or cid in answered:
                    c["tool_calls"] += 1
                    if cid is not None:
                        calls.add(cid)
                c["tool_results"] += 1
                c["linked_tool_calls"] += 1
                if cid is not None:
                    answered.add(cid)
    return c


def main():
    ensure_venv()
    import google.protobuf
    import openinference.semconv
    import opentelemetry.proto

    args = sys.argv[1:]
    if "--schemas" not in args:
        sys.exit("usage: generate.py --schemas DIR (semantic-conventions v1.41.0 docs/gen-ai/)")
    sdir = args[args.index("--schemas") + 1]
    schemas = {k: json.load(open(os.path.join(sdir, f"gen-ai-{n}.json")))
               for k, n in (("input", "input-messages"), ("output", "output-messages"), ("system", "system-instructions"))}
    write_fixtures()
    files = {}
    paths = [("fixtures/" + n, os.path.join(FIXTURES, n)) for n in sorted(os.listdir(FIXTURES)) if os.path.isfile(os.path.join(FIXTURES, n))]
    if os.path.isdir(CORPUS):
        paths += [("corpus/" + n, os.path.join(CORPUS, n)) for n in sorted(os.listdir(CORPUS))]
    for key, path in paths:
        layout, recs = records_of(path)
        files[key] = {
            "layout": layout,
            "records": [dict(where, **(verdict(v) if v is not None else {"kind": "broken", "accepted": False, "error": "invalid JSON"})) for where, v in recs],
            "schemas": schema_checks(path, schemas),
            "counts": counts(path),
        }
    out = {
        "generator": "scripts/oracle/otel/generate.py",
        "versions": {"opentelemetry-proto": "1.45.2", "protobuf": google.protobuf.__version__,
                     "openinference-semantic-conventions": "0.1.42", "semantic-conventions (schemas)": "v1.41.0"},
        "files": files,
    }
    os.makedirs(os.path.dirname(GOLDEN), exist_ok=True)
    with open(GOLDEN, "w") as f:
        f.write(json.dumps(out, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}: {len(files)} files")


if __name__ == "__main__":
    main()
