//! The query language's syntax: words, phrases, regexes, fields, `-`, `OR`
//! and parentheses, parsed into an expression over terms that each domain
//! (events, runs) then checks against its own fields.

use super::{err, QueryError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Eq,
    Gt,
    Ge,
    Lt,
    Le,
}

impl Op {
    pub(super) fn symbol(self) -> &'static str {
        match self {
            Op::Eq => ":",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Lt => "<",
            Op::Le => "<=",
        }
    }
}

/// A term as written, before it is checked against a domain's fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Atom {
    /// A free word or a `"phrase"`.
    Text(String),
    /// The pattern between the slashes.
    Regex(String),
    Field { name: String, op: Op, value: String, value_column: usize },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Open,
    Close,
    Or,
    Not,
    Atom(Atom),
}

/// A boolean expression over terms `T`.
#[derive(Debug, Clone)]
pub(super) enum Expr<T> {
    All,
    And(Vec<Expr<T>>),
    Or(Vec<Expr<T>>),
    Not(Box<Expr<T>>),
    Term(T),
}

struct Lexer {
    chars: Vec<char>,
    i: usize,
}

impl Lexer {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    /// Reads `"…"` starting at the opening quote; `\"` and `\\` are escapes.
    fn quoted(&mut self) -> Result<String, QueryError> {
        let open = self.i + 1;
        self.i += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return err(open, "unterminated phrase: add the closing `\"`"),
                Some('"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some('\\') if matches!(self.chars.get(self.i + 1), Some('"') | Some('\\')) => {
                    out.extend(self.chars.get(self.i + 1));
                    self.i += 2;
                }
                Some(c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// Reads `/…/` starting at the opening slash; `\/` is a slash.
    fn regex(&mut self) -> Result<String, QueryError> {
        let open = self.i + 1;
        self.i += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return err(open, "unterminated regex: add the closing `/`"),
                Some('/') => {
                    self.i += 1;
                    if out.is_empty() {
                        return err(open, "empty regex `//`");
                    }
                    return Ok(out);
                }
                Some('\\') if self.chars.get(self.i + 1) == Some(&'/') => {
                    out.push('/');
                    self.i += 2;
                }
                Some('\\') => {
                    out.push('\\');
                    out.extend(self.chars.get(self.i + 1));
                    self.i += 2;
                }
                Some(c) => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// Reads to the end of a word. A `)` ends it when it closes a group,
    /// not when it closes a `(` of the word itself (`f(x)` is one word). A
    /// `(` of the word left open is an error, as it is anywhere else
    /// (`role:(` is no more a value than `role:)` is).
    fn bare(&mut self) -> Result<String, QueryError> {
        let start = self.i;
        let mut open: Vec<usize> = Vec::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || (c == ')' && open.is_empty()) {
                break;
            }
            match c {
                '(' => open.push(self.i + 1),
                ')' => drop(open.pop()),
                _ => {}
            }
            self.i += 1;
        }
        if let Some(&column) = open.last() {
            return err(column, "unclosed `(`: add a `)`, or quote the term to search for it as text");
        }
        Ok(self.chars.get(start..self.i).unwrap_or(&[]).iter().collect())
    }

    /// A word, or `field:value` when it starts with a field name and a colon.
    fn word(&mut self) -> Result<Atom, QueryError> {
        let start = self.i;
        let mut j = self.i;
        while self.chars.get(j).is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == '.') {
            j += 1;
        }
        let starts_alpha = self.chars.get(start).is_some_and(|c| c.is_alphabetic());
        let is_field = starts_alpha
            && j > start
            && self.chars.get(j) == Some(&':')
            // `http://…` is text, not a field.
            && !(self.chars.get(j + 1) == Some(&'/') && self.chars.get(j + 2) == Some(&'/'));
        if !is_field {
            return Ok(Atom::Text(self.bare()?));
        }
        let name: String = self.chars.get(start..j).unwrap_or(&[]).iter().collect();
        self.i = j + 1;
        let op = match (self.peek(), self.chars.get(self.i + 1)) {
            (Some('>'), Some('=')) => Op::Ge,
            (Some('<'), Some('=')) => Op::Le,
            (Some('>'), _) => Op::Gt,
            (Some('<'), _) => Op::Lt,
            _ => Op::Eq,
        };
        self.i += match op {
            Op::Eq => 0,
            Op::Gt | Op::Lt => 1,
            Op::Ge | Op::Le => 2,
        };
        let value_column = self.i + 1;
        let value = if self.peek() == Some('"') { self.quoted()? } else { self.bare()? };
        if value.is_empty() {
            return err(value_column, format!("`{name}{}` needs a value", op.symbol()));
        }
        Ok(Atom::Field { name, op, value, value_column })
    }

    fn tokens(mut self) -> Result<Vec<(Tok, usize)>, QueryError> {
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            let column = self.i + 1;
            if c.is_whitespace() {
                self.i += 1;
                continue;
            }
            let tok = match c {
                '(' => {
                    self.i += 1;
                    Tok::Open
                }
                ')' => {
                    self.i += 1;
                    Tok::Close
                }
                '-' => {
                    self.i += 1;
                    if self.peek().is_none_or(|c| c.is_whitespace()) {
                        return err(column, "`-` must be followed by a term to exclude");
                    }
                    Tok::Not
                }
                '"' => Tok::Atom(Atom::Text(self.quoted()?)),
                '/' => Tok::Atom(Atom::Regex(self.regex()?)),
                _ => match self.word()? {
                    Atom::Text(w) if w == "OR" => Tok::Or,
                    a => Tok::Atom(a),
                },
            };
            out.push((tok, column));
        }
        Ok(out)
    }
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    i: usize,
    /// Column just past the end, for errors at the end of the query.
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|(t, _)| t)
    }

    fn column(&self) -> usize {
        self.toks.get(self.i).map(|(_, c)| *c).unwrap_or(self.end)
    }

    fn at_term_start(&self) -> bool {
        matches!(self.peek(), Some(Tok::Open | Tok::Not | Tok::Atom(_)))
    }

    fn or(&mut self) -> Result<Expr<(Atom, usize)>, QueryError> {
        if self.peek() == Some(&Tok::Or) {
            return err(self.column(), "`OR` needs a term before it");
        }
        let mut alts = vec![self.and()?];
        while self.peek() == Some(&Tok::Or) {
            let column = self.column();
            self.i += 1;
            if !self.at_term_start() {
                return err(column, "`OR` needs a term after it");
            }
            alts.push(self.and()?);
        }
        Ok(if alts.len() == 1 { alts.pop().unwrap_or(Expr::All) } else { Expr::Or(alts) })
    }

    fn and(&mut self) -> Result<Expr<(Atom, usize)>, QueryError> {
        let mut all = Vec::new();
        while self.at_term_start() {
            all.push(self.unary()?);
        }
        Ok(if all.len() == 1 { all.pop().unwrap_or(Expr::All) } else { Expr::And(all) })
    }

    fn unary(&mut self) -> Result<Expr<(Atom, usize)>, QueryError> {
        let column = self.column();
        let Some((tok, _)) = self.toks.get(self.i).cloned() else {
            return err(column, "expected a term");
        };
        self.i += 1;
        match tok {
            Tok::Not => {
                if !self.at_term_start() {
                    return err(column, "`-` must be followed by a term to exclude");
                }
                Ok(Expr::Not(Box::new(self.unary()?)))
            }
            Tok::Open => {
                if self.peek() == Some(&Tok::Close) {
                    return err(column, "empty parentheses `()`");
                }
                let inner = self.or()?;
                if self.peek() != Some(&Tok::Close) {
                    return err(column, "unclosed `(`: add a `)`");
                }
                self.i += 1;
                Ok(inner)
            }
            Tok::Atom(a) => Ok(Expr::Term((a, column))),
            Tok::Close | Tok::Or => err(column, "expected a term"),
        }
    }
}

