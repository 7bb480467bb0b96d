"""The SDK event stream the fixtures are made of: one conversation with every
event, action and observation kind, built with the SDK's own classes."""

from __future__ import annotations

import json

from sdk import *  # noqa: F401,F403
from sdk import uuid  # noqa: F401

def uid(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "atv-openhands/" + name))


class Clock:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"2026-03-01T10:00:{self.n:02d}.{self.n * 1111 % 1000000:06d}"


def tc(call_id: str, name: str, args: dict) -> MessageToolCall:
    return MessageToolCall(id=call_id, name=name, arguments=json.dumps(args), origin="completion")


def text(t: str) -> TextContent:
    return TextContent(text=t)


def build_stream() -> list[Event]:
    """One conversation using every event class the format reads."""
    ts = Clock()
    ev: list[Event] = []
    tools = [
        # Built directly: TerminalTool.create() needs a live workspace.
        TerminalTool(description="Execute a bash command in the terminal.", action_type=TerminalAction,
                     observation_type=TerminalObservation),
        FileEditorTool(description="Custom editing tool for viewing, creating and editing files.",
                       action_type=FileEditorAction, observation_type=FileEditorObservation),
        *ThinkTool.create(),
        *FinishTool.create(),
    ]
    ev.append(
        SystemPromptEvent(
            id=uid("sys"), timestamp=ts(),
            system_prompt=text("You are OpenHands agent, a helpful AI assistant that can interact with a computer."),
            tools=tools,
            dynamic_context=text("<RUNTIME>working_dir: /workspace/project</RUNTIME>"),
        )
    )
    ev.append(ConversationStateUpdateEvent(id=uid("state-running"), timestamp=ts(), key="execution_status", value="running"))
    ev.append(
        MessageEvent(
            id=uid("user-1"), timestamp=ts(), source="user",
            llm_message=Message(role="user", content=[text("Fix the failing test in tests/test_math.py and explain the fix.")]),
            activated_skills=["python"],
            extended_content=[text("<EXTRA_INFO>The repository uses pytest.</EXTRA_INFO>")],
        )
    )
    # A single action with reasoning, thinking blocks, a critic verdict and a risk.
    ev.append(
        ActionEvent(
            id=uid("act-1"), timestamp=ts(),
            thought=[text("Let me run the tests first.")],
            reasoning_content="The user wants the test fixed; run it to see the failure.",
            thinking_blocks=[ThinkingBlock(thinking="I should run pytest.", signature="sig-1")],
            action=TerminalAction(command="python -m pytest tests/test_math.py -q"),
            tool_name="terminal", tool_call_id="call_run_1",
            tool_call=tc("call_run_1", "terminal", {"command": "python -m pytest tests/test_math.py -q", "security_risk": "LOW"}),
            llm_response_id="resp-1", security_risk=SecurityRisk.LOW,
            critic_result=CriticResult(score=0.8, message="reasonable first step"),
            summary="running the failing test",
        )
    )
    ev.append(
        ObservationEvent(
            id=uid("obs-1"), timestamp=ts(), tool_name="terminal", tool_call_id="call_run_1",
            observation=TerminalObservation.from_text(
                "F\n1 failed in 0.02s\nAssertionError: assert add(2, 2) == 5", command="python -m pytest tests/test_math.py -q", exit_code=1
            ),
            action_id=uid("act-1"),
        )
    )
    ev.append(TokenEvent(id=uid("tokens-1"), timestamp=ts(), source="agent", prompt_token_ids=[1, 15, 27, 99], response_token_ids=[42, 7]))
    # Parallel tool calls from one LLM response: the thought lives on the first only.
    ev.append(
        ActionEvent(
            id=uid("act-2a"), timestamp=ts(), thought=[text("I'll look at the test and the code at once.")],
            action=FileEditorAction(command="view", path="/workspace/project/tests/test_math.py"),
            tool_name="file_editor", tool_call_id="call_view_a",
            tool_call=tc("call_view_a", "file_editor", {"command": "view", "path": "/workspace/project/tests/test_math.py"}),
            llm_response_id="resp-2",
        )
    )
    ev.append(
        ActionEvent(
            id=uid("act-2b"), timestamp=ts(), thought=[],
            action=FileEditorAction(command="view", path="/workspace/project/math_utils.py"),
            tool_name="file_editor", tool_call_id="call_view_b",
            tool_call=tc("call_view_b", "file_editor", {"command": "view", "path": "/workspace/project/math_utils.py"}),
            llm_response_id="resp-2",
        )
    )
    ev.append(
        ObservationEvent(
            id=uid("obs-2a"), timestamp=ts(), tool_name="file_editor", tool_call_id="call_view_a",
            observation=FileEditorObservation.from_text(
                "1\tfrom math_utils import add\n2\tdef test_add():\n3\t    assert add(2, 2) == 5", command="view",
                path="/workspace/project/tests/test_math.py",
            ),
            action_id=uid("act-2a"),
        )
    )
    ev.append(
        AgentErrorEvent(
            id=uid("err-2b"), timestamp=ts(), tool_name="file_editor", tool_call_id="call_view_b",
            error="File not found: /workspace/project/math_utils.py",
        )
    )
    ev.append(LLMCompletionLogEvent(id=uid("log-1"), timestamp=ts(), filename="completions/resp-2.json",
                                    log_data=json.dumps({"model": "gpt-4o", "usage": {"prompt_tokens": 812}}), model_name="gpt-4o"))
    ev.append(CondensationRequest(id=uid("cond-req"), timestamp=ts()))
    ev.append(
        Condensation(
            id=uid("cond-1"), timestamp=ts(),
            forgotten_event_ids={uid("act-1"), uid("obs-1")},
            summary="The agent ran pytest: test_add fails because it expects add(2, 2) == 5.",
            summary_offset=2, llm_response_id="resp-cond-1",
        )
    )
    ev.append(CondensationSummaryEvent(id=uid("cond-1-summary-standalone"), timestamp=ts(), summary="Earlier: the test expects 5."))
    # A rejected action (confirmation mode).
    ev.append(
        ActionEvent(
            id=uid("act-3"), timestamp=ts(), thought=[text("Delete the test file to make it pass?")],
            action=TerminalAction(command="rm tests/test_math.py"), tool_name="terminal", tool_call_id="call_rm",
            tool_call=tc("call_rm", "terminal", {"command": "rm tests/test_math.py"}), llm_response_id="resp-3",
            security_risk=SecurityRisk.HIGH,
        )
    )
    ev.append(
        UserRejectObservation(
            id=uid("rej-3"), timestamp=ts(), tool_name="terminal", tool_call_id="call_rm", action_id=uid("act-3"),
            rejection_reason="Do not delete tests.",
        )
    )
    ev.append(PauseEvent(id=uid("pause"), timestamp=ts()))
    ev.append(
        MessageEvent(
            id=uid("user-2"), timestamp=ts(), source="user",
            llm_message=Message(role="user", content=[text("Fix the assertion instead.")]),
        )
    )
    ev.append(
        ActionEvent(
            id=uid("act-4"), timestamp=ts(), thought=[text("Thinking it through.")],
            thinking_blocks=[RedactedThinkingBlock(data="cmVkYWN0ZWQ=")],
            action=ThinkAction(thought="The test expectation is wrong: 2 + 2 == 4."), tool_name="think",
            tool_call_id="call_think", tool_call=tc("call_think", "think", {"thought": "The test expectation is wrong: 2 + 2 == 4."}),
            llm_response_id="resp-4",
        )
    )
    ev.append(
        ObservationEvent(
            id=uid("obs-4"), timestamp=ts(), tool_name="think", tool_call_id="call_think",
            observation=ThinkObservation.from_text("Your thought has been logged."), action_id=uid("act-4"),
        )
    )
    ev.append(
        ActionEvent(
            id=uid("act-5"), timestamp=ts(), thought=[text("Editing the assertion.")],
            action=FileEditorAction(command="str_replace", path="/workspace/project/tests/test_math.py",
                                    old_str="== 5", new_str="== 4"),
            tool_name="file_editor", tool_call_id="call_edit",
            tool_call=tc("call_edit", "file_editor", {"command": "str_replace", "path": "/workspace/project/tests/test_math.py",
                                                      "old_str": "== 5", "new_str": "== 4"}),
            llm_response_id="resp-5",
        )
    )
    ev.append(
        ObservationEvent(
            id=uid("obs-5"), timestamp=ts(), tool_name="file_editor", tool_call_id="call_edit",
            observation=FileEditorObservation.from_text("The file has been edited.", command="str_replace",
                                                        path="/workspace/project/tests/test_math.py"),
            action_id=uid("act-5"),
        )
    )
    ev.append(
        MessageEvent(
            id=uid("agent-msg"), timestamp=ts(), source="agent", llm_response_id="resp-6",
            llm_message=Message(role="assistant", content=[text("The test expected 5 for 2 + 2; I corrected it to 4.")],
                                reasoning_content="Explain the fix briefly."),
        )
    )
    ev.append(
        MessageEvent(
            id=uid("user-3"), timestamp=ts(), source="user",
            llm_message=Message(role="user", content=[text("Here is a screenshot of the CI run."),
                                                      ImageContent(image_urls=["data:image/png;base64,iVBORw0KGgo="])]),
            sender="ci-bot",
        )
    )
    ev.append(
        ActionEvent(
            id=uid("act-6"), timestamp=ts(), thought=[text("All done.")],
            action=FinishAction(message="Fixed the assertion in tests/test_math.py."), tool_name="finish",
            tool_call_id="call_finish", tool_call=tc("call_finish", "finish", {"message": "Fixed the assertion in tests/test_math.py."}),
            llm_response_id="resp-7",
        )
    )
    ev.append(
        ObservationEvent(
            id=uid("obs-6"), timestamp=ts(), tool_name="finish", tool_call_id="call_finish",
            observation=FinishObservation.from_text("Fixed the assertion in tests/test_math.py."), action_id=uid("act-6"),
        )
    )
    ev.append(ConversationStateUpdateEvent(id=uid("state-finished"), timestamp=ts(), key="execution_status", value="finished"))
    ev.append(InterruptEvent(id=uid("interrupt"), timestamp=ts()))
    ev.append(ConversationErrorEvent(id=uid("conv-error"), timestamp=ts(), source="environment", code="RuntimeError",
                                     detail="sandbox went away"))
    ev.append(HookExecutionEvent(id=uid("hook"), timestamp=ts(), hook_event_type="PostToolUse", hook_command="./lint.sh",
                                 tool_name="file_editor", success=True, exit_code=0, stdout="ok", action_id=uid("act-5")))
    return ev


def dump(e: Event) -> dict:
    return json.loads(e.model_dump_json())
