//! Docent 0.1.88's `AgentRunContextConfig` and its dot-path glob filters
//! (`docent.data_models.context_config`, `metadata_util`).
//!
//! A filter holds `include` and `exclude` fnmatch patterns over dot paths
//! (`config.model`). A pattern matching a path or any of its prefixes
//! decides; the most specific wins (more exact segments, then more segments);
//! on a tie exclusion wins. Nothing matching means hidden.

use serde_json::Value;

use super::pattern::fnmatch;
use crate::agentrun::py::Py;
use super::RenderError;

#[derive(Debug, Clone, PartialEq, Default)]
pub struct GlobFilter {
    pub include: Vec<String>,
    pub exclude: Vec<String>,
}

impl GlobFilter {
    pub fn include_all() -> Self {
        GlobFilter { include: vec!["*".to_string()], exclude: Vec::new() }
    }
    pub fn exclude_all() -> Self {
        GlobFilter { include: Vec::new(), exclude: vec!["*".to_string()] }
    }
}

/// `AgentRunContextConfig`; `Default` is Docent's default (all metadata hidden, every transcript shown).
#[derive(Debug, Clone, PartialEq)]
pub struct ContextConfig {
    pub agent_run_metadata: GlobFilter,
    pub transcript_group_names: GlobFilter,
    pub transcript_group_metadata: GlobFilter,
    pub transcript_names: GlobFilter,
    pub transcript_metadata: GlobFilter,
    pub message_metadata: GlobFilter,
}

impl Default for ContextConfig {
    fn default() -> Self {
        ContextConfig {
            agent_run_metadata: GlobFilter::exclude_all(),
            transcript_group_names: GlobFilter::include_all(),
            transcript_group_metadata: GlobFilter::exclude_all(),
            transcript_names: GlobFilter::include_all(),
            transcript_metadata: GlobFilter::exclude_all(),
            message_metadata: GlobFilter::exclude_all(),
        }
    }
}

impl ContextConfig {
    /// `AgentRunContextConfig.model_validate(value)`: missing fields take
    /// their defaults, unknown fields are ignored, `type` must be `agent_run`.
    pub fn from_json(v: &Value) -> Result<Self, RenderError> {
        let Value::Object(o) = v else {
            return Err(RenderError::new("context must be an AgentRunContextConfig object"));
        };
        match o.get("type") {
            None => {}
            Some(Value::String(t)) if t == "agent_run" => {}
            Some(other) => return Err(RenderError::new(format!("context `type` must be \"agent_run\", not {other}"))),
        }
        let mut c = ContextConfig::default();
        let fields: [(&str, &mut GlobFilter); 6] = [
            ("agent_run_metadata", &mut c.agent_run_metadata),
            ("transcript_group_names", &mut c.transcript_group_names),
            ("transcript_group_metadata", &mut c.transcript_group_metadata),
            ("transcript_names", &mut c.transcript_names),
            ("transcript_metadata", &mut c.transcript_metadata),
            ("message_metadata", &mut c.message_metadata),
        ];
        for (name, slot) in fields {
            if let Some(f) = o.get(name) {
                *slot = glob_filter(f, name)?;
            }
        }
        Ok(c)
    }
}

fn glob_filter(v: &Value, name: &str) -> Result<GlobFilter, RenderError> {
    let Value::Object(o) = v else {
        return Err(RenderError::new(format!("context `{name}` must be an object with `include` and `exclude` lists")));
    };
    let list = |key: &str| -> Result<Vec<String>, RenderError> {
        match o.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|i| i.as_str().map(str::to_string).ok_or_else(|| RenderError::new(format!("context `{name}.{key}` must hold strings"))))
                .collect(),
            Some(_) => Err(RenderError::new(format!("context `{name}.{key}` must be a list of patterns"))),
        }
    };
    Ok(GlobFilter { include: list("include")?, exclude: list("exclude")? })
}

pub type Specificity = (i64, i64);
pub const NO_MATCH: Specificity = (-1, -1);

fn split_path(path: &str) -> Vec<&str> {
    path.split('.').filter(|s| !s.is_empty()).collect()
}

fn pattern_matches(pattern: &[&str], path: &[&str]) -> bool {
    pattern.len() == path.len() && pattern.iter().zip(path).all(|(p, s)| fnmatch(s, p))
}

fn specificity(pattern: &str) -> Specificity {
    let segments = split_path(pattern);
    let exact = segments.iter().filter(|s| !s.contains(['*', '?', '['])).count();
    (exact as i64, segments.len() as i64)
}

/// `_best_filter_match`: over every prefix of the path, includes then excludes.
fn best_match(path: &[&str], filter: &GlobFilter) -> Option<(bool, Specificity)> {
    let mut best: Option<(bool, Specificity)> = None;
    for len in 0..=path.len() {
        let prefix = path.get(..len).unwrap_or_default();
        let candidates = filter.include.iter().map(|p| (p, true)).chain(filter.exclude.iter().map(|p| (p, false)));
        for (pattern, include) in candidates {
            if !pattern_matches(&split_path(pattern), prefix) {
                continue;
            }
            let spec = specificity(pattern);
            best = match best {
                None => Some((include, spec)),
                Some((best_include, best_spec)) if spec > best_spec || (spec == best_spec && best_include && !include) => Some((include, spec)),
                keep => keep,
            };
        }
    }
    best
}

/// `glob_filter_decision`.
pub fn decision(path: &str, filter: &GlobFilter) -> (bool, Specificity) {
    best_match(&split_path(path), filter).unwrap_or((false, NO_MATCH))
}

/// `name_filter_decision`: by name, else by id.
pub fn name_decision(name: Option<&str>, filter: &GlobFilter, fallback_id: Option<&str>) -> (bool, Specificity) {
    match (name, fallback_id) {
        (Some(n), _) => decision(n, filter),
        (None, Some(id)) => decision(id, filter),
        (None, None) => (false, NO_MATCH),
    }
}

/// `filter_metadata_by_paths`: the metadata with only the included paths.
pub fn filter_metadata(md: &[(String, Py)], filter: &GlobFilter) -> Vec<(String, Py)> {
    // Without an include pattern no path is included, so nothing is kept: the
    // default for every metadata but the names, which made the walk below
    // (a clone of the metadata, a split and a glob match per key) a tenth of
    // a large run's AgentRun text, for no output.
    if filter.include.is_empty() {
        return Vec::new();
    }
    match filter_value(&Py::Dict(md.to_vec()), &[], filter) {
        Some(Py::Dict(items)) => items,
        _ => Vec::new(),
    }
}

fn filter_value(v: &Py, path: &[&str], filter: &GlobFilter) -> Option<Py> {
    let included = best_match(path, filter).is_some_and(|(inc, _)| inc);
    match v {
        Py::Dict(items) => {
            let mut kept = Vec::new();
            for (k, child) in items {
                let mut child_path = path.to_vec();
                child_path.push(k.as_str());
                if let Some(c) = filter_value(child, &child_path, filter) {
                    kept.push((k.clone(), c));
                }
            }
            (included || !kept.is_empty()).then_some(Py::Dict(kept))
        }
        other => included.then(|| other.clone()),
    }
}
