//! A reader for the subset of TypeScript that src/wasm/types.d.ts uses:
//! `export interface Name [extends A, B] { field?: Type; method(…): Type }`
//! and `export type Name = Type;`, where a type is a union of primitives,
//! literals, names, `T[]`, tuples, inline object types, `Record<K, V>` and
//! `T["key"]`. Comments are skipped. Anything else is an error naming the
//! place, so a declaration the checker cannot read fails loudly.

use std::collections::BTreeMap;

/// A type expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `string`, `number`, `boolean`, `null`, `unknown`, `any`, `undefined`.
    Prim(String),
    StrLit(String),
    NumLit(f64),
    BoolLit(bool),
    /// An interface or alias of the file, or a built-in such as `Uint8Array`.
    Named(String),
    Array(Box<Ty>),
    Tuple(Vec<Ty>),
    Object(Vec<Field>),
    /// `Record<string, V>`: any keys, each value a `V`.
    Record(Box<Ty>),
    Union(Vec<Ty>),
    /// `T["key"]`.
    Index(Box<Ty>, String),
    /// A method's type (input-only interfaces).
    Method,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub optional: bool,
    pub ty: Ty,
}

#[derive(Debug, Clone)]
pub struct Interface {
    pub extends: Vec<String>,
    /// Its own fields, in order (not those it extends).
    pub fields: Vec<Field>,
}

/// Every exported declaration of the file.
#[derive(Debug, Default)]
pub struct Declarations {
    pub interfaces: BTreeMap<String, Interface>,
    pub aliases: BTreeMap<String, Ty>,
    /// Per interface, [`Declarations::all_fields`], computed once.
    flat: BTreeMap<String, Vec<Field>>,
}

impl Declarations {
    /// The fields of interface `name` with those it extends, own ones last
    /// (an own field overrides an inherited one of the same name).
    pub fn all_fields(&self, name: &str) -> &[Field] {
        self.flat.get(name).map_or(&[], Vec::as_slice)
    }

    fn flatten(&self, name: &str) -> Vec<Field> {
        let Some(i) = self.interfaces.get(name) else { return Vec::new() };
        let mut out: Vec<Field> = Vec::new();
        for base in &i.extends {
            for f in self.flatten(base) {
                out.retain(|o| o.name != f.name);
                out.push(f);
            }
        }
        for f in &i.fields {
            out.retain(|o| o.name != f.name);
            out.push(f.clone());
        }
        out
    }

    /// The interface among `name` and its bases that declares `field` (the
    /// one whose declaration [`Declarations::all_fields`] keeps).
    pub fn declaring(&self, name: &str, field: &str) -> String {
        let own = self.interfaces.get(name).is_some_and(|i| i.fields.iter().any(|f| f.name == field));
        match self.interfaces.get(name) {
            Some(i) if !own => {
                i.extends.iter().rev().find(|b| self.all_fields(b).iter().any(|f| f.name == field)).map_or(name.to_string(), |b| self.declaring(b, field))
            }
            _ => name.to_string(),
        }
    }

