//! The shortest-mate rounds (KomoringHeights' post-search): after the first proof, prove or
//! refute a mate within a length below the proven one until the bounds meet. The length tried
//! gallops down while rounds find mates and is bisected once one fails (`next_limit`); a round
//! below the bound minus two is speculative and has a node budget; each round is swept from the
//! end of the line back to the root (`round`). Every refuted length is announced as a lower
//! bound, every proven one as an upper bound.

use super::reading::{better_line, proven_bound, publish, read_line};
use super::shorten::shorten_line;
use super::Proven;
use crate::mate::clock::Instant;
use crate::mate::dfpn::{NodeResult, Search};
use crate::shogi::{Move, Position};

/// Runs the shortest-mate rounds on `p`, what the first proof (and the remembered answer)
/// established, until `lower` meets `upper`, a round fails to decide, or the search is stopped.
/// `user_limit` is the user's longest mate (plies); `minimax` the reading policy (see
/// `read_line`).
///
/// Why rounds: proofs in the table longer than the limit are ignored by `mid`; failures at the
/// limit are stored as "no mate within n plies" (see `tt`) and reused by later rounds. A line
/// from the minimax reading (`p.bounded`) has a proven length, never below the true minimum;
/// such a line is kept over one that follows stored lengths.
/// A round below `upper - 2` is speculative: it may land just under the minimum, where
/// refuting is hardest, before the cheap rounds above have shortened the line. It gets
/// a budget of `SPECULATION_BUDGET` times the nodes the whole solve has searched so far
/// (halved for each one abandoned before); past that it is abandoned, and the rounds
/// step down two plies at a time until three more have found mates. Measured on
/// famous.tsv row 56 (無双1番): proven 39 after 3.4 s, the gallop tried 23 and was still
/// refuting it at 30 s, leaving a 47-ply line where stepping reached 25.
pub(super) fn shortest_mate(
    s: &mut Search,
    pos: &mut Position,
    p: &mut Proven,
    user_limit: u32,
    minimax: &mut bool,
) {
    let mut step = 1usize;
    let mut found = 0usize;
    let mut bisect = false;
    let mut abandoned = 0u32;
    while p.upper >= p.lower + 2 {
        let limit = next_limit(p.lower, p.upper, step, bisect).min(user_limit);
        s.set_limit(limit);
        let speculative = (limit as usize) + 2 < p.upper;
        let budget = s.nodes().saturating_mul(SPECULATION_BUDGET) >> abandoned.min(16);
        s.set_round_budget(speculative.then_some(budget));
        let (n0, t0) = (s.nodes(), Instant::now());
        let r = round(s, pos, &p.line, p.bounded, limit);
        let over_budget = s.over_budget();
        s.set_round_budget(None);
        if over_budget {
            log::debug!(
                "round within {limit}: over its budget after {} nodes; stepping by two",
                s.nodes() - n0
            );
            abandoned += 1;
            (step, found, bisect) = (1, 0, false);
            continue;
        }
        log::debug!(
            "round within {limit}: pn {} len {} in {} nodes, {} ms",
            r.v.pn,
            r.v.len,
            s.nodes() - n0,
            t0.elapsed().as_millis()
        );
        if s.aborted().is_some() {
            log::info!("stopped while looking for a mate shorter than {}", p.upper);
            break;
        }
        if r.v.pn != 0 {
            if r.v.dn != 0 || limit >= user_limit {
                break;
            }
            // No mate within `limit` (it has the parity of every mate from here).
            p.lower = limit as usize + 2;
            bisect = true;
            let news = failed_round_news(limit, p.lower, p.upper);
            log::debug!("{news}");
            publish(s, &p.line, p.upper, p.lower, news);
            continue;
        }
        if l_is_stuck(r.v.len as usize, limit) {
            break;
        }
        // A mate within the limit is proven, whether or not its line can be read.
        p.upper = p.upper.min(r.v.len as usize);
        // Gallop only once three rounds in a row have found mates, and only above
        // `GALLOP_MIN_BOUND` plies: short problems end in a few rounds, and a speculative
        // one there is mostly an extra failing round (mate3-11 at 3 s a problem: 9% more
        // nodes galloping from the first round), or one abandoned over its budget whose
        // unsolved entries, numbers found under a shorter limit, mislead the next rounds
        // (an extra1-9 problem: 73 K nodes for a round that took 1 K).
        found += 1;
        if found >= GALLOP_AFTER && p.upper >= GALLOP_MIN_BOUND {
            step *= 2;
        }
        let (n0, t0) = (s.nodes(), Instant::now());
        let read = read_line(s, pos, minimax);
        log::debug!(
            "reading: {} nodes, {} ms",
            s.nodes() - n0,
            t0.elapsed().as_millis()
        );
        match read {
            Ok((l, bounded)) => {
                log::debug!("mate within {limit}: found {} plies", l.len());
                p.upper = p.upper.min(proven_bound(r.v.len, &l, bounded));
                if better_line(bounded, l.len(), p.bounded, p.line.len()) {
                    p.line = l;
                    p.bounded = bounded;
                    p.longest_defences = false;
                }
                publish(
                    s,
                    &p.line,
                    p.upper,
                    p.lower,
                    format!("mate within {} plies proven", p.upper),
                );
                shorten_line(s, pos, p, minimax);
            }
            Err(e) => {
                // The bound is proven whether or not a line can be read now: keep the
                // line kept so far and go on with the rounds. Ending here left the answer
                // at a bound above the minimum with time to spare: long-ge50 row 1 (353
                // plies) with six threads, 4 runs in about 80 under load, stopped at "mate
                // within 357" or "379", none shorter refuted, a few seconds into a 120 s
                // budget, showing lines of 233-257 plies read by stored lengths. The rounds
                // end anyway: each one lowers `upper` or raises `lower`, and once they meet
                // the exact line is read when the answer is finished (`finish`).
                if s.aborted().is_some() {
                    break;
                }
                log::info!("shorter mate proven but its line was not read: {e}");
                publish(
                    s,
                    &p.line,
                    p.upper,
                    p.lower,
                    format!("mate within {} plies proven", p.upper),
                );
            }
        }
    }
}

