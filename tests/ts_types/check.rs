//! Checks serialised values (what the wasm API hands to JavaScript) against
//! the declarations read by [`super::dts`]: every key a value has is
//! declared, every required field is there, and every field's value has its
//! declared type, nested objects and union members included. Records which
//! interfaces and optional fields real values reached, so the test can tell
//! a declaration that nothing checked.

use std::collections::BTreeMap;

use serde_json::Value;

use super::dts::{Declarations, Field, Ty};

/// What the values reached: how many values matched each interface (as
/// itself or as a base), and per interface how many had each of its
/// optional fields.
#[derive(Debug, Default, Clone)]
pub struct Reached {
    pub interfaces: BTreeMap<String, usize>,
    pub optional_seen: BTreeMap<String, BTreeMap<String, usize>>,
}

impl Reached {
    fn merge(&mut self, other: Reached) {
        for (k, n) in other.interfaces {
            *self.interfaces.entry(k).or_default() += n;
        }
        for (k, v) in other.optional_seen {
            let mine = self.optional_seen.entry(k).or_default();
            for (f, n) in v {
                *mine.entry(f).or_default() += n;
            }
        }
    }
}

pub struct Checker<'d> {
    pub decls: &'d Declarations,
    pub reached: Reached,
}

/// A value, shortened for a message.
pub fn sample(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(240) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

fn show(ty: &Ty) -> String {
    match ty {
        Ty::Prim(p) => p.clone(),
        Ty::StrLit(s) => format!("{s:?}"),
        Ty::NumLit(n) => n.to_string(),
        Ty::BoolLit(b) => b.to_string(),
        Ty::Named(n) => n.clone(),
        Ty::Array(t) => format!("{}[]", show(t)),
        Ty::Tuple(ts) => format!("[{}]", ts.iter().map(show).collect::<Vec<_>>().join(", ")),
        Ty::Object(fs) => format!("{{ {} }}", fs.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join("; ")),
        Ty::Record(t) => format!("Record<string, {}>", show(t)),
        Ty::Union(ts) => ts.iter().map(show).collect::<Vec<_>>().join(" | "),
        Ty::Index(t, k) => format!("{}[{k:?}]", show(t)),
        Ty::Method => "method".into(),
    }
}

impl<'d> Checker<'d> {
    pub fn new(decls: &'d Declarations) -> Checker<'d> {
        Checker { decls, reached: Reached::default() }
    }

    /// Why `v` is not a `ty` (empty when it is); `at` names the place, e.g.
    /// `EventView.toolCalls[0].id`.
    pub fn check(&mut self, ty: &Ty, v: &Value, at: &str) -> Vec<String> {
        let mut errors = Vec::new();
        self.value(ty, v, at, &mut errors);
        errors
    }

    fn value(&mut self, ty: &Ty, v: &Value, at: &str, errors: &mut Vec<String>) {
        let wrong = |errors: &mut Vec<String>| errors.push(format!("{at}: {} is not `{}`", sample(v), show(ty)));
        match ty {
            Ty::Prim(p) => {
                let ok = match p.as_str() {
                    "string" => v.is_string(),
                    "number" => v.is_number(),
                    "boolean" => v.is_boolean(),
                    "null" => v.is_null(),
                    "unknown" | "any" => true,
                    _ => false, // `undefined`: a JSON value is never that.
                };
                if !ok {
                    wrong(errors);
                }
            }
            Ty::StrLit(s) if v.as_str() == Some(s) => {}
            Ty::NumLit(n) if v.as_f64() == Some(*n) => {}
            Ty::BoolLit(b) if v.as_bool() == Some(*b) => {}
            Ty::StrLit(_) | Ty::NumLit(_) | Ty::BoolLit(_) => wrong(errors),
            Ty::Array(item) => match v.as_array() {
                Some(items) => {
                    for (i, x) in items.iter().enumerate() {
                        self.value(item, x, &format!("{at}[{i}]"), errors);
                    }
                }
                None => wrong(errors),
            },
            Ty::Tuple(types) => match v.as_array() {
                Some(items) if items.len() == types.len() => {
                    for (i, (t, x)) in types.iter().zip(items).enumerate() {
                        self.value(t, x, &format!("{at}[{i}]"), errors);
                    }
                }
                _ => errors.push(format!("{at}: {} is not a tuple of {} (`{}`)", sample(v), types.len(), show(ty))),
            },
            Ty::Record(item) => match v.as_object() {
                Some(map) => {
                    for (k, x) in map {
                        self.value(item, x, &format!("{at}[{k:?}]"), errors);
                    }
                }
                None => wrong(errors),
            },
            Ty::Object(fields) => self.object(None, fields, v, at, errors),
            Ty::Named(name) => {
                let decls = self.decls;
                if decls.interfaces.contains_key(name) {
                    self.object(Some(name), decls.all_fields(name), v, at, errors);
                } else if let Some(alias) = decls.aliases.get(name) {
                    self.value(alias, v, at, errors);
                } else {
                    errors.push(format!("{at}: `{name}` is declared nowhere in types.d.ts (a JSON value cannot be a built-in)"));
                }
            }
            Ty::Index(inner, key) => match self.index(inner, key) {
                Some(t) => self.value(&t, v, at, errors),
                None => errors.push(format!("{at}: cannot resolve `{}`", show(ty))),
            },
            Ty::Union(members) => self.union(ty, members, v, at, errors),
            Ty::Method => errors.push(format!("{at}: a method cannot come from JSON")),
        }
    }

    /// `T["key"]`: the union of the key's types over `T`'s members.
    fn index(&self, ty: &Ty, key: &str) -> Option<Ty> {
        match ty {
            Ty::Named(n) if self.decls.interfaces.contains_key(n) => {
                self.decls.all_fields(n).iter().find(|f| f.name == key).map(|f| f.ty.clone())
            }
            Ty::Named(n) => self.index(self.decls.aliases.get(n)?, key),
            Ty::Union(ms) => ms.iter().map(|m| self.index(m, key)).collect::<Option<Vec<_>>>().map(Ty::Union),
            Ty::Object(fs) => fs.iter().find(|f| f.name == key).map(|f| f.ty.clone()),
            _ => None,
        }
    }

    /// A value matches a union when it matches one member. When none does,
    /// the errors shown are those of the member its discriminant (`kind`,
    /// `type`) selects, or else of the closest member.
    fn union(&mut self, ty: &Ty, members: &[Ty], v: &Value, at: &str, errors: &mut Vec<String>) {
        // The members the value's discriminant selects first: the others
        // would fail anyway, and a failed trial formats its errors.
        let (selected, others): (Vec<&Ty>, Vec<&Ty>) = members.iter().partition(|m| self.discriminant_selects(m, v));
        let mut tries = Vec::new();
        for m in selected.iter().chain(&others) {
            let mut trial = Checker { decls: self.decls, reached: Reached::default() };
            let errs = trial.check(m, v, at);
            if errs.is_empty() {
                self.reached.merge(trial.reached);
                return;
            }
            tries.push((*m, errs));
        }
        let best = match selected.as_slice() {
            [one] => tries.iter().find(|(m, _)| m == one),
            _ => tries.iter().min_by_key(|(_, e)| e.len()),
        };
        match best {
            Some((m, errs)) if !matches!(m, Ty::Prim(_) | Ty::StrLit(_)) => {
                errors.push(format!("{at}: {} matches no member of `{}`; as `{}`:", sample(v), show(ty), show(m)));
                errors.extend(errs.iter().map(|e| format!("    {e}")));
            }
            _ => errors.push(format!("{at}: {} matches no member of `{}`", sample(v), show(ty))),
        }
    }

    /// True when `member` is an object type whose `kind` or `type` field
    /// admits the value's.
    fn discriminant_selects(&self, member: &Ty, v: &Value) -> bool {
        let fields: &[Field] = match member {
            Ty::Named(n) if self.decls.interfaces.contains_key(n) => self.decls.all_fields(n),
            Ty::Object(fs) => fs,
            _ => return false,
        };
        ["kind", "type"].iter().any(|key| {
            let (Some(f), Some(value)) = (fields.iter().find(|f| f.name == *key), v.get(*key)) else { return false };
            let mut probe = Checker { decls: self.decls, reached: Reached::default() };
            probe.check(&f.ty, value, "").is_empty()
        })
    }

    fn object(&mut self, name: Option<&str>, fields: &[Field], v: &Value, at: &str, errors: &mut Vec<String>) {
        let Some(map) = v.as_object() else {
            errors.push(format!("{at}: {} is not an object (`{}`)", sample(v), name.unwrap_or("{…}")));
            return;
        };
        let before = errors.len();
        for key in map.keys() {
            if !fields.iter().any(|f| &f.name == key) {
                errors.push(format!("{at}.{key}: field not declared in `{}` (the Rust value has it); sample: {}", name.unwrap_or("{…}"), sample(v)));
            }
        }
        for f in fields {
            match map.get(&f.name) {
                None if !f.optional => errors.push(format!(
                    "{at}.{}: required field of `{}` missing (declare it `{}?` or always send it); sample: {}",
                    f.name,
                    name.unwrap_or("{…}"),
                    f.name,
                    sample(v)
                )),
                None => {}
                Some(x) => {
                    self.value(&f.ty, x, &format!("{at}.{}", f.name), errors);
                    if let (true, Some(n)) = (f.optional, name) {
                        let owner = self.decls.declaring(n, &f.name);
                        *self.reached.optional_seen.entry(owner).or_default().entry(f.name.clone()).or_default() += 1;
                    }
                }
            }
        }
        if let (true, Some(n)) = (errors.len() == before, name) {
            for i in self.decls.with_bases(n) {
                *self.reached.interfaces.entry(i).or_default() += 1;
            }
        }
    }
}
