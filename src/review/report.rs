//! The check's report: what was found (each with the ply and the moves that show it, in USI
//! and Japanese), what was left undecided, and the verdict. Its JSON form is documented in
//! README.md (`tsumugi check --format json`).

use super::solution::LineFailure;
use crate::record::board::hand_list;
use crate::shogi::notation::japanese_line;
use crate::shogi::{Hand, Move, PieceKind, Position};
use serde_json::{json, Value};

/// What a finding is (the composers' name in [`FindingKind::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindingKind {
    /// 不詰: no mate from the root, or after a defence (proven).
    NoMate,
    /// A mate shorter than the given line exists (from the root's shortest-mate search).
    ShorterMate,
    /// 余詰: another check at an attacker ply mates within the line's remaining length.
    Alternative,
    /// 最終手余詰: another mating move at the last ply (tolerated).
    LastMoveAlternative,
    /// 手順前後 / 迂回: another check whose mate rejoins the main line (same solution).
    Transposition,
    /// 早詰 of the line: a defence lasting longer than the line's defence.
    LongerDefence,
    /// A defence as long as the line's leaving fewer spare pieces (the 駒余り tie-break).
    FewerSpareDefence,
    /// 駒余り: pieces left in the attacker's hand at the end of the main line.
    SparePieces,
    /// 変同: a defence as long as the line's (a note).
    EqualVariation,
    /// 変化別詰: in a shorter variation, another mate of the attacker (a note).
    VariationAlternative,
}

/// How much a finding weighs: a flaw makes the problem unsound; a note is what composers
/// write beside a sound problem (or tolerate).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The problem is not sound as given.
    Flaw,
    /// Tolerated or noted by convention.
    Note,
}

impl FindingKind {
    /// The name in the JSON report (snake case).
    pub fn key(self) -> &'static str {
        match self {
            FindingKind::NoMate => "no_mate",
            FindingKind::ShorterMate => "shorter_mate",
            FindingKind::Alternative => "alternative",
            FindingKind::LastMoveAlternative => "last_move_alternative",
            FindingKind::Transposition => "transposition",
            FindingKind::LongerDefence => "longer_defence",
            FindingKind::FewerSpareDefence => "fewer_spare_defence",
            FindingKind::SparePieces => "spare_pieces",
            FindingKind::EqualVariation => "equal_variation",
            FindingKind::VariationAlternative => "variation_alternative",
        }
    }

    /// The composers' name.
    pub fn name(self) -> &'static str {
        match self {
            FindingKind::NoMate => "不詰",
            FindingKind::ShorterMate => "短手数の詰 (余詰)",
            FindingKind::Alternative => "余詰",
            FindingKind::LastMoveAlternative => "最終手余詰",
            FindingKind::Transposition => "手順前後/迂回",
            FindingKind::LongerDefence => "早詰 (より長い応手)",
            FindingKind::FewerSpareDefence => "駒余り (駒の余らない応手あり)",
            FindingKind::SparePieces => "駒余り",
            FindingKind::EqualVariation => "変同",
            FindingKind::VariationAlternative => "変化別詰",
        }
    }

    /// Flaw or note (see docs/composer-rules.md).
    pub fn severity(self) -> Severity {
        match self {
            FindingKind::LastMoveAlternative
            | FindingKind::Transposition
            | FindingKind::EqualVariation
            | FindingKind::VariationAlternative => Severity::Note,
            _ => Severity::Flaw,
        }
    }
}

/// One thing found, at a ply of the main line.
#[derive(Clone, Debug)]
pub struct Finding {
    /// What it is.
    pub kind: FindingKind,
    /// The main line's ply it is about, 1-based (0: the problem as a whole; for 駒余り the
    /// line's length).
    pub ply: usize,
    /// The moves that show it, from the position before that ply (empty when none apply).
    pub moves: Vec<Move>,
    /// The same in Japanese notation.
    pub moves_ja: String,
    /// One sentence.
    pub note: String,
    /// The same in Japanese, in the words composers use.
    pub note_ja: String,
}

impl Finding {
    /// A finding at 0-based `ply` whose `moves` start from `pos` (the position before it).
    pub fn new(
        kind: FindingKind,
        ply: usize,
        pos: &Position,
        moves: &[Move],
        note: &str,
        note_ja: &str,
    ) -> Finding {
        Finding {
            kind,
            ply: if kind == FindingKind::SparePieces || kind == FindingKind::NoMate && ply == 0 {
                ply
            } else {
                ply + 1
            },
            moves: moves.to_vec(),
            moves_ja: japanese_line(pos, moves),
            note: note.to_string(),
            note_ja: note_ja.to_string(),
        }
    }

