//! The engine's USI options: their declarations (`option name ...` lines for `usi`) and the
//! validation of `setoption` values. Names are matched case-insensitively (USI says they are
//! case-sensitive; GUIs and scripts are not always careful), and `Hash` is accepted as another
//! name for `USI_Hash`. A rejected value leaves the option unchanged.

use crate::mate::{hash_size, PostSearch};

/// Default `USI_Hash` in MB: the native engine's, or the browser's in WebAssembly (see
/// [`crate::mate::hash_size`], where every table size is chosen and explained).
pub const HASH_DEFAULT_MB: usize = hash_size::USI_DEFAULT_MB_HERE;
/// Smallest `USI_Hash` in MB.
pub const HASH_MIN_MB: usize = hash_size::MIN_MB;
/// Largest `USI_Hash` in MB: what a GUI is offered, natively or in the browser.
pub const HASH_MAX_MB: usize = hash_size::USI_MAX_MB_HERE;
/// Upper bound of `PvInterval` (ms): one hour.
pub const PV_INTERVAL_MAX_MS: u64 = 3_600_000;
/// Default `PvInterval` (ms).
pub const PV_INTERVAL_DEFAULT_MS: u64 = 1000;

/// Largest `MaxPlies`: the longest length bound the table stores (`mate::MAX_PLIES`).
pub const MAX_PLIES_MAX: u32 = crate::mate::MAX_PLIES;

/// Largest `MultiPV`: more than any position's legal moves (593 at most), so every check
/// can be shown.
pub const MULTI_PV_MAX: u32 = 600;

/// Largest `Threads`.
#[cfg(not(target_arch = "wasm32"))]
pub const THREADS_MAX: u32 = crate::mate::MAX_THREADS as u32;
/// Largest `Threads` in WebAssembly: the module has no threads (`mate::Solver::solve` runs the
/// main search alone), so only 1 is offered.
#[cfg(target_arch = "wasm32")]
pub const THREADS_MAX: u32 = 1;

/// Current option values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `USI_Hash`: table size in MB.
    pub hash_mb: usize,
    /// `USI_Ponder` (accepted; pondering follows `go ponder`).
    pub ponder: bool,
    /// `Threads`: search threads (see `mate::Solver::set_threads`).
    pub threads: u32,
    /// Node limit of a search; 0 means none.
    pub nodes_limit: u64,
    /// `MaxPlies`: the longest mate looked for, in plies; 0 means no limit. With a limit an
    /// answer is a mate within it or "no mate within it" (see `usi::reply`).
    pub max_plies: u32,
    /// Milliseconds between periodic `info` lines; 0 means none (the final one is still sent).
    pub pv_interval_ms: u64,
    /// `PostSearch`: the work after the first proof.
    pub post_search: PostSearch,
    /// A root whose side to move is in check and cannot mate is searched as the defender
    /// (KomoringHeights' option of the same name; see `mate::Limits`).
    pub root_is_and_if_checked: bool,
    /// `MultiPV`: lines shown; with 2 or more, after the best line every other check of the
    /// root is searched and the best of them shown (see `usi::multipv`).
    pub multipv: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: HASH_DEFAULT_MB,
            ponder: false,
            threads: crate::mate::default_threads() as u32,
            nodes_limit: 0,
            max_plies: 0,
            pv_interval_ms: PV_INTERVAL_DEFAULT_MS,
            post_search: PostSearch::Shortest,
            root_is_and_if_checked: true,
            multipv: 1,
        }
    }
}

/// Which option a `setoption` changed (the engine reacts to some at once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// `USI_Hash`.
    Hash,
    /// `USI_Ponder`.
    Ponder,
    /// `Threads`.
    Threads,
    /// `NodesLimit`.
    NodesLimit,
    /// `MaxPlies`.
    MaxPlies,
    /// `PvInterval`.
    PvInterval,
    /// `PostSearch`.
    PostSearch,
    /// `RootIsAndNodeIfChecked`.
    RootIsAndNodeIfChecked,
    /// `MultiPV`.
    MultiPv,
}

