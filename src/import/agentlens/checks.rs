//! The field checks of an AgentLens session and event: pydantic's lax mode
//! on the models of `scripts/oracle/agentlens/models.py`, by hand.

use serde_json::{Map, Value};

use super::record::{
    Call, Event, CALL_DURATION_MS, CALL_TIMESTAMP, DECISION_TRACE, DURATION_MS, EVENT_ID, EVENT_TYPE, INPUT_DATA, MODEL, OUTPUT_DATA, SESSION_ID, TIMESTAMP,
    TOKENS_IN, TOKENS_OUT, TOOL_CALL, TOOL_CALL_ID, TOOL_INPUT, TOOL_NAME, TOOL_OUTPUT,
};
use super::{key, lax, Ctx, Reader, Tokens, EVENT_TYPES, SESSION_STATUSES};
use crate::diagnostic::Severity::{Error, Warning};
use crate::import::json_type;
use crate::json::{render_path, Seg};

impl Reader<'_, '_> {
    pub(super) fn session_fields(&mut self, f: &Map<String, Value>, ctx: &Ctx) {
        for k in ["session_id", "agent_name"] {
            if let Some(v) = f.get(k).filter(|v| !v.is_string()) {
                self.session_diag(ctx, Error, "field-type", format!("`{k}` must be a string, found {}", json_type(v)), &[key(k)]);
            }
        }
        if let Some(v) = f.get("started_at") {
            if let Err(e) = lax::datetime(v) {
                self.session_diag(ctx, Error, "timestamp-invalid", format!("`started_at`: {}", e.message), &[key("started_at")]);
            }
        }
        if let Some(v) = f.get("ended_at").filter(|v| !v.is_null()) {
            if let Err(e) = lax::datetime(v) {
                self.session_diag(ctx, Error, "timestamp-invalid", format!("`ended_at`: {}", e.message), &[key("ended_at")]);
            }
        }
        if let Some(v) = f.get("metadata").filter(|v| !v.is_object()) {
            self.session_diag(ctx, Error, "field-type", format!("`metadata` must be an object, found {}", json_type(v)), &[key("metadata")]);
        }
        for k in ["total_tokens_in", "total_tokens_out"] {
            if let Some(Err(why)) = f.get(k).map(lax::integer) {
                self.session_diag(ctx, Error, "field-type", format!("`{k}`: {why}"), &[key(k)]);
            }
        }
        if let Some(v) = f.get("status") {
            if !v.as_str().is_some_and(|s| SESSION_STATUSES.contains(&s)) {
                self.session_diag(
                    ctx,
                    Error,
                    "invalid-value",
                    format!("`status` must be one of {}, found {v}", SESSION_STATUSES.join(", ")),
                    &[key("status")],
                );
            }
        }
    }

    /// Warns when a session's token totals are not the sum of its events'.
    pub(super) fn check_totals(&mut self, f: &Map<String, Value>, tokens: &Tokens, ctx: &Ctx) {
        if !tokens.exact {
            return;
        }
        for (total_key, sum, event_key) in
            [("total_tokens_in", tokens.tokens_in, "tokens_in"), ("total_tokens_out", tokens.tokens_out, "tokens_out")]
        {
            let total = match f.get(total_key) {
                None => Some(0),
                Some(v) => lax::integer(v).ok().flatten(),
            };
            let Some(total) = total else { continue };
            if total != sum {
                let what = if f.contains_key(total_key) { format!("`{total_key}` is {total}") } else { format!("`{total_key}` is absent (0)") };
                self.session_diag(
                    ctx,
                    Warning,
                    "token-total-mismatch",
                    format!("{what}, but the session's events add up to {sum} `{event_key}`"),
                    &[key(total_key)],
                );
            }
        }
    }

    /// Validates an event's fields (`call`: its `tool_call` object's, when
    /// it is one); returns its `event_type` when valid.
    pub(super) fn check_event(&mut self, o: &Event<'_>, call: Option<&Call<'_>>, ctx: &Ctx, tokens: &mut Tokens) -> Option<String> {
        for (k, name) in [(EVENT_ID, "event_id"), (SESSION_ID, "session_id")] {
            if let Some(v) = o.get(k).filter(|v| !v.is_string()) {
                self.type_error(ctx, &[key(name)], "a string", v);
            }
        }
        let event_type = match o.get(EVENT_TYPE) {
            None => Some("generic".to_string()),
            Some(Value::String(s)) if EVENT_TYPES.contains(&s.as_str()) => Some(s.clone()),
            Some(other) => {
                self.d(ctx, Error, "invalid-value", format!("`event_type` must be one of {}, found {other}", EVENT_TYPES.join(", ")), &[key("event_type")]);
                None
            }
        };
        self.datetime(o.get(TIMESTAMP), ctx, &[key("timestamp")]);
        for (k, name) in [(INPUT_DATA, "input_data"), (OUTPUT_DATA, "output_data")] {
            if let Some(v) = o.get(k).filter(|v| !v.is_null() && !v.is_object()) {
                self.type_error(ctx, &[key(name)], "an object (or null)", v);
            }
        }
        if let Some(v) = o.get(MODEL).filter(|v| !v.is_null() && !v.is_string()) {
            self.type_error(ctx, &[key("model")], "a string (or null)", v);
        }
        for (k, name, sum) in [(TOKENS_IN, "tokens_in", &mut tokens.tokens_in), (TOKENS_OUT, "tokens_out", &mut tokens.tokens_out)] {
            match o.get(k).map(lax::integer) {
                None => {}
                Some(Ok(Some(n))) => *sum = sum.saturating_add(n),
                Some(Ok(None)) => tokens.exact = false,
                Some(Err(why)) => {
                    tokens.exact = false;
                    self.d(ctx, Error, "field-type", format!("`{name}`: {why}"), &[key(name)]);
                }
            }
        }
        self.optional_float(o.get(DURATION_MS), "duration_ms", ctx, &[]);
        match (o.get(TOOL_CALL), call) {
            (None | Some(Value::Null), _) => {}
            (Some(Value::Object(_)), Some(c)) => self.check_tool_call(c, ctx),
            (Some(other), _) => self.type_error(ctx, &[key("tool_call")], "a tool call object with `tool_name` (or null)", other),
        }
        match o.get(DECISION_TRACE) {
            None | Some(Value::Null) => {}
            Some(Value::Object(t)) => self.check_decision(t, ctx),
            Some(other) => self.type_error(ctx, &[key("decision_trace")], "a decision trace object (or null)", other),
        }
        event_type
    }

