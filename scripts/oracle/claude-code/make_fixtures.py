#!/usr/bin/env python3
"""Writes the hand-designed Claude Code fixtures of tests/fixtures/claude-code/.

Every record type Claude Code writes (user, assistant, system, summary,
progress, file-history-snapshot, queue-operation, custom-title, attachment)
and one it does not (`mystery-record`), every content block (text, thinking,
redacted_thinking, tool_use, image, tool_result with is_error and with a list
of text and image blocks), one API response split over five records sharing
`message.id` + `requestId` (usage repeated on each), records without
`requestId`, a rewind (an edited prompt leaving a branch), a compaction
boundary, sidechain records inside the session file (older versions), a
sub-agent in `<sessionId>/subagents/agent-<id>.jsonl` started by a `Task`
call, and the older layout with `agent-<id>.jsonl` beside the session.

Shapes follow real sessions of Claude Code 2.1.x (../shared/corpus/claude-code/).
Deterministic: rerunning rewrites the same bytes.
Usage: python3 scripts/oracle/claude-code/make_fixtures.py
"""

import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
OUT = REPO / "tests" / "fixtures" / "claude-code"
S = "11111111-2222-4333-8444-555555555555"
S2 = "66666666-7777-4888-8999-aaaaaaaaaaaa"
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
T0 = 1_760_000_000