impl Changed {
    /// The option's name as declared.
    pub fn name(self) -> &'static str {
        match self {
            Changed::Hash => "USI_Hash",
            Changed::Ponder => "USI_Ponder",
            Changed::Threads => "Threads",
            Changed::NodesLimit => "NodesLimit",
            Changed::MaxPlies => "MaxPlies",
            Changed::PvInterval => "PvInterval",
            Changed::PostSearch => "PostSearch",
            Changed::RootIsAndNodeIfChecked => "RootIsAndNodeIfChecked",
            Changed::MultiPv => "MultiPV",
        }
    }
}

impl Options {
    /// The `option name ...` lines sent in answer to `usi`.
    pub fn declarations() -> Vec<String> {
        let d = Options::default();
        vec![
            format!(
                "option name USI_Hash type spin default {} min {HASH_MIN_MB} max {HASH_MAX_MB}",
                d.hash_mb
            ),
            "option name USI_Ponder type check default false".to_string(),
            format!(
                "option name Threads type spin default {} min 1 max {THREADS_MAX}",
                d.threads
            ),
            format!(
                "option name NodesLimit type spin default 0 min 0 max {}",
                i64::MAX
            ),
            format!("option name MaxPlies type spin default 0 min 0 max {MAX_PLIES_MAX}"),
            format!(
                "option name PvInterval type spin default {} min 0 max {PV_INTERVAL_MAX_MS}",
                d.pv_interval_ms
            ),
            "option name PostSearch type combo default shortest var shortest var none var composer"
                .to_string(),
            format!(
                "option name RootIsAndNodeIfChecked type check default {}",
                d.root_is_and_if_checked
            ),
            format!(
                "option name MultiPV type spin default {} min 1 max {MULTI_PV_MAX}",
                d.multipv
            ),
        ]
    }

    /// Applies `setoption name <name> value <value>`. On error the options are unchanged and
    /// the message says why (it quotes the name and value).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, String> {
        let key = name.to_ascii_lowercase();
        let which = match key.as_str() {
            "usi_hash" | "hash" => Changed::Hash,
            "usi_ponder" => Changed::Ponder,
            "threads" => Changed::Threads,
            "nodeslimit" => Changed::NodesLimit,
            "maxplies" => Changed::MaxPlies,
            "pvinterval" => Changed::PvInterval,
            "postsearch" => Changed::PostSearch,
            "rootisandnodeifchecked" => Changed::RootIsAndNodeIfChecked,
            "multipv" => Changed::MultiPv,
            _ => {
                return Err(format!(
                    "unknown option '{}' (options: USI_Hash, USI_Ponder, Threads, NodesLimit, \
                     MaxPlies, PvInterval, PostSearch, RootIsAndNodeIfChecked, MultiPV)",
                    super::command::quote(name)
                ))
            }
        };
        let opt = which.name();
        let Some(value) = value else {
            return Err(format!("setoption {opt}: missing 'value <v>'"));
        };
        let value = value.trim();
        let shown = super::command::quote(value);
        match which {
            Changed::Hash => {
                self.hash_mb = spin(opt, value, HASH_MIN_MB as u64, HASH_MAX_MB as u64)? as usize;
            }
            Changed::Threads => {
                self.threads = spin(opt, value, 1, THREADS_MAX as u64)? as u32;
            }
            Changed::NodesLimit => {
                self.nodes_limit = spin(opt, value, 0, i64::MAX as u64)?;
            }
            Changed::MaxPlies => {
                self.max_plies = spin(opt, value, 0, MAX_PLIES_MAX as u64)? as u32;
            }
            Changed::PvInterval => {
                self.pv_interval_ms = spin(opt, value, 0, PV_INTERVAL_MAX_MS)?;
            }
            Changed::MultiPv => {
                self.multipv = spin(opt, value, 1, MULTI_PV_MAX as u64)? as u32;
            }
            Changed::Ponder => self.ponder = check(opt, value)?,
            Changed::RootIsAndNodeIfChecked => self.root_is_and_if_checked = check(opt, value)?,
            Changed::PostSearch => {
                self.post_search = PostSearch::parse(value).ok_or_else(|| {
                    format!("setoption {opt}: '{shown}' is not 'shortest', 'none' or 'composer'")
                })?;
            }
        }
        Ok(which)
    }
}