    fn check_tool_call(&mut self, c: &Call<'_>, ctx: &Ctx) {
        let at = |k: &str| vec![key("tool_call"), key(k)];
        match c.get(TOOL_NAME) {
            Some(Value::String(_)) => {}
            None => self.d(ctx, Error, "field-missing", "`tool_call.tool_name` is required".to_string(), &at("tool_name")),
            Some(other) => self.type_error(ctx, &at("tool_name"), "a string", other),
        }
        if let Some(v) = c.get(TOOL_CALL_ID).filter(|v| !v.is_string()) {
            self.type_error(ctx, &at("tool_call_id"), "a string", v);
        }
        if let Some(v) = c.get(TOOL_INPUT).filter(|v| !v.is_object()) {
            self.type_error(ctx, &at("tool_input"), "an object", v);
        }
        if let Some(v) = c.get(TOOL_OUTPUT).filter(|v| !v.is_null() && !v.is_object()) {
            self.type_error(ctx, &at("tool_output"), "an object (or null)", v);
        }
        self.datetime(c.get(CALL_TIMESTAMP), ctx, &at("timestamp"));
        self.optional_float(c.get(CALL_DURATION_MS), "duration_ms", ctx, &[key("tool_call")]);
    }

    fn check_decision(&mut self, t: &Map<String, Value>, ctx: &Ctx) {
        let at = |k: &str| vec![key("decision_trace"), key(k)];
        for k in ["trace_id", "reasoning"] {
            if let Some(v) = t.get(k).filter(|v| !v.is_string()) {
                self.type_error(ctx, &at(k), "a string", v);
            }
        }
        if let Some(Err(why)) = t.get("step").map(lax::integer) {
            self.d(ctx, Error, "field-type", format!("`decision_trace.step`: {why}"), &at("step"));
        }
        match t.get("alternatives_considered") {
            None => {}
            Some(Value::Array(items)) => {
                // Where the items are, found once for all of them (a path
                // looked up per item would scan the event once per item).
                let (b, ends) = (self.b, self.ends);
                let mut starts = None;
                for (i, item) in items.iter().enumerate() {
                    if !item.is_string() {
                        let starts = starts.get_or_insert_with(|| crate::json::path::item_starts(b, ctx.range.start, &at("alternatives_considered"), ends));
                        let mut segs = at("alternatives_considered");
                        segs.push(Seg::Index(i));
                        let what = render_path("", &segs);
                        let message = format!("`{}` must be a string, found {}", what.trim_start_matches('.'), json_type(item));
                        let offset = starts.get(i).copied().unwrap_or(ctx.range.start);
                        self.out.diag(Error, "field-type", message, render_path(&ctx.path, &segs), offset, Some(ctx.index));
                    }
                }
            }
            Some(other) => self.type_error(ctx, &at("alternatives_considered"), "a list of strings", other),
        }
        match t.get("confidence").filter(|v| !v.is_null()).map(lax::float) {
            None => {}
            Some(Ok(c)) if (0.0..=1.0).contains(&c) => {}
            Some(Ok(c)) => self.d(
                ctx,
                Error,
                "out-of-range",
                format!("`decision_trace.confidence` must be between 0.0 and 1.0, found {c}"),
                &at("confidence"),
            ),
            Some(Err(why)) => self.d(ctx, Error, "field-type", format!("`decision_trace.confidence`: {why}"), &at("confidence")),
        }
        self.datetime(t.get("timestamp"), ctx, &at("timestamp"));
    }

    fn type_error(&mut self, ctx: &Ctx, segs: &[Seg], expected: &str, found: &Value) {
        let what = render_path("", segs);
        let what = what.trim_start_matches('.');
        self.d(ctx, Error, "field-type", format!("`{what}` must be {expected}, found {}", json_type(found)), segs);
    }

    /// An optional `datetime` (naive values allowed; absent means "now").
    fn datetime(&mut self, v: Option<&Value>, ctx: &Ctx, at: &[Seg]) {
        let Some(v) = v else { return };
        if let Err(e) = lax::datetime(v) {
            let what = render_path("", at);
            self.d(ctx, Error, "timestamp-invalid", format!("`{}`: {}", what.trim_start_matches('.'), e.message), at);
        }
    }

    fn optional_float(&mut self, v: Option<&Value>, k: &str, ctx: &Ctx, prefix: &[Seg]) {
        if let Some(Err(why)) = v.filter(|v| !v.is_null()).map(lax::float) {
            let mut at = prefix.to_vec();
            at.push(key(k));
            let what = render_path("", &at);
            self.d(ctx, Error, "field-type", format!("`{}`: {why}", what.trim_start_matches('.')), &at);
        }
    }
}
