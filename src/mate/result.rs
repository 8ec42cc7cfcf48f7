//! What a search returns: the outcome (a verified mating line, a proven "no mate", or
//! undecided with the reason), what is established about a mating line (`MateStatus`), the
//! statistics, and the progress reports sent while it runs.

use crate::shogi::Move;
use std::time::Duration;

/// Why a search ended without an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownReason {
    /// The stop flag was raised.
    Stopped,
    /// The time limit ran out.
    Time,
    /// The node limit ran out.
    Nodes,
    /// Found a proof but could not read a verified line from it (logged in detail).
    Unverified(String),
    /// No mate within this many plies, proven under `Limits::max_plies`; longer mates were
    /// not searched, so this is no proof that there is no mate at all.
    NoMateWithin(u32),
    /// Every search path of this many plies failed at the path cap (`Threshold::depth_cap`):
    /// no mate was found within it, which proves nothing about mates found past it.
    PathCap(u32),
}

impl std::fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UnknownReason::Stopped => f.write_str("stopped"),
            UnknownReason::Time => f.write_str("time limit reached"),
            UnknownReason::Nodes => f.write_str("node limit reached"),
            UnknownReason::Unverified(why) => write!(f, "mate proven but no verified line ({why})"),
            UnknownReason::NoMateWithin(n) => {
                write!(
                    f,
                    "no mate within {n} plies (proven; longer mates not searched)"
                )
            }
            UnknownReason::PathCap(n) => write!(
                f,
                "no mate found on search paths of up to {n} plies (not a proof that there is none)"
            ),
        }
    }
}

impl UnknownReason {
    /// The reason in Japanese, for `--format ja` and Japanese reports.
    pub fn japanese(&self) -> String {
        match self {
            UnknownReason::Stopped => "中断".into(),
            UnknownReason::Time => "時間切れ".into(),
            UnknownReason::Nodes => "探索局面数の上限に到達".into(),
            UnknownReason::Unverified(_) => {
                "詰みは証明したが、検証できる手順を得られなかった".into()
            }
            UnknownReason::NoMateWithin(n) => {
                format!("{n}手以内の詰みなし (証明済み。{n}手より長い詰みは探していない)")
            }
            UnknownReason::PathCap(n) => {
                format!("{n}手までの探索経路では詰みが見つからなかった (不詰の証明ではない)")
            }
        }
    }
}

/// What a search established about the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A verified mating line from the root: attacker first (odd length), or, when the root is
    /// a defender node (`SearchResult::defender_root`), defender first (even length).
    Mate(Vec<Move>),
    /// No mate at any length (proven; never said on a guess).
    NoMate,
    /// Undecided, and why.
    Unknown(UnknownReason),
}

/// Counters of a search.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Nodes searched (every `mid` call, line readings' proofs included).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Table occupancy in permille.
    pub hashfull: u32,
    /// Children found repeating a position of the current path (or a path-dependent failure
    /// remembered for exactly this path): failures that hold on this path only (GHI) and are
    /// never stored in the table as disproofs.
    pub repetitions: u64,
}

impl Stats {
    /// Nodes per second (0 before any time has passed).
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s <= 0.0 {
            0
        } else {
            (self.nodes as f64 / s) as u64
        }
    }
}

/// The answer of `Solver::solve`. Every line in it (`Outcome::Mate`, `best_mate`) was replayed
/// from the root and verified (legal moves, every attacker move a check, checkmate at the end;
/// the composers' rules for a composed line) before it was returned.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// What was established.
    pub outcome: Outcome,
    /// Counters at the end.
    pub stats: Stats,
    /// With `Outcome::Unknown` after a stop: a proven, verified line found before the stop
    /// (possibly not the shortest), if any.
    pub best_mate: Option<Vec<Move>>,
    /// What is established about the line of `Outcome::Mate` (or `best_mate`).
    pub status: Option<MateStatus>,
    /// The root was searched as a defender node: the side to move is the one being mated, and
    /// the line starts with its move.
    pub defender_root: bool,
    /// The search was cut short (stop, time or node limit) before it finished, and why: the
    /// outcome is what was established by then. A caller that searches in slices (the
    /// WebAssembly page) solves again on the same table to go on; `None` when the search ran
    /// to its end.
    pub interrupted: Option<UnknownReason>,
}