/// Parses the syntax (no field checks): shared by event and run queries.
pub(super) fn parse(query: &str) -> Result<Expr<(Atom, usize)>, QueryError> {
    let lexer = Lexer { chars: query.chars().collect(), i: 0 };
    let end = lexer.chars.len() + 1;
    let toks = lexer.tokens()?;
    if toks.is_empty() {
        return Ok(Expr::All);
    }
    let mut p = Parser { toks, i: 0, end };
    let expr = p.or()?;
    match p.peek() {
        None => Ok(expr),
        Some(Tok::Close) => err(p.column(), "unmatched `)`"),
        Some(_) => err(p.column(), "unexpected term"),
    }
}

/// Checks every term of `expr` with `f` (which knows the domain's fields).
pub(super) fn compile<T>(expr: Expr<(Atom, usize)>, f: &impl Fn(Atom, usize) -> Result<T, QueryError>) -> Result<Expr<T>, QueryError> {
    Ok(match expr {
        Expr::All => Expr::All,
        Expr::And(v) => Expr::And(v.into_iter().map(|e| compile(e, f)).collect::<Result<_, _>>()?),
        Expr::Or(v) => Expr::Or(v.into_iter().map(|e| compile(e, f)).collect::<Result<_, _>>()?),
        Expr::Not(e) => Expr::Not(Box::new(compile(*e, f)?)),
        Expr::Term((a, column)) => Expr::Term(f(a, column)?),
    })
}

impl<T> Expr<T> {
    pub(super) fn eval(&self, test: &mut impl FnMut(&T) -> bool) -> bool {
        match self {
            Expr::All => true,
            Expr::And(v) => v.iter().all(|e| e.eval(test)),
            Expr::Or(v) => v.iter().any(|e| e.eval(test)),
            Expr::Not(e) => !e.eval(test),
            Expr::Term(t) => test(t),
        }
    }

    pub(super) fn any_term(&self, pred: &impl Fn(&T) -> bool) -> bool {
        match self {
            Expr::All => false,
            Expr::And(v) | Expr::Or(v) => v.iter().any(|e| e.any_term(pred)),
            Expr::Not(e) => e.any_term(pred),
            Expr::Term(t) => pred(t),
        }
    }
}

pub(super) fn build_regex(pattern: &str, column: usize) -> Result<regex_lite::Regex, QueryError> {
    // Case-insensitive like the rest of the search; `(?-i)` in the pattern turns it off.
    regex_lite::RegexBuilder::new(pattern)
        .case_insensitive(true)
        // `^` and `$` at line ends: event text holds many lines.
        .multi_line(true)
        .size_limit(1 << 20)
        .build()
        .or_else(|e| err(column, format!("invalid regex: {}", first_line(&e.to_string()))))
}

fn first_line(s: &str) -> &str {
    s.lines().rfind(|l| !l.trim().is_empty()).unwrap_or(s).trim()
}
