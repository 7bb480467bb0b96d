//! `yaml.dump(value, width=float("inf"))` of PyYAML 6.0, for the values
//! Docent dumps (dicts, lists, str, int, float, bool, None).
//!
//! A port of the parts of PyYAML's Representer, Serializer and pure-Python
//! Emitter that such a dump goes through, with its defaults: keys sorted,
//! block style (`default_flow_style=False`; only empty collections are flow),
//! indent 2, `allow_unicode=False` (every non-ASCII character is escaped in a
//! double-quoted scalar), no line folding (infinite width). A string that
//! would read back as another type (`yes`, `1.0`, `null`, `2024-01-01`, …) is
//! quoted; the quoting style follows the emitter's scalar analysis.

use std::sync::OnceLock;

use super::pattern::{alt, class, lit, opt, plus, seq, star, P};
use crate::agentrun::py::{float_repr, Py};

/// `yaml.dump(value, width=inf)`.
pub fn dump(value: &Py) -> String {
    let mut e = Emitter { out: String::new(), column: 0, indent: None, indents: Vec::new(), whitespace: true, indention: true, flow_level: 0 };
    e.node(value, Ctx::default());
    // DocumentEnd: a line break after the root.
    e.write_indent();
    e.out
}

#[derive(Default, Clone, Copy)]
struct Ctx {
    mapping: bool,
    simple_key: bool,
}

struct Emitter {
    out: String,
    /// In characters, as Python counts `len(data)`.
    column: usize,
    indent: Option<usize>,
    indents: Vec<Option<usize>>,
    whitespace: bool,
    indention: bool,
    flow_level: usize,
}

/// A scalar event: its text and whether a plain rendering would resolve back to its tag.
struct Scalar {
    text: String,
    implicit_plain: bool,
}

fn scalar_of(v: &Py) -> Option<Scalar> {
    let text = match v {
        Py::None => "null".to_string(),
        Py::Bool(b) => if *b { "true" } else { "false" }.to_string(),
        Py::Int(i) => i.clone(),
        Py::Float(f) => float_text(*f),
        Py::Str(s) => return Some(Scalar { implicit_plain: !resolves_to_non_str(s), text: s.clone() }),
        Py::List(_) | Py::Dict(_) => return None,
    };
    Some(Scalar { text, implicit_plain: true })
}

/// `represent_float`: `.inf`/`.nan`, else `repr().lower()` with `.0` before a bare exponent.
fn float_text(f: f64) -> String {
    if f.is_nan() {
        return ".nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_string();
    }
    let r = float_repr(f).to_lowercase();
    if !r.contains('.') && r.contains('e') {
        r.replacen('e', ".0e", 1)
    } else {
        r
    }
}

impl Emitter {
    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        match self.indent {
            None => self.indent = Some(if flow { 2 } else { 0 }),
            Some(i) if !indentless => self.indent = Some(i + 2),
            Some(_) => {}
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().flatten();
    }

    fn node(&mut self, v: &Py, ctx: Ctx) {
        match v {
            Py::List(items) if items.is_empty() => self.empty_flow('[', ']'),
            Py::Dict(items) if items.is_empty() => self.empty_flow('{', '}'),
            Py::List(items) => self.block_sequence(items, ctx),
            Py::Dict(items) => self.block_mapping(items),
            scalar => {
                if let Some(s) = scalar_of(scalar) {
                    self.increase_indent(true, false);
                    self.scalar(&s, ctx);
                    self.pop_indent();
                }
            }
        }
    }

    fn empty_flow(&mut self, open: char, close: char) {
        self.write_indicator(&open.to_string(), true, true, false);
        self.flow_level += 1;
        self.increase_indent(true, false);
        self.pop_indent();
        self.flow_level -= 1;
        self.write_indicator(&close.to_string(), false, false, false);
    }