impl SearchResult {
    /// A result with nothing established (for searches that did not run).
    pub fn unknown(reason: UnknownReason) -> SearchResult {
        SearchResult {
            outcome: Outcome::Unknown(reason),
            stats: Stats::default(),
            best_mate: None,
            status: None,
            defender_root: false,
            interrupted: None,
        }
    }

    /// What the outcome is, in words (the first comment of a KIF or CSA answer).
    pub fn outcome_words(&self) -> String {
        match &self.outcome {
            Outcome::Mate(l) => match &self.status {
                Some(s) => s.describe(),
                None => format!("mate in {}", l.len()),
            },
            Outcome::NoMate => "no mate (proven)".into(),
            Outcome::Unknown(why @ UnknownReason::NoMateWithin(_)) => why.to_string(),
            Outcome::Unknown(why) => format!("undecided: {why}"),
        }
    }

    /// The comments a KIF or CSA answer carries before its moves: the outcome in words, that
    /// the side to move is the mated one when so, and the counters. One definition for
    /// `tsumugi solve --format kif|kifu|csa` and the browser page's KIF, so the two agree.
    pub fn record_comments(&self) -> Vec<String> {
        let mut c = vec![format!("tsumugi: {}", self.outcome_words())];
        if self.defender_root {
            c.push("the side to move is the one being mated".into());
        }
        c.push(format!(
            "nodes {} time_ms {}",
            self.stats.nodes,
            self.stats.time.as_millis()
        ));
        c
    }
}

/// What is established about a reported mating line. Lengths are in plies, counted from the
/// root; every legal defence counts (strict length).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateStatus {
    /// A mate within `upper` plies is proven (the shortest proof found). The line shown may be
    /// longer (it was not read before the search ended) or, when its defences are not proven
    /// longest, shorter.
    pub upper: u32,
    /// No mate within fewer plies exists (proven; the trivial bound when nothing was refuted).
    pub lower: u32,
    /// Every defender move of the line is proven a longest defence: the line has the proven
    /// minimal length and each defence was shown to have no shorter mate, or the defender had
    /// one legal move only.
    pub longest_defences: bool,
    /// Length of the strict line (before the composers' presentation, if any).
    pub line_len: u32,
    /// With the composers' presentation (`PostSearch::Composer`) when it changed the strict
    /// line: the length of the line shown, in the composers' count (useless interpositions
    /// omitted). That count is the line's own: the line is read from the strict one, not
    /// searched for the shortest under composers' counting, and the defences it put in place
    /// of useless ones are read, not proven longest. `upper`, `lower` and `line_len` stay in
    /// the strict count (every legal defence counted).
    pub composer_len: Option<u32>,
}

impl MateStatus {
    /// The shortest mate is known exactly.
    pub fn minimal(&self) -> bool {
        self.lower >= self.upper
    }

    /// The line is a shortest mate with longest defences: nothing is left to say.
    pub fn established(&self) -> bool {
        self.minimal() && self.longest_defences && self.line_len == self.upper
    }

    /// The line shown is the composers' presentation of the strict line (see `composer_len`).
    pub fn composed(&self) -> bool {
        self.composer_len.is_some()
    }

    /// One sentence for people (USI `info string`, `solve`'s report) on what is established.
    /// A composed line's sentence names both counts, each with what is proven of it: the
    /// composers' count is the line shown, the strict count what the search proved.
    pub fn describe(&self) -> String {
        let Some(c) = self.composer_len else {
            return self.describe_strict();
        };
        format!(
            "composer's count: {c} plies, the line shown (useless interpositions omitted; not \
             proven shortest under composers' counting, its defences not proven longest); \
             strict count (every defence counted): {}",
            self.strict_count()
        )
    }