    fn json(&self) -> Value {
        json!({
            "kind": self.kind.key(),
            "name": self.kind.name(),
            "severity": match self.kind.severity() { Severity::Flaw => "flaw", Severity::Note => "note" },
            "ply": self.ply,
            "moves": usi(&self.moves),
            "moves_ja": self.moves_ja,
            "note": self.note,
            "note_ja": self.note_ja,
        })
    }
}

/// A question a search left open within its share of time.
#[derive(Clone, Debug)]
pub struct Undecided {
    /// The main line's ply, 1-based (0: the problem as a whole).
    pub ply: usize,
    /// The alternative asked about, from the position before that ply.
    pub moves: Vec<Move>,
    /// The same in Japanese.
    pub moves_ja: String,
    /// What was asked and why it is open.
    pub why: String,
    /// The same in Japanese.
    pub why_ja: String,
}

impl Undecided {
    /// An open question at 0-based `ply` (0 with no moves: the problem as a whole).
    pub fn new(ply: usize, pos: &Position, moves: &[Move], why: &str, why_ja: &str) -> Undecided {
        Undecided {
            ply: if moves.is_empty() { ply } else { ply + 1 },
            moves: moves.to_vec(),
            moves_ja: japanese_line(pos, moves),
            why: why.to_string(),
            why_ja: why_ja.to_string(),
        }
    }
}

/// The verdict on the problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every question answered, no flaw (notes may remain).
    Sound,
    /// At least one flaw proven.
    Flawed,
    /// No mate from the root (proven).
    NoMate,
    /// No flaw proven, but some question is open: not known to be sound.
    Undecided,
}

impl Verdict {
    /// The name in the JSON report and the text.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::Sound => "sound",
            Verdict::Flawed => "flawed",
            Verdict::NoMate => "nomate",
            Verdict::Undecided => "undecided",
        }
    }

    /// The verdict as composers say it: 完全作, 不完全作, 不詰, 未確定.
    pub fn japanese(self) -> &'static str {
        match self {
            Verdict::Sound => "完全作",
            Verdict::Flawed => "不完全作",
            Verdict::NoMate => "不詰",
            Verdict::Undecided => "未確定",
        }
    }
}

/// The report of one check.
#[derive(Clone, Debug)]
pub struct Report {
    /// The problem.
    pub sfen: String,
    /// The convention applied ([`super::CONVENTION`]).
    pub convention: &'static str,
    /// The line was given (else it is the engine's composer line).
    pub solution_given: bool,
    /// The engine's composer line was read again with the check's 無駄合 rule and changed.
    pub reread: bool,
    /// The line given is not a mating line: where it fails. The problem is then judged on
    /// the engine's composer line (`solution_given` is false).
    pub given_line: Option<LineFailure>,
    /// The main line.
    pub line: Vec<Move>,
    /// The main line in Japanese.
    pub line_ja: String,
    /// Proven bounds on the shortest mate, strict count (every defence counted).
    pub strict_lower: Option<u32>,
    /// See `strict_lower`.
    pub strict_upper: Option<u32>,
    /// The strict shortest length is known exactly.
    pub strict_minimal: bool,
    /// Length of the engine's composer line (無駄合 omitted) when its strict length is minimal.
    pub composer_length: Option<u32>,
    /// Attacker pieces in hand at the end of the line.
    pub spare_at_end: u32,
    /// Evasions recognised as useless interpositions (not counted as defences).
    pub useless_interpositions: u32,
    /// What was found.
    pub findings: Vec<Finding>,
    /// What was left open.
    pub undecided: Vec<Undecided>,
    /// The verdict.
    pub verdict: Verdict,
    /// Why the check could not run (bad line, no king to mate).
    pub error: Option<String>,
    /// Searches run and their nodes.
    pub searches: u64,
    /// See `searches`.
    pub nodes: u64,
    /// Wall-clock time of the check.
    pub time_ms: u64,
}