    fn block_sequence(&mut self, items: &[Py], ctx: Ctx) {
        let indentless = ctx.mapping && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Ctx::default());
        }
        self.pop_indent();
    }

    fn block_mapping(&mut self, items: &[(String, Py)]) {
        self.increase_indent(false, false);
        // Representer: sorted(mapping.items()); keys are str, compared by code point.
        let mut sorted: Vec<&(String, Py)> = items.iter().collect();
        crate::sort::by(&mut sorted, |a, b| a.0.cmp(&b.0));
        for (key, value) in sorted {
            self.write_indent();
            let k = Scalar { implicit_plain: !resolves_to_non_str(key), text: key.clone() };
            let analysis = analyze(&k.text);
            // check_simple_key counts the prepared tag too (`!!str`, 5 chars):
            // the serializer always sets the tag, even when it is implicit.
            let simple = k.text.chars().count() + 5 < 128 && !analysis.empty && !analysis.multiline;
            if simple {
                self.increase_indent(true, false);
                self.scalar(&k, Ctx { mapping: true, simple_key: true });
                self.pop_indent();
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.increase_indent(true, false);
                self.scalar(&k, Ctx { mapping: true, simple_key: false });
                self.pop_indent();
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(value, Ctx { mapping: true, simple_key: false });
        }
        self.pop_indent();
    }

    fn scalar(&mut self, s: &Scalar, ctx: Ctx) {
        let a = analyze(&s.text);
        let plain_ok = if self.flow_level > 0 { a.allow_flow_plain } else { a.allow_block_plain };
        if s.implicit_plain && !(ctx.simple_key && (a.empty || a.multiline)) && plain_ok {
            self.write_plain(&s.text);
        } else if a.allow_single_quoted && !(ctx.simple_key && a.multiline) {
            self.write_single_quoted(&s.text);
        } else {
            self.write_double_quoted(&s.text);
        }
    }

    fn write(&mut self, data: &str) {
        self.column += data.chars().count();
        self.out.push_str(data);
    }

    fn write_indicator(&mut self, indicator: &str, need_whitespace: bool, whitespace: bool, indention: bool) {
        if self.whitespace || !need_whitespace {
            self.write(indicator);
        } else {
            self.write(&format!(" {indicator}"));
        }
        self.whitespace = whitespace;
        self.indention = self.indention && indention;
    }

    fn write_indent(&mut self) {
        let indent = self.indent.unwrap_or(0);
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.write_line_break("\n");
        }
        if self.column < indent {
            self.whitespace = true;
            let pad = " ".repeat(indent - self.column);
            self.write(&pad);
        }
    }

    fn write_line_break(&mut self, data: &str) {
        self.whitespace = true;
        self.indention = true;
        self.out.push_str(data);
        self.column = 0;
    }

    fn write_plain(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if !self.whitespace {
            self.write(" ");
        }
        self.whitespace = false;
        self.indention = false;
        // Plain scalars never hold line breaks, and the width never folds them.
        self.write(text);
    }

    fn write_single_quoted(&mut self, text: &str) {
        self.write_indicator("'", true, false, false);
        let chars: Vec<char> = text.chars().collect();
        let (mut spaces, mut breaks) = (false, false);
        let (mut start, mut end) = (0usize, 0usize);
        while end <= chars.len() {
            let ch = chars.get(end).copied();
            if spaces {
                if ch != Some(' ') {
                    let data: String = chars.get(start..end).unwrap_or_default().iter().collect();
                    self.write(&data);
                    start = end;
                }
            } else if breaks {
                if !ch.is_some_and(is_break) {
                    if chars.get(start) == Some(&'\n') {
                        self.write_line_break("\n");
                    }
                    for br in chars.get(start..end).unwrap_or_default() {
                        let b = br.to_string();
                        self.write_line_break(&b);
                    }
                    self.write_indent();
                    start = end;
                }
            } else if (ch.is_none() || ch.is_some_and(|c| c == ' ' || is_break(c) || c == '\'')) && start < end {
                let data: String = chars.get(start..end).unwrap_or_default().iter().collect();
                self.write(&data);
                start = end;
            }
            if ch == Some('\'') {
                self.write("''");
                start = end + 1;
            }
            if let Some(c) = ch {
                spaces = c == ' ';
                breaks = is_break(c);
            }
            end += 1;
        }
        self.write_indicator("'", false, false, false);
    }

    fn write_double_quoted(&mut self, text: &str) {
        self.write_indicator("\"", true, false, false);
        let mut run = String::new();
        for ch in text.chars() {
            let plain = ('\x20'..='\x7e').contains(&ch) && ch != '"' && ch != '\\';
            if plain {
                run.push(ch);
                continue;
            }
            if !run.is_empty() {
                let data = std::mem::take(&mut run);
                self.write(&data);
            }
            let escaped = match ch {
                '\0' => "\\0".to_string(),
                '\x07' => "\\a".to_string(),
                '\x08' => "\\b".to_string(),
                '\t' => "\\t".to_string(),
                '\n' => "\\n".to_string(),
                '\x0b' => "\\v".to_string(),
                '\x0c' => "\\f".to_string(),
                '\r' => "\\r".to_string(),
                '\x1b' => "\\e".to_string(),
                '"' => "\\\"".to_string(),
                '\\' => "\\\\".to_string(),
                '\u{85}' => "\\N".to_string(),
                '\u{a0}' => "\\_".to_string(),
                '\u{2028}' => "\\L".to_string(),
                '\u{2029}' => "\\P".to_string(),
                c if (c as u32) <= 0xff => format!("\\x{:02X}", c as u32),
                c if (c as u32) <= 0xffff => format!("\\u{:04X}", c as u32),
                c => format!("\\U{:08X}", c as u32),
            };
            self.write(&escaped);
        }
        if !run.is_empty() {
            self.write(&run);
        }
        self.write_indicator("\"", false, false, false);
    }
}

