//! Reading the mating line from the table, and what a reading proves: `read_line` (minimax
//! over stored proofs, else following stored lengths), the bound a line proves, which of two
//! lines to keep, and `publish`, which shows the line and its bounds in progress reports.

use crate::mate::dfpn::Search;
use crate::mate::line;
use crate::mate::MateStatus;
use crate::shogi::{Move, Position};

/// Most positions one minimax reading may visit (memory: see `read_line`).
const MINIMAX_MAX_POSITIONS: usize = 1_000_000;

/// Reads the mating line after a proof: by minimax over the stored proofs (`line::read_minimax`:
/// its length is the length the attacker can force with them, a proven bound that is never
/// below the true minimum), or, when the table lacks a proof on the way, by following stored
/// lengths and proving lost nodes again (`line::walk` with any target; its defences may be mated faster than
/// the proof's length, so its length bounds nothing).
/// Returns the line and whether it is a minimax reading. Once a minimax reading
/// has given up on its budget, `minimax` is cleared and later calls of the same solve follow
/// stored lengths at once: each round of the shortest-mate search would otherwise spend the
/// whole budget again (a 353-ply problem spent most of 30 s so).
pub(super) fn read_line(
    s: &mut Search,
    pos: &mut Position,
    minimax: &mut bool,
) -> Result<(Vec<Move>, bool), String> {
    #[cfg(test)]
    if refuse_reading() {
        return Err("reading refused by the test".into());
    }
    if *minimax {
        // Reading is bounded absolutely: its memo takes about 40 bytes a position, and the
        // process must stay within the table size plus 64 MB. The budget is not tied to this
        // search's nodes: with a warm table (a second `go mate` on the same position) the
        // proofs were built by an earlier search, and a budget of half of this one's few nodes
        // gave up on the reading, so the answer fell back to stored lengths and printed a
        // 187-ply line with a short defence where the cold search had printed 403.
        match line::read_minimax(s, pos, MINIMAX_MAX_POSITIONS) {
            Ok(l) => match line::verify(pos, &l, s.attacker()) {
                Ok(()) => return Ok((l, true)),
                Err(e) => log::warn!("minimax line failed verification: {e}"),
            },
            Err(gave_up) => *minimax = !gave_up,
        }
        log::debug!("minimax reading failed; following stored lengths");
    }
    let (l, _) = line::walk(s, pos, line::Target::Any)?;
    line::verify(pos, &l, s.attacker())?;
    Ok((l, false))
}

/// The shortest mate proven so far: the proof's length, or a minimax line's if shorter.
pub(super) fn proven_bound(proof_len: u16, line: &[Move], minimax: bool) -> usize {
    let proof_len = proof_len as usize;
    if minimax {
        proof_len.min(line.len())
    } else {
        proof_len
    }
}

/// Whether a line read now (`bounded`: a minimax reading, see `read_line`) should replace the
/// line kept so far: a minimax reading beats one that follows stored lengths (whose defences may
/// be mated faster than the longest defence); among minimax readings the shorter wins (each is
/// a proven bound); among lines that follow stored lengths the longer wins, since a short one
/// only says that its defender chose badly (a 353-ply problem showed a 21-ply line so while its
/// proven bound was 471).
pub(super) fn better_line(bounded: bool, len: usize, kept_bounded: bool, kept_len: usize) -> bool {
    match (bounded, kept_bounded) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => len < kept_len,
        (false, false) => len > kept_len,
    }
}

/// Shows `line` with what is proven so far (a mate within `upper` plies, none within fewer than
/// `lower`) in progress reports from now on, and reports `news` at once.
pub(super) fn publish(s: &mut Search, line: &[Move], upper: usize, lower: usize, news: String) {
    let status = MateStatus {
        upper: upper as u32,
        lower: lower as u32,
        longest_defences: false,
        line_len: line.len() as u32,
        composer_len: None,
    };
    s.set_reported(Some((line.to_vec(), status)));
    s.report(news);
}

// A test-only fault: the driver tests make `read_line` fail after a number of readings.
#[cfg(test)]
thread_local! {
    /// Readings `read_line` still performs on this thread before it refuses every one
    /// (`None`: it never refuses).
    pub(super) static READS_LEFT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Whether `read_line` must fail now (see `READS_LEFT`).
#[cfg(test)]
fn refuse_reading() -> bool {
    READS_LEFT.with(|r| match r.get() {
        Some(0) => true,
        Some(n) => {
            r.set(Some(n - 1));
            false
        }
        None => false,
    })
}