fn usi(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl Report {
    pub(super) fn new(root: &Position) -> Report {
        Report {
            sfen: root.to_sfen(),
            convention: super::CONVENTION,
            solution_given: false,
            reread: false,
            given_line: None,
            line: vec![],
            line_ja: String::new(),
            strict_lower: None,
            strict_upper: None,
            strict_minimal: false,
            composer_length: None,
            spare_at_end: 0,
            useless_interpositions: 0,
            findings: vec![],
            undecided: vec![],
            verdict: Verdict::Undecided,
            error: None,
            searches: 0,
            nodes: 0,
            time_ms: 0,
        }
    }

    pub(super) fn set_line(&mut self, root: &Position, line: &[Move]) {
        self.line = line.to_vec();
        self.line_ja = japanese_line(root, line);
    }

    pub(super) fn add(&mut self, f: Finding) {
        self.findings.push(f);
    }

    /// Sets the verdict from the findings and the open questions.
    pub(super) fn decide(&mut self) {
        self.findings.sort_by_key(|f| f.ply);
        self.undecided.sort_by_key(|u| u.ply);
        self.verdict = if self
            .findings
            .iter()
            .any(|f| f.kind.severity() == Severity::Flaw)
        {
            Verdict::Flawed
        } else if self.undecided.is_empty() && self.error.is_none() {
            Verdict::Sound
        } else {
            Verdict::Undecided
        };
    }

    /// The findings of `kind`.
    pub fn of(&self, kind: FindingKind) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.kind == kind)
    }

    /// The JSON form (documented in README.md).
    pub fn json(&self) -> Value {
        json!({
            "sfen": self.sfen,
            "convention": self.convention,
            "verdict": self.verdict.key(),
            "solution_given": self.solution_given,
            "reread": self.reread,
            "given_line": self.given_line.as_ref().map(|g| json!({
                "line": usi(&g.given),
                "fails_at_ply": g.ply,
                "why": g.why,
                "mate_there": g.mate_there.as_ref().map(|l| usi(l)),
                "mate_there_ja": g.mate_there.as_ref().map(|l| japanese_line(&g.before, l)),
            })),
            "line": usi(&self.line),
            "line_ja": self.line_ja,
            "length": self.line.len(),
            "strict_lower": self.strict_lower,
            "strict_upper": self.strict_upper,
            "strict_minimal": self.strict_minimal,
            "composer_length": self.composer_length,
            "spare_at_end": self.spare_at_end,
            "useless_interpositions": self.useless_interpositions,
            "findings": self.findings.iter().map(Finding::json).collect::<Vec<_>>(),
            "undecided": self.undecided.iter().map(|u| json!({
                "ply": u.ply, "moves": usi(&u.moves), "moves_ja": u.moves_ja, "why": u.why,
                "why_ja": u.why_ja,
            })).collect::<Vec<_>>(),
            "error": self.error,
            "searches": self.searches,
            "nodes": self.nodes,
            "time_ms": self.time_ms,
        })
    }

    /// The problem has no mate (proven).
    fn no_mate(&self) -> bool {
        self.of(FindingKind::NoMate).any(|f| f.ply == 0)
    }

    /// The report for people, in Japanese: the words composers use (完全作, 余詰, 早詰, 変同,
    /// 駒余り, ...). The convention's name stays as it is (it is an identifier).
    pub fn text_ja(&self) -> String {
        let mut t = format!("判定: {}\n", self.verdict.japanese());
        if let Some(e) = &self.error {
            t.push_str(&format!("エラー: {e}\n"));
        }
        if let Some(g) = &self.given_line {
            t.push_str(&format!("与えられた手順: {}\n", g.describe_ja()));
        }
        let from = if self.solution_given {
            "与えられた作意"
        } else {
            "エンジンの作意手順"
        };
        t.push_str(&format!(
            "手順 ({from}、{}手): {}\n",
            self.line.len(),
            self.line_ja
        ));
        match (self.strict_lower, self.strict_upper) {
            (Some(l), Some(u)) if l >= u => {
                t.push_str(&format!("最短手数: {u}手 (すべての合駒を数えて、証明済み)"))
            }
            (Some(l), Some(u)) => t.push_str(&format!(
                "最短手数: {l}手から{u}手の間 (すべての合駒を数えて)"
            )),
            _ if self.no_mate() => t.push_str("最短手数: なし (不詰、証明済み)"),
            _ => t.push_str("最短手数: 未確定"),
        }
        if let Some(c) = self.composer_length {
            t.push_str(&format!("。無駄合を除いて{c}手"));
        }
        t.push('\n');
        for f in &self.findings {
            let sev = match f.kind.severity() {
                Severity::Flaw => "不備",
                Severity::Note => "注",
            };
            t.push_str(&format!(
                "[{sev}] {}手目 {}: {}",
                f.ply,
                f.kind.name(),
                f.note_ja
            ));
            if !f.moves.is_empty() {
                t.push_str(&format!("\n    {}  ({})", f.moves_ja, usi(&f.moves)));
            }
            t.push('\n');
        }
        for u in &self.undecided {
            t.push_str(&format!("[未確定] {}手目: {}", u.ply, u.why_ja));
            if !u.moves.is_empty() {
                t.push_str(&format!("\n    {}  ({})", u.moves_ja, usi(&u.moves)));
            }
            t.push('\n');
        }
        t.push_str(&format!(
            "規約: {}\n探索 {}回 局面数 {} 時間 {} ms",
            super::CONVENTION_JA,
            self.searches,
            self.nodes,
            self.time_ms
        ));
        t
    }

    /// The report for people.
    pub fn text(&self) -> String {
        let mut t = format!("verdict: {}\n", self.verdict.key());
        if let Some(e) = &self.error {
            t.push_str(&format!("error: {e}\n"));
        }
        if let Some(g) = &self.given_line {
            t.push_str(&format!("given line: {}\n", g.describe()));
        }
        let from = if self.solution_given {
            "given"
        } else {
            "engine's composer line"
        };
        t.push_str(&format!(
            "line ({from}, {} plies): {}\n",
            self.line.len(),
            self.line_ja
        ));
        match (self.strict_lower, self.strict_upper) {
            (Some(l), Some(u)) if l >= u => {
                t.push_str(&format!("shortest mate: {u} plies (strict, proven)"))
            }
            (Some(l), Some(u)) => t.push_str(&format!(
                "shortest mate: between {l} and {u} plies (strict)"
            )),
            _ if self.no_mate() => t.push_str("shortest mate: none (no mate, proven)"),
            _ => t.push_str("shortest mate: not established"),
        }
        if let Some(c) = self.composer_length {
            t.push_str(&format!("; composer count {c}"));
        }
        t.push('\n');
        for f in &self.findings {
            let sev = match f.kind.severity() {
                Severity::Flaw => "flaw",
                Severity::Note => "note",
            };
            t.push_str(&format!(
                "[{sev}] ply {} {}: {}",
                f.ply,
                f.kind.name(),
                f.note
            ));
            if !f.moves.is_empty() {
                t.push_str(&format!("\n    {}  ({})", f.moves_ja, usi(&f.moves)));
            }
            t.push('\n');
        }
        for u in &self.undecided {
            t.push_str(&format!("[undecided] ply {}: {}", u.ply, u.why));
            if !u.moves.is_empty() {
                t.push_str(&format!("\n    {}  ({})", u.moves_ja, usi(&u.moves)));
            }
            t.push('\n');
        }
        t.push_str(&format!(
            "convention: {}\nsearches {} nodes {} time_ms {}",
            self.convention, self.searches, self.nodes, self.time_ms
        ));
        t
    }
}