    /// `name` and every interface it extends, transitively.
    pub fn with_bases(&self, name: &str) -> Vec<String> {
        let mut out = vec![name.to_string()];
        if let Some(i) = self.interfaces.get(name) {
            for b in &i.extends {
                out.extend(self.with_bases(b));
            }
        }
        out
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Num(f64),
    Punct(char),
}

/// Splits the text into tokens, skipping whitespace and comments; each token
/// with its line, for errors.
fn tokens(text: &str) -> Result<Vec<(Tok, usize)>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                line += usize::from(chars[i] == '\n');
                i += 1;
            }
            i += 2;
        } else if c == '"' || c == '\'' {
            let start = i + 1;
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += 1 + usize::from(chars[i] == '\\');
            }
            out.push((Tok::Str(chars[start..i.min(chars.len())].iter().collect()), line));
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            out.push((Tok::Num(s.parse().map_err(|e| format!("line {line}: number {s}: {e}"))?), line));
        } else if c.is_alphanumeric() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$') {
                i += 1;
            }
            out.push((Tok::Ident(chars[start..i].iter().collect()), line));
        } else if "{}[]()<>|&,;:?=.".contains(c) {
            out.push((Tok::Punct(c), line));
            i += 1;
        } else {
            return Err(format!("line {line}: unexpected character {c:?}"));
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|(t, _)| t)
    }

    fn line(&self) -> usize {
        self.toks.get(self.at).or(self.toks.last()).map_or(0, |(_, l)| *l)
    }

    fn error<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("types.d.ts line {}: {what} (at {:?})", self.line(), self.peek()))
    }

    fn is(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }

    fn eat(&mut self, c: char) -> bool {
        let yes = self.is(c);
        self.at += usize::from(yes);
        yes
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            self.error(&format!("expected {c:?}"))
        }
    }

    fn ident(&mut self) -> Result<String, String> {
        match self.peek().cloned() {
            Some(Tok::Ident(s)) => {
                self.at += 1;
                Ok(s)
            }
            _ => self.error("expected a name"),
        }
    }

    fn union(&mut self) -> Result<Ty, String> {
        self.eat('|');
        let mut members = vec![self.postfix()?];
        while self.eat('|') {
            members.push(self.postfix()?);
        }
        Ok(if members.len() == 1 { members.remove(0) } else { Ty::Union(members) })
    }

    fn postfix(&mut self) -> Result<Ty, String> {
        let mut ty = self.primary()?;
        while self.is('[') {
            self.at += 1;
            if self.eat(']') {
                ty = Ty::Array(Box::new(ty));
            } else if let Some(Tok::Str(key)) = self.peek().cloned() {
                self.at += 1;
                self.expect(']')?;
                ty = Ty::Index(Box::new(ty), key);
            } else {
                return self.error("expected `]` or a quoted key");
            }
        }
        Ok(ty)
    }

    fn primary(&mut self) -> Result<Ty, String> {
        match self.peek().cloned() {
            Some(Tok::Punct('(')) => {
                self.at += 1;
                let ty = self.union()?;
                self.expect(')')?;
                Ok(ty)
            }
            Some(Tok::Punct('{')) => {
                self.at += 1;
                Ok(Ty::Object(self.members()?))
            }
            Some(Tok::Punct('[')) => {
                self.at += 1;
                let mut items = Vec::new();
                while !self.eat(']') {
                    items.push(self.union()?);
                    if !self.eat(',') && !self.is(']') {
                        return self.error("expected `,` or `]` in a tuple");
                    }
                }
                Ok(Ty::Tuple(items))
            }
            Some(Tok::Str(s)) => {
                self.at += 1;
                Ok(Ty::StrLit(s))
            }
            Some(Tok::Num(n)) => {
                self.at += 1;
                Ok(Ty::NumLit(n))
            }
            Some(Tok::Ident(name)) => {
                self.at += 1;
                match name.as_str() {
                    "true" | "false" => Ok(Ty::BoolLit(name == "true")),
                    "string" | "number" | "boolean" | "null" | "unknown" | "any" | "undefined" => Ok(Ty::Prim(name)),
                    "Record" => {
                        self.expect('<')?;
                        let _key = self.union()?;
                        self.expect(',')?;
                        let value = self.union()?;
                        self.expect('>')?;
                        Ok(Ty::Record(Box::new(value)))
                    }
                    _ if self.is('<') => self.error("generic types other than Record are not read"),
                    _ => Ok(Ty::Named(name)),
                }
            }
            _ => self.error("expected a type"),
        }
    }

    /// Members up to the closing `}` (already past the opening one).
    fn members(&mut self) -> Result<Vec<Field>, String> {
        let mut fields = Vec::new();
        while !self.eat('}') {
            let name = match self.peek().cloned() {
                Some(Tok::Ident(s)) | Some(Tok::Str(s)) => {
                    self.at += 1;
                    s
                }
                _ => return self.error("expected a member name"),
            };
            let optional = self.eat('?');
            let ty = if self.is('(') {
                self.skip_balanced('(', ')')?;
                self.expect(':')?;
                let _returns = self.union()?;
                Ty::Method
            } else {
                self.expect(':')?;
                self.union()?
            };
            fields.push(Field { name, optional, ty });
            while self.eat(';') || self.eat(',') {}
        }
        Ok(fields)
    }

    fn skip_balanced(&mut self, open: char, close: char) -> Result<(), String> {
        let mut depth = 0;
        loop {
            match self.peek() {
                None => return self.error("unbalanced brackets"),
                Some(Tok::Punct(c)) if *c == open => depth += 1,
                Some(Tok::Punct(c)) if *c == close => depth -= 1,
                _ => {}
            }
            self.at += 1;
            if depth == 0 {
                return Ok(());
            }
        }
    }
}

/// Reads every `export interface` and `export type` of the file. Anything
/// else at the top level is an error: the checker must see every declaration.
pub fn parse(text: &str) -> Result<Declarations, String> {
    let mut p = Parser { toks: tokens(text)?, at: 0 };
    let mut out = Declarations::default();
    while p.peek().is_some() {
        if p.ident()? != "export" {
            return p.error("expected `export` at the top level");
        }
        match p.ident()?.as_str() {
            "interface" => {
                let name = p.ident()?;
                let mut extends = Vec::new();
                if p.peek() == Some(&Tok::Ident("extends".into())) {
                    p.at += 1;
                    extends.push(p.ident()?);
                    while p.eat(',') {
                        extends.push(p.ident()?);
                    }
                }
                p.expect('{')?;
                let fields = p.members()?;
                if out.interfaces.insert(name.clone(), Interface { extends, fields }).is_some() {
                    return p.error(&format!("interface {name} declared twice"));
                }
            }
            "type" => {
                let name = p.ident()?;
                p.expect('=')?;
                let ty = p.union()?;
                p.expect(';')?;
                if out.aliases.insert(name.clone(), ty).is_some() {
                    return p.error(&format!("type {name} declared twice"));
                }
            }
            other => return p.error(&format!("`export {other}` is not read")),
        }
    }
    out.flat = out.interfaces.keys().map(|n| (n.clone(), out.flatten(n))).collect();
    Ok(out)
}

/// Reads one type expression (the table's TypeScript side).
pub fn parse_type(text: &str) -> Result<Ty, String> {
    let mut p = Parser { toks: tokens(text)?, at: 0 };
    let ty = p.union()?;
    match p.peek() {
        None => Ok(ty),
        Some(_) => p.error("trailing tokens after a type"),
    }
}