    /// `describe` of a strict line.
    fn describe_strict(&self) -> String {
        let n = self.line_len;
        let defences = if self.longest_defences {
            "every defence on the line is a longest defence"
        } else {
            "the line's defences are not all proven longest (a defender could last longer)"
        };
        if self.minimal() {
            if n == self.upper {
                format!("mate in {n}: shortest proven; {defences}")
            } else {
                format!(
                    "the shortest mate is proven to take {} plies, but the line shown has {n} \
                     (the search ended before the shortest line was read); {defences}",
                    self.upper
                )
            }
        } else {
            format!(
                "line of {n} plies; shortest mate not proven: between {} and {} plies; \
                 {defences}",
                self.lower, self.upper
            )
        }
    }

    /// What is proven of the strict count, in words (without the line's defences).
    pub fn strict_count(&self) -> String {
        if self.minimal() {
            format!("mate in {}, shortest proven", self.upper)
        } else {
            format!(
                "mate within {} plies proven, shortest not proven (between {} and {} plies)",
                self.upper, self.lower, self.upper
            )
        }
    }

    /// `strict_count` in Japanese.
    pub fn strict_count_ja(&self) -> String {
        if self.minimal() {
            format!("{}手詰 (最短と証明済み)", self.upper)
        } else {
            format!(
                "{}手以内の詰みを証明済み (最短は{}〜{}手で未証明)",
                self.upper, self.lower, self.upper
            )
        }
    }

    /// For a composed line: a note to put beside its length, naming the count and the strict
    /// one (`None` for a strict line, whose length needs no note). English and Japanese.
    pub fn count_note(&self) -> Option<(String, String)> {
        self.composer_len?;
        Some((
            format!(
                "composer's count, useless interpositions omitted; strict count: {}",
                self.strict_count()
            ),
            format!(
                "無駄合を除いた手数。無駄合も数えると{}",
                self.strict_count_ja()
            ),
        ))
    }
}

/// Progress report passed to the callback every `Limits::info_interval`, and at once whenever
/// the search establishes something new (`news`).
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Counters so far.
    pub stats: Stats,
    /// The current best line if a mate is already proven (shortest search still running).
    pub pv: Option<Vec<Move>>,
    /// What is established so far about the mate (the proven upper bound, the lower bound),
    /// once one is proven.
    pub status: Option<MateStatus>,
    /// The side to move is the one being mated (see `SearchResult::defender_root`).
    pub defender_root: bool,
    /// What was just established, in a sentence for people: a shorter mate proven, or no mate
    /// within some number of plies. `None` in the periodic reports.
    pub news: Option<String>,
    /// Something about the search itself rather than its answer (the table is full of proven
    /// results), said once per search. A report kind of its own: hosts that drop news they
    /// have seen (a sliced search re-establishes its bounds at every slice) still pass it on.
    pub notice: Option<Notice>,
}

/// Something a user should know about a search while it runs, apart from what it has
/// established (see [`Progress::notice`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The table (of `mb` MB) is full of proven results: the cheapest are dropped to make room
    /// and found again when needed. Answers stay what they were; a larger table would be
    /// faster.
    TableFull {
        /// The table's size.
        mb: usize,
    },
}

impl Notice {
    /// A short name for programs (the page's JSON): `table_full`.
    pub fn kind(&self) -> &'static str {
        match self {
            Notice::TableFull { .. } => "table_full",
        }
    }
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Notice::TableFull { mb } => write!(
                f,
                "the table ({mb} MB) is full of proven results; the cheapest are dropped to \
                 make room and found again when needed, so the search may take longer than \
                 with a larger table"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_comments_name_the_outcome_the_mated_side_and_the_counters() {
        let mut r = SearchResult::unknown(UnknownReason::Stopped);
        r.stats.nodes = 1234;
        r.stats.time = Duration::from_millis(56);
        assert_eq!(
            r.record_comments(),
            ["tsumugi: undecided: stopped", "nodes 1234 time_ms 56"]
        );
        r.outcome = Outcome::NoMate;
        r.defender_root = true;
        assert_eq!(
            r.record_comments(),
            [
                "tsumugi: no mate (proven)",
                "the side to move is the one being mated",
                "nodes 1234 time_ms 56"
            ]
        );
    }
}