impl LineFailure {
    /// One sentence: where the line fails, and what mates there.
    pub fn describe(&self) -> String {
        let mv = japanese_line(&self.before, &self.given[self.ply - 1..self.ply]);
        let mut t = format!(
            "not a mating line: it fails at ply {} ({mv}, {}), which {}",
            self.ply,
            self.given[self.ply - 1],
            self.why
        );
        match &self.mate_there {
            Some(l) => t.push_str(&format!(
                "; there {} ({}) mates in {}: {}",
                japanese_line(&self.before, &l[..1]),
                l[0],
                plies(l.len()),
                japanese_line(&self.before, l)
            )),
            None => t.push_str("; no mate within the plies left was found there"),
        }
        t
    }

    /// [`LineFailure::describe`] in Japanese.
    pub fn describe_ja(&self) -> String {
        let mv = japanese_line(&self.before, &self.given[self.ply - 1..self.ply]);
        let mut t = format!(
            "詰め手順になっていない: {}手目の{mv}で{}",
            self.ply, self.why_ja
        );
        match &self.mate_there {
            Some(l) => t.push_str(&format!(
                "。そこでは{}で{}手詰: {}",
                japanese_line(&self.before, &l[..1]),
                l.len(),
                japanese_line(&self.before, l)
            )),
            None => t.push_str("。そこから残りの手数で詰む手は見つからなかった"),
        }
        t
    }
}

/// "1 ply", "3 plies".
pub fn plies(n: usize) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

/// "1 piece", "3 pieces".
pub fn pieces_en(n: u32) -> String {
    if n == 1 {
        "1 piece".into()
    } else {
        format!("{n} pieces")
    }
}

/// The English name of a kind that can be held.
fn kind_en(k: PieceKind) -> &'static str {
    match k {
        PieceKind::Pawn => "pawn",
        PieceKind::Lance => "lance",
        PieceKind::Knight => "knight",
        PieceKind::Silver => "silver",
        PieceKind::Gold => "gold",
        PieceKind::Bishop => "bishop",
        PieceKind::Rook => "rook",
        _ => "piece",
    }
}

/// A hand named in English, rook first: "gold", "rook, 2 pawns"; "nothing" when empty.
pub fn hand_en(h: &Hand) -> String {
    let items: Vec<String> = PieceKind::HAND_WRITING_ORDER
        .iter()
        .filter(|&&k| h.count(k) > 0)
        .map(|&k| match h.count(k) {
            1 => kind_en(k).to_string(),
            n => format!("{n} {}s", kind_en(k)),
        })
        .collect();
    if items.is_empty() {
        "nothing".into()
    } else {
        items.join(", ")
    }
}

/// A hand named as composers write it, rook first: "金", "飛、歩二"; "なし" when empty.
pub fn hand_ja(h: &Hand) -> String {
    hand_list(|k| h.count(k), "、")
}