/// A check value: `true` or `false` (any case).
fn check(opt: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "setoption {opt}: '{}' is not 'true' or 'false'",
            super::command::quote(value)
        )),
    }
}

/// A spin value in `min..=max`.
fn spin(opt: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    let shown = super::command::quote(value);
    let n: i128 = value
        .strip_prefix('+')
        .unwrap_or(value)
        .parse()
        .map_err(|_| format!("setoption {opt}: '{shown}' is not an integer"))?;
    if n < min as i128 || n > max as i128 {
        return Err(format!("setoption {opt}: {n} is out of range {min}..{max}"));
    }
    Ok(n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_well_formed() {
        let d = Options::declarations();
        assert_eq!(d.len(), 9);
        for l in &d {
            assert!(l.starts_with("option name "), "{l}");
            let name = l.split_whitespace().nth(2).unwrap();
            // Every declared name is settable with its default value.
            let default = l
                .split_whitespace()
                .skip_while(|&w| w != "default")
                .nth(1)
                .unwrap();
            let mut o = Options::default();
            o.set(name, Some(default)).unwrap();
            assert_eq!(o, Options::default(), "{l}");
        }
    }

    /// The table size a GUI is offered natively, as before the sizes were gathered in
    /// `mate::hash_size`.
    #[test]
    fn usi_hash_is_declared_as_before() {
        assert_eq!(
            Options::declarations()[0],
            "option name USI_Hash type spin default 256 min 1 max 65536"
        );
        let mut o = Options::default();
        assert!(o.set("USI_Hash", Some("65537")).is_err());
        assert_eq!(o.set("USI_Hash", Some("65536")), Ok(Changed::Hash));
    }

    #[test]
    fn set_values() {
        let mut o = Options::default();
        assert_eq!(o.set("USI_Hash", Some("32")), Ok(Changed::Hash));
        assert_eq!(o.hash_mb, 32);
        o.set("usi_hash", Some(" 64 ")).unwrap();
        assert_eq!(o.hash_mb, 64);
        o.set("USI_Ponder", Some("TRUE")).unwrap();
        assert!(o.ponder);
        o.set("NodesLimit", Some("1000000")).unwrap();
        assert_eq!(o.nodes_limit, 1_000_000);
        o.set("pvinterval", Some("0")).unwrap();
        assert_eq!(o.pv_interval_ms, 0);
        o.set("PostSearch", Some("None")).unwrap();
        assert_eq!(o.post_search, PostSearch::None);
        o.set("Threads", Some("4")).unwrap();
        assert_eq!(o.threads, 4);
        o.set("MultiPV", Some("4")).unwrap();
        assert_eq!(o.multipv, 4);
        let before = o.clone();
        for (n, v) in [
            ("USI_Hash", Some("0")),
            ("USI_Hash", Some("65537")),
            ("USI_Hash", Some("-1")),
            ("USI_Hash", Some("abc")),
            ("USI_Hash", Some("1e3")),
            ("USI_Hash", Some("")),
            (
                "USI_Hash",
                Some("99999999999999999999999999999999999999999"),
            ),
            ("USI_Hash", None),
            ("Threads", Some("0")),
            ("Threads", Some("257")),
            ("USI_Ponder", Some("yes")),
            ("PostSearch", Some("longest")),
            ("NodesLimit", Some("-3")),
            ("PvInterval", Some("3600001")),
            ("MaxPlies", Some("-1")),
            ("MaxPlies", Some("65535")),
            ("MultiPV", Some("0")),
            ("MultiPV", Some("601")),
            ("NoSuchOption", Some("1")),
        ] {
            assert!(o.set(n, v).is_err(), "{n} {v:?}");
            assert_eq!(o, before, "{n} {v:?} changed the options");
        }
    }
}