def ts(i: int) -> str:
    s = T0 + i * 7
    import datetime

    return datetime.datetime.fromtimestamp(s, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{(i * 37) % 1000:03d}Z"


class Session:
    def __init__(self, session_id: str, agent: str | None = None):
        self.sid = session_id
        self.agent = agent
        self.records: list[dict] = []
        self.n = 0

    def base(self, uuid, parent, sidechain=False):
        self.n += 1
        r = {"parentUuid": parent, "isSidechain": sidechain or self.agent is not None, "userType": "external",
             "cwd": "/home/dev/parser", "sessionId": self.sid, "version": "2.1.39", "gitBranch": "main"}
        if self.agent:
            r["agentId"] = self.agent
        r["slug"] = "quiet-parsing-fox"
        return r, {"timestamp": ts(self.n + (500 if self.agent else 0)), "uuid": uuid}

    def user(self, uuid, parent, content, sidechain=False, **extra):
        r, tail = self.base(uuid, parent, sidechain)
        r.update({"type": "user", "message": {"role": "user", "content": content}, **extra})
        r.update(tail)
        self.records.append(r)

    def result(self, uuid, parent, call, content, is_error=False, tool_use_result=None):
        block = {"tool_use_id": call, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        extra = {"toolUseResult": tool_use_result if tool_use_result is not None else (content if isinstance(content, str) else "ok"),
                 "sourceToolAssistantUUID": parent}
        self.user(uuid, parent, [block], **extra)

    def assistant(self, uuid, parent, msg_id, blocks, request=None, usage=None, model="claude-opus-4-6", sidechain=False, **extra):
        r, tail = self.base(uuid, parent, sidechain)
        message = {"model": model, "id": msg_id, "type": "message", "role": "assistant", "content": blocks,
                   "stop_reason": None, "stop_sequence": None,
                   "usage": usage or {"input_tokens": 3, "cache_creation_input_tokens": 120, "cache_read_input_tokens": 4000, "output_tokens": 9,
                                      "service_tier": "standard"}}
        r.update({"message": message})
        if request:
            r["requestId"] = request
        r.update({"type": "assistant", **extra})
        r.update(tail)
        self.records.append(r)

    def other(self, record):
        self.n += 1
        self.records.append(record)

    def write(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in self.records)
        path.write_text(text, encoding="utf-8")


def usage(i, o, cc, cr):
    return {"input_tokens": i, "cache_creation_input_tokens": cc, "cache_read_input_tokens": cr, "output_tokens": o, "service_tier": "standard"}


def main_session() -> Session:
    s = Session(S)
    s.other({"type": "file-history-snapshot", "messageId": "u1", "snapshot": {"messageId": "u1", "trackedFileBackups": {}, "timestamp": ts(0)}, "isSnapshotUpdate": False})
    s.other({"type": "summary", "summary": "Parser bug hunt, earlier session", "leafUuid": "u-older"})
    r, tail = s.base("p1", None)
    r.update({"type": "progress", "data": {"type": "hook_progress", "hookEvent": "SessionStart", "hookName": "SessionStart:startup", "command": "echo hi"},
              "parentToolUseID": "h1", "toolUseID": "h1"}); r.update(tail); s.records.append(r)
    s.user("u1", "p1", "Find the bug in parse.rs and fix it — the tests say « ünïcode » fails.", permissionMode="default")
    # One API response over five records: usage repeated on each, counted once.
    u = usage(10, 50, 100, 200)
    s.assistant("a1", "u1", "msg_01", [{"type": "thinking", "thinking": "The parser probably splits on bytes.", "signature": "sig=="}], "req_01", u)
    s.assistant("a2", "a1", "msg_01", [{"type": "redacted_thinking", "data": "EuYBCkQYAiJA"}], "req_01", u)
    s.assistant("a3", "a2", "msg_01", [{"type": "text", "text": "I'll read the file and run the tests."}], "req_01", u)
    s.assistant("a4", "a3", "msg_01", [{"type": "tool_use", "id": "toolu_01", "name": "Read", "input": {"file_path": "/home/dev/parser/src/parse.rs"}}], "req_01", u)
    s.assistant("a5", "a4", "msg_01", [{"type": "tool_use", "id": "toolu_02", "name": "Bash", "input": {"command": "cargo test", "description": "Run tests"}}], "req_01", u)
    r, tail = s.base("p2", "a5")
    r.update({"type": "progress", "data": {"type": "hook_progress", "hookEvent": "PostToolUse", "hookName": "PostToolUse:Read", "command": "fmt"},
              "parentToolUseID": "toolu_01", "toolUseID": "toolu_01"}); r.update(tail); s.records.append(r)
    s.result("r1", "a4", "toolu_01", "fn parse(s: &str) {\n    s.bytes()\n}", tool_use_result={"type": "text", "file": {"filePath": "src/parse.rs", "numLines": 3}})
    s.result("r2", "a5", "toolu_02", [{"type": "text", "text": "error: test unicode ... FAILED"}, {"type": "text", "text": "exit code 101"}], is_error=True,
             tool_use_result="Error: exit code 101")
    s.assistant("b1", "r2", "msg_02", [{"type": "text", "text": "Let me ask a sub-agent to look at the callers."},
                                       {"type": "tool_use", "id": "toolu_03", "name": "Task", "input": {"subagent_type": "Explore", "description": "Find callers", "prompt": "Find every caller of parse()."}}],
                "req_02", usage(4, 80, 300, 4200))
    r, tail = s.base("p3", "b1")
    r.update({"type": "progress", "data": {"type": "agent_progress", "agentId": "b1f2c3d", "prompt": "Find every caller of parse().", "message": {"type": "user"}},
              "parentToolUseID": "toolu_03", "toolUseID": "agent_msg_1"}); r.update(tail); s.records.append(r)
    s.result("r3", "b1", "toolu_03", [{"type": "text", "text": "parse() is called from main.rs and lib.rs."}],
             tool_use_result={"status": "completed", "prompt": "Find every caller of parse().", "agentId": "b1f2c3d", "totalTokens": 1200})
    r, tail = s.base("sys1", "r3")
    r.update({"type": "system", "subtype": "stop_hook_summary", "content": "1 hook ran", "level": "info", "isMeta": False}); r.update(tail); s.records.append(r)
    s.user("u2", "sys1", [{"type": "text", "text": "Here is the failing output:"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}])
    s.assistant("c1", "u2", "msg_03", [{"type": "text", "text": "The screenshot shows the same failure."}], "req_03", usage(5, 20, 0, 4500))
    # A rewind: the first follow-up and its answer are abandoned for an edited prompt.
    s.user("u3", "c1", "Now also add a test")
    s.assistant("d1", "u3", "msg_04", [{"type": "text", "text": "Adding a test."}], "req_04", usage(2, 6, 0, 4600))
    s.user("u3b", "c1", "Now add a regression test for « ünïcode » instead")
    s.assistant("e1", "u3b", "msg_05", [{"type": "tool_use", "id": "toolu_05", "name": "Edit", "input": {"file_path": "tests/parse.rs", "old_string": "", "new_string": "#[test]\nfn unicode() {}"}}],
                "req_05", usage(2, 40, 50, 4600))
    s.result("r5", "e1", "toolu_05", "The file tests/parse.rs has been updated.")
    # Sidechain records inside the session file, as older versions wrote them.
    s.user("s1", None, "Sidechain: list the test files", sidechain=True)
    s.assistant("s2", "s1", "msg_06", [{"type": "text", "text": "tests/parse.rs"}], "req_06", usage(1, 3, 0, 900), sidechain=True, model="claude-haiku-4-5")
    r, tail = s.base("cb", None)
    r.update({"logicalParentUuid": "r5", "type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "isMeta": False, "level": "info",
              "compactMetadata": {"trigger": "auto", "preTokens": 170251}}); r.update(tail); s.records.append(r)
    s.user("cs", "cb", "This session is being continued from a previous conversation. Summary: the parser now handles unicode.", isCompactSummary=True, isVisibleInTranscriptOnly=True)
    s.other({"type": "queue-operation", "operation": "enqueue", "timestamp": ts(90), "sessionId": S, "content": "also check the docs"})
    s.other({"type": "custom-title", "customTitle": "Fix the unicode parser bug", "sessionId": S})
    r, tail = s.base("at1", "cs")
    r.update({"type": "attachment", "attachment": {"type": "file", "filename": "notes.md", "content": "todo: docs"}}); r.update(tail); s.records.append(r)
    r, tail = s.base("m1", "at1")
    r.update({"type": "mystery-record", "payload": {"kind": "from a future version", "n": 1}}); r.update(tail); s.records.append(r)
    # No requestId: ccusage counts each record (no de-duplication key).
    s.assistant("f1", "m1", "msg_07", [{"type": "text", "text": "Checking the docs."}], None, usage(1, 5, 0, 100))
    s.assistant("f2", "f1", "msg_07", [{"type": "tool_use", "id": "toolu_07", "name": "Grep", "input": {"pattern": "parse"}}], None, usage(1, 5, 0, 100))
    s.result("r7", "f2", "toolu_07", "docs/parse.md:3: parse() reads bytes")
    s.user("u4", "r7", [{"type": "text", "text": "<command-name>/cost</command-name>"}], isMeta=True)
    s.user("u5", "u4", "thanks")
    s.assistant("g1", "u5", "msg_08", "You're welcome.", "req_08", usage(1, 4, 0, 5000), model="claude-sonnet-4-5-20250929")
    return s


def subagent() -> Session:
    s = Session(S, agent="b1f2c3d")
    s.user("sa1", None, "Find every caller of parse().")
    s.assistant("sa2", "sa1", "msg_s1", [{"type": "text", "text": "Searching."}], "req_s1", usage(3, 10, 500, 0), model="claude-sonnet-4-5-20250929")
    s.assistant("sa3", "sa2", "msg_s1", [{"type": "tool_use", "id": "toolu_s1", "name": "Grep", "input": {"pattern": "parse\\(", "path": "src"}}], "req_s1", usage(3, 10, 500, 0), model="claude-sonnet-4-5-20250929")
    s.result("sa4", "sa3", "toolu_s1", "src/main.rs:4\nsrc/lib.rs:12")
    s.assistant("sa5", "sa4", "msg_s2", [{"type": "text", "text": "parse() is called from main.rs and lib.rs."}], "req_s2", usage(2, 12, 40, 520), model="claude-sonnet-4-5-20250929")
    return s


def older() -> tuple[Session, Session]:
    m = Session(S2)
    m.user("o1", None, "Summarise the repo")
    m.assistant("o2", "o1", "msg_o1", [{"type": "tool_use", "id": "toolu_o1", "name": "Task", "input": {"description": "Summarise", "prompt": "Read README.md and summarise it."}}], "req_o1")
    m.result("o3", "o2", "toolu_o1", [{"type": "text", "text": "A parser for traces."}], tool_use_result={"status": "completed", "agentId": "c9d8e7f"})
    m.assistant("o4", "o3", "msg_o2", [{"type": "text", "text": "It is a parser for traces."}], "req_o2")
    a = Session(S2, agent="c9d8e7f")
    a.user("oa1", None, "Read README.md and summarise it.")
    a.assistant("oa2", "oa1", "msg_oa1", [{"type": "text", "text": "A parser for traces."}], "req_oa1", model="claude-haiku-4-5")
    return m, a


def main() -> None:
    main_session().write(OUT / "session" / f"{S}.jsonl")
    subagent().write(OUT / "session" / S / "subagents" / "agent-b1f2c3d.jsonl")
    # The shape Claude Code 2.1.x writes beside a sub-agent (agentType, description,
    # toolUseId, spawnDepth; seen in public projects' fixtures), plus a field of a
    # future version that must be kept.
    meta = {"agentType": "Explore", "description": "Find parse() callers", "toolUseId": "toolu_03", "spawnDepth": 1, "someFutureField": "kept"}
    (OUT / "session" / S / "subagents" / "agent-b1f2c3d.meta.json").write_text(json.dumps(meta) + "\n")
    m, a = older()
    m.write(OUT / "older" / f"{S2}.jsonl")
    a.write(OUT / "older" / "agent-c9d8e7f.jsonl")


if __name__ == "__main__":
    main()