/// What a round that found no mate within `limit` leaves known: the shortest mate takes
/// `lower` plies, or between `lower` and `upper`.
pub(super) fn failed_round_news(limit: u32, lower: usize, upper: usize) -> String {
    if lower >= upper {
        format!("no mate within {limit} plies: the shortest mate takes {upper}")
    } else {
        format!("no mate within {limit} plies: the shortest mate takes {lower} to {upper}")
    }
}

/// The length limit of the next shortest-mate round, given that a mate within `upper` plies
/// is proven and none within fewer than `lower`: `upper - 2j`, which keeps the parity every
/// mate from this root has (so a failure at it proves `lower = limit + 2`). Galloping, `j` is
/// `step` (1, 2, 4, ... while rounds find mates); bisecting (after a round failed), it is half
/// the candidates left, rounded up, so the top candidate `upper - 2` is tried when one or two
/// are left. Never below `lower`.
///
/// Why: the rounds step down two plies at a time, and on a problem whose first proof is far
/// above its minimum most of them are cheap but there are many: long-ge50 row 1 (353 plies)
/// was first proven at 533, and its rounds went down 2 plies at a time, reaching 353 after
/// about 48 s (1024 MB); a round far below the minimum fails cheaply, since a short length
/// limit cuts the search shallow.
pub(super) fn next_limit(lower: usize, upper: usize, step: usize, bisect: bool) -> u32 {
    let candidates = (upper - lower) / 2;
    let j = if bisect {
        candidates.div_ceil(2)
    } else {
        step.min(candidates)
    };
    (upper - 2 * j.max(1)) as u32
}

/// One round of the shortest-mate search: a mate within `limit` plies from the root, or none.
/// The round first searches attacker positions of `line` (the shortest line proven so far,
/// from the root `pos`) `SWEEP_STRIDE` plies apart, from its end back to the root, each with the
/// moves before it as its path and `limit` as the same absolute limit, so that each proves or
/// refutes a mate within `limit - d` plies from ply d; then the root. Bottom-up, the line's
/// positions have their strongest refutation ("no mate within the remainder minus two") in the
/// table before the searches above them reach them, by the line or by a detour that arrives
/// later with less to spare; from the root alone, df-pn reached them first by detours, refuted
/// them within those smaller lengths, and did the work again for the line's own. Microcosmos'
/// proof that no mate within 1523 plies exists: 237 M nodes (275 s) from the root, 88 M (129
/// s) swept at every attacker position, 89 M (110 s) every 32 plies; 図巧100番's answer: 22.3 M
/// nodes from the root, 15.6 M swept. Every position is too many on short lines: the sweep
/// insists on refuting the line's own defences where the root search finds an easier escape
/// (extra1-9 at 3 s a problem took 5.2 s instead of 1.7 s), and 32 plies leaves those alone.
/// A line read by following stored lengths, not minimax, is no guide (its remainders bound
/// nothing): the root is searched at once. When a position of the line has a mate within the
/// limit, the sweep stops and the root is searched.
fn round(
    s: &mut Search,
    pos: &mut Position,
    line: &[Move],
    bounded: bool,
    limit: u32,
) -> NodeResult {
    if !bounded {
        return s.prove(pos);
    }
    let or_root = pos.side_to_move() == s.attacker();
    let stride = SWEEP_STRIDE;
    // Attacker positions `stride` plies apart (rounded to an attacker ply), the deepest one
    // `stride` plies from the end of the line.
    let plies = (1..line.len().saturating_sub(stride - 1))
        .rev()
        .filter(|&d| (d % 2 == 0) == or_root && (d as u32) < limit)
        .step_by(stride / 2);
    for d in plies {
        let r = s.prove_at_helped(pos, &line[..d], None, limit);
        if s.aborted().is_some() || s.over_budget() {
            break;
        }
        if r.v.pn == 0 {
            log::debug!(
                "sweep: ply {d} of the line has a mate within {}",
                limit - d as u32
            );
            break;
        }
    }
    s.prove(pos)
}

/// Rounds that must find mates, stepping down two plies, before the step starts doubling.
const GALLOP_AFTER: usize = 3;

/// A speculative round's node budget, in multiples of the nodes searched so far. Measured on
/// long-ge50 row 1 (353 plies, 1024 MB; its useful speculative rounds fail below the minimum
/// and give lower bounds) and famous.tsv row 56 (25 plies, 30 s): with 1, row 1's rounds were
/// abandoned again and again and its minimum took 36 s; with 2, 60 s was not enough (an
/// abandoned round's unsolved entries, numbers found under a shorter limit, misled the next
/// round); with 4, 17.7 s. Row 56 reached 25 plies in 6 to 8 s with each.
const SPECULATION_BUDGET: u64 = 4;

/// Proven bound (plies) below which the rounds never gallop.
const GALLOP_MIN_BOUND: usize = 64;

/// Plies between the line positions a round's sweep searches (see `round`).
const SWEEP_STRIDE: usize = 32;

/// The proof claims a length over the limit it was searched with: stop rather than loop.
fn l_is_stuck(proven_len: usize, limit: u32) -> bool {
    proven_len > limit as usize
}