fn is_break(c: char) -> bool {
    matches!(c, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn is_space_or_break(c: char) -> bool {
    matches!(c, '\0' | ' ' | '\t' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

struct Analysis {
    empty: bool,
    multiline: bool,
    allow_flow_plain: bool,
    allow_block_plain: bool,
    allow_single_quoted: bool,
}

/// `Emitter.analyze_scalar` with `allow_unicode=False`.
fn analyze(scalar: &str) -> Analysis {
    if scalar.is_empty() {
        return Analysis { empty: true, multiline: false, allow_flow_plain: false, allow_block_plain: true, allow_single_quoted: true };
    }
    let chars: Vec<char> = scalar.chars().collect();
    let n = chars.len();
    let (mut block_indicators, mut flow_indicators, mut line_breaks, mut special) = (false, false, false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) = (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    if scalar.starts_with("---") || scalar.starts_with("...") {
        block_indicators = true;
        flow_indicators = true;
    }
    let mut preceded_by_ws = true;
    let mut followed_by_ws = n == 1 || chars.get(1).is_some_and(|c| is_space_or_break(*c));
    let (mut previous_space, mut previous_break) = (false, false);
    for (index, &ch) in chars.iter().enumerate() {
        if index == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(ch) {
                flow_indicators = true;
                block_indicators = true;
            }
            if ch == '?' || ch == ':' {
                flow_indicators = true;
                if followed_by_ws {
                    block_indicators = true;
                }
            }
            if ch == '-' && followed_by_ws {
                flow_indicators = true;
                block_indicators = true;
            }
        } else {
            if ",?[]{}".contains(ch) {
                flow_indicators = true;
            }
            if ch == ':' {
                flow_indicators = true;
                if followed_by_ws {
                    block_indicators = true;
                }
            }
            if ch == '#' && preceded_by_ws {
                flow_indicators = true;
                block_indicators = true;
            }
        }
        if is_break(ch) {
            line_breaks = true;
        }
        if !(ch == '\n' || ('\x20'..='\x7e').contains(&ch)) {
            special = true;
        }
        if ch == ' ' {
            if index == 0 {
                leading_space = true;
            }
            if index == n - 1 {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(ch) {
            if index == 0 {
                leading_break = true;
            }
            if index == n - 1 {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_ws = is_space_or_break(ch);
        followed_by_ws = index + 2 >= n || chars.get(index + 2).is_some_and(|c| is_space_or_break(*c));
    }
    let (mut flow_plain, mut block_plain, mut single) = (true, true, true);
    if leading_space || leading_break || trailing_space || trailing_break {
        flow_plain = false;
        block_plain = false;
    }
    if break_space {
        flow_plain = false;
        block_plain = false;
        single = false;
    }
    if space_break || special {
        flow_plain = false;
        block_plain = false;
        single = false;
    }
    if line_breaks {
        flow_plain = false;
        block_plain = false;
    }
    if flow_indicators {
        flow_plain = false;
    }
    if block_indicators {
        block_plain = false;
    }
    Analysis { empty: false, multiline: line_breaks, allow_flow_plain: flow_plain, allow_block_plain: block_plain, allow_single_quoted: single }
}

/// True when PyYAML's implicit resolvers read `s` (plain) as something other
/// than a string: bool, int, float, null, timestamp, merge `<<`, value `=`.
fn resolves_to_non_str(s: &str) -> bool {
    // PyYAML picks resolvers by the first character; no resolver starts otherwise.
    if s.chars().next().is_some_and(|c| !"yYnNtTfFoO-+0123456789.<~=!&*".contains(c)) {
        return false;
    }
    let chars: Vec<char> = s.chars().collect();
    resolvers().iter().any(|p| p.python_match(&chars))
}

fn resolvers() -> &'static [P] {
    static RESOLVERS: OnceLock<Vec<P>> = OnceLock::new();
    RESOLVERS.get_or_init(build_resolvers)
}

fn digit(c: char) -> bool {
    c.is_ascii_digit()
}
fn digit_(c: char) -> bool {
    c.is_ascii_digit() || c == '_'
}
fn sign(c: char) -> bool {
    c == '-' || c == '+'
}

/// `(?::[0-5]?[0-9])+`
fn sexagesimal() -> P {
    plus(seq(vec![lit(":"), opt(class(|c| ('0'..='5').contains(&c))), class(digit)]))
}

fn words(ws: &[&'static str]) -> P {
    alt(ws.iter().map(|w| lit(w)).collect())
}

fn build_resolvers() -> Vec<P> {
    let exp = || opt(seq(vec![class(|c| c == 'e' || c == 'E'), class(sign), plus(class(digit))]));
    let bool_ = words(&["yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off", "Off", "OFF"]);
    let float = alt(vec![
        seq(vec![opt(class(sign)), class(digit), star(class(digit_)), lit("."), star(class(digit_)), exp()]),
        seq(vec![lit("."), class(digit), star(class(digit_)), exp()]),
        seq(vec![opt(class(sign)), class(digit), star(class(digit_)), sexagesimal(), lit("."), star(class(digit_))]),
        seq(vec![opt(class(sign)), lit("."), words(&["inf", "Inf", "INF"])]),
        seq(vec![lit("."), words(&["nan", "NaN", "NAN"])]),
    ]);
    let int = seq(vec![
        opt(class(sign)),
        alt(vec![
            seq(vec![lit("0b"), plus(class(|c| c == '0' || c == '1' || c == '_'))]),
            seq(vec![lit("0"), plus(class(|c| ('0'..='7').contains(&c) || c == '_'))]),
            lit("0"),
            seq(vec![class(|c| ('1'..='9').contains(&c)), star(class(digit_))]),
            seq(vec![lit("0x"), plus(class(|c| c.is_ascii_hexdigit() || c == '_'))]),
            seq(vec![class(|c| ('1'..='9').contains(&c)), star(class(digit_)), sexagesimal()]),
        ]),
    ]);
    let null = words(&["~", "null", "Null", "NULL", ""]);
    let d = || class(digit);
    let d12 = || seq(vec![class(digit), opt(class(digit))]);
    let ws = || class(|c| c == ' ' || c == '\t');
    let timestamp = alt(vec![
        seq(vec![d(), d(), d(), d(), lit("-"), d(), d(), lit("-"), d(), d()]),
        seq(vec![
            d(),
            d(),
            d(),
            d(),
            lit("-"),
            d12(),
            lit("-"),
            d12(),
            alt(vec![class(|c| c == 'T' || c == 't'), plus(ws())]),
            d12(),
            lit(":"),
            d(),
            d(),
            lit(":"),
            d(),
            d(),
            opt(seq(vec![lit("."), star(d())])),
            opt(seq(vec![star(ws()), alt(vec![lit("Z"), seq(vec![class(sign), d12(), opt(seq(vec![lit(":"), d(), d()]))])])])),
        ]),
    ]);
    vec![bool_, float, int, lit("<<"), null, timestamp, lit("="), words(&["!", "&", "*"])]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> String {
        dump(&Py::Dict(vec![("k".to_string(), Py::Str(v.to_string()))]))
    }

    #[test]
    fn quoting() {
        assert_eq!(s("yes"), "k: 'yes'\n");
        assert_eq!(s("1:20"), "k: '1:20'\n");
        assert_eq!(s("1e3"), "k: 1e3\n");
        assert_eq!(s("1.0e+3"), "k: '1.0e+3'\n");
        assert_eq!(s("0o17"), "k: 0o17\n");
        assert_eq!(s("a\nb"), "k: 'a\n\n  b'\n");
        assert_eq!(s("é"), "k: \"\\xE9\"\n");
        assert_eq!(dump(&Py::Dict(vec![])), "{}\n");
    }
}
