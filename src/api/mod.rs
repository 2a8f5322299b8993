//! The environment API (DESIGN.md §2): wire types shared by the client and `serve`.

pub mod client;
pub mod missing;

use serde::{Deserialize, Deserializer, Serialize};

/// `state` as the platform answers it; anything unknown reads as `None`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    #[default]
    None,
    Proposed,
    Ready,
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = Option::<String>::deserialize(d)?;
        Ok(match s.as_deref() {
            Some("proposed") => State::Proposed,
            Some("ready") => State::Ready,
            _ => State::None,
        })
    }
}

/// A setup run's pending proposal.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingProposal {
    #[serde(default)]
    pub install: String,
    #[serde(default)]
    pub start: String,
    #[serde(default)]
    pub secrets: Vec<String>,
    #[serde(default)]
    pub note: String,
}

/// One repo's environment record. Secret values are never part of it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Environment {
    pub repo: String,
    #[serde(default)]
    pub install: String,
    #[serde(default)]
    pub start: String,
    #[serde(default)]
    pub secrets: Vec<String>,
    #[serde(default)]
    pub state: State,
    #[serde(default)]
    pub session: String,
    #[serde(default)]
    pub proposal: Option<PendingProposal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
}

/// `GET /v1/environment`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvironmentList {
    #[serde(default)]
    pub data: Vec<Environment>,
}

/// `PUT /v1/environment/{repo}` body.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scripts {
    #[serde(default)]
    pub install: String,
    #[serde(default)]
    pub start: String,
}

/// RFC 9457 problem details, as `serve` answers and the platform's newer handlers do.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    #[serde(rename = "type", default = "about_blank")]
    pub kind: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub status: u16,
    #[serde(default)]
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

fn about_blank() -> String {
    "about:blank".into()
}

/// The media type of [`Problem`] bodies.
pub const PROBLEM_JSON: &str = "application/problem+json";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_state_reads_as_none() {
        let env: Environment = serde_json::from_str(r#"{"repo":"a","state":"archived"}"#).unwrap();
        assert_eq!(env.state, State::None);
        let env: Environment = serde_json::from_str(r#"{"repo":"a","state":null}"#).unwrap();
        assert_eq!(env.state, State::None);
    }

    #[test]
    fn camel_case_on_the_wire() {
        let env =
            Environment { repo: "a".into(), updated_at: Some("2026-09-26T18:00:00Z".into()), ..Default::default() };
        let json = serde_json::to_string(&env).unwrap();
        assert!(json.contains("\"updatedAt\""), "{json}");
    }
}
