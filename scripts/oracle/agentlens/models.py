"""AgentLens data model, transcribed from the schema in the project's issue
(no AgentLens package can be installed here), as pydantic v2 models.

The transcription is ours; what pydantic then accepts or rejects is pydantic's.
`verdicts.py` uses these models as the oracle for the lax-mode rules
that `src/import/agentlens.rs` applies by hand.

Reading of the schema where it is terse: `model` is an optional string;
identifiers default to fresh UUID strings and timestamps to "now" in UTC
(`datetime`, naive values allowed); `confidence` is an optional float in
[0.0, 1.0]; `Session.metadata` is a dict (not null) defaulting to {}.
"""

import datetime as dt
import enum
import typing
import uuid

import pydantic
from pydantic import BaseModel, Field


def _now():
    return dt.datetime.now(dt.timezone.utc)


def _id():
    return str(uuid.uuid4())


class EventType(str, enum.Enum):
    llm_call = "llm_call"
    tool_call = "tool_call"
    agent_call = "agent_call"
    agent_error = "agent_error"
    tool_error = "tool_error"
    decision = "decision"
    generic = "generic"


class ToolCall(BaseModel):
    tool_call_id: str = Field(default_factory=_id)
    tool_name: str
    tool_input: dict[str, typing.Any] = Field(default_factory=dict)
    tool_output: typing.Optional[dict[str, typing.Any]] = None
    timestamp: dt.datetime = Field(default_factory=_now)
    duration_ms: typing.Optional[float] = None


class DecisionTrace(BaseModel):
    trace_id: str = Field(default_factory=_id)
    step: int = 0
    reasoning: str = ""
    alternatives_considered: list[str] = Field(default_factory=list)
    confidence: typing.Optional[float] = Field(default=None, ge=0.0, le=1.0)
    timestamp: dt.datetime = Field(default_factory=_now)


class AgentEvent(BaseModel):
    event_id: str = Field(default_factory=_id)
    session_id: str = ""
    event_type: EventType = EventType.generic
    timestamp: dt.datetime = Field(default_factory=_now)
    input_data: typing.Optional[dict[str, typing.Any]] = None
    output_data: typing.Optional[dict[str, typing.Any]] = None
    model: typing.Optional[str] = None
    tokens_in: int = 0
    tokens_out: int = 0
    tool_call: typing.Optional[ToolCall] = None
    decision_trace: typing.Optional[DecisionTrace] = None
    duration_ms: typing.Optional[float] = None


class SessionStatus(str, enum.Enum):
    active = "active"
    completed = "completed"
    error = "error"


class Session(BaseModel):
    session_id: str = Field(default_factory=_id)
    agent_name: str = "default-agent"
    started_at: dt.datetime = Field(default_factory=_now)
    ended_at: typing.Optional[dt.datetime] = None
    metadata: dict[str, typing.Any] = Field(default_factory=dict)
    events: list[AgentEvent] = Field(default_factory=list)
    total_tokens_in: int = 0
    total_tokens_out: int = 0
    status: SessionStatus = SessionStatus.active
