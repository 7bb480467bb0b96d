"""The openhands-sdk and openhands-tools names the golden generator uses,
imported once inside the pinned venv (goldens.py re-executes itself there
before importing this)."""

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("OPENHANDS_SUPPRESS_BANNER", "1")

import enum
import importlib
import logging
import types
import typing
import uuid
from collections.abc import Sequence as AbcSequence

logging.disable(logging.CRITICAL)

import annotated_types
import openhands.sdk  # noqa: F401
import openhands.tools  # noqa: F401

# Every tool module that imports without extra packages registers its kinds.
for _m in [
    "apply_patch", "ask_oracle", "browser_use", "child_conversation", "delegate", "file_editor",
    "gemini", "glob", "grep", "planning_file_editor", "preset.default", "preset.gemini", "preset.gpt5",
    "task", "task_tracker", "terminal", "tom_consult", "workflow",
]:
    importlib.import_module("openhands.tools." + _m)

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from openhands.sdk.context.view import View
from openhands.sdk.critic.result import CriticResult
from openhands.sdk.event import (
    ActionEvent,
    AgentErrorEvent,
    Condensation,
    CondensationRequest,
    CondensationSummaryEvent,
    ConversationStateUpdateEvent,
    Event,
    LLMCompletionLogEvent,
    LLMConvertibleEvent,
    MessageEvent,
    ObservationEvent,
    PauseEvent,
    SystemPromptEvent,
    TokenEvent,
    UserRejectObservation,
)
from openhands.sdk.event.conversation_error import ConversationErrorEvent
from openhands.sdk.event.hook_execution import HookExecutionEvent
from openhands.sdk.event.user_action import InterruptEvent
from openhands.sdk.llm import (
    ImageContent,
    Message,
    MessageToolCall,
    RedactedThinkingBlock,
    TextContent,
    ThinkingBlock,
)
from openhands.sdk.security.risk import SecurityRisk
from openhands.sdk.tool.builtins import (
    FinishAction,
    FinishObservation,
    FinishTool,
    ThinkAction,
    ThinkObservation,
    ThinkTool,
)
from openhands.sdk.tool.schema import Action, Observation
from openhands.sdk.tool.tool import ToolDefinition
from openhands.sdk.utils.models import (
    DiscriminatedUnionMixin,
    _is_abstract,
    get_known_concrete_subclasses,
)
from openhands.tools.file_editor import FileEditorAction, FileEditorObservation, FileEditorTool
from openhands.tools.terminal import TerminalAction, TerminalObservation, TerminalTool
