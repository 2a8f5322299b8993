//! Detector: scala. Not written yet.

use crate::detect::{Findings, Repo};

pub fn detect(_repo: &Repo, _out: &mut Findings) {}
