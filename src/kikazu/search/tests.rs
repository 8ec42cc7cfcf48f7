use super::*;

fn opts(area: Area, bidirectional: bool, mode: Mode, threads: usize) -> SearchOptions {
    SearchOptions {
        area,
        bidirectional,
        mode,
        threads,
        deadline: None,
    }
}

fn count(spec: &str, area: Area, bidirectional: bool, threads: usize) -> Outcome {
    let set = PieceSet::parse(spec).unwrap();
    search(
        &set,
        &opts(area, bidirectional, Mode::Count, threads),
        |_| {},
        &|_, _| {},
    )
}

/// Brute force with no pruning and no ordering: every way to give each piece (in the
/// spec's order, one facing each, both facings for pieces whose attacks depend on it when
/// `bidirectional`) a distinct square of the area, kept when valid by
/// [`Placement::is_valid`], which applies the occupancy-dependent attacks of the rules.
/// Identical pieces are told apart by sorting each placement's (square, unit, facing)
/// triples, so a placement is counted once.
fn brute(spec: &str, area: Area, bidirectional: bool) -> (u64, u64) {
    let set = PieceSet::parse(spec).unwrap();
    let mut units = Vec::new();
    for &(u, c, n) in &set.entries {
        for _ in 0..n {
            units.push((u, c));
        }
    }
    let squares: Vec<Square> = area.mask().collect();
    let mut seen = std::collections::HashSet::new();
    let mut cur: Vec<Placed> = Vec::new();
    fn rec(
        i: usize,
        units: &[(Unit, Color)],
        squares: &[Square],
        area: Area,
        bidirectional: bool,
        cur: &mut Vec<Placed>,
        seen: &mut std::collections::HashSet<Vec<Placed>>,
    ) {
        if i == units.len() {
            let p = Placement {
                pieces: cur.clone(),
                area,
            };
            if p.is_valid() {
                let mut k = cur.clone();
                k.sort();
                seen.insert(k);
            }
            return;
        }
        let (u, c) = units[i];
        let colors: Vec<Color> = if bidirectional && facing_matters(u) {
            vec![Color::Black, Color::White]
        } else if bidirectional {
            vec![Color::Black]
        } else {
            vec![c]
        };
        for &sq in squares {
            if cur.iter().any(|p| p.sq == sq) {
                continue;
            }
            for &color in &colors {
                cur.push(Placed { sq, unit: u, color });
                rec(i + 1, units, squares, area, bidirectional, cur, seen);
                cur.pop();
            }
        }
    }
    rec(
        0,
        &units,
        &squares,
        area,
        bidirectional,
        &mut cur,
        &mut seen,
    );
    let symmetric = seen
        .iter()
        .filter(|k| {
            Placement {
                pieces: (*k).clone(),
                area,
            }
            .mirrored()
            .pieces
                == **k
        })
        .count() as u64;
    (seen.len() as u64, symmetric)
}

#[test]
fn counts_match_brute_force_on_small_boards() {
    let cases: &[(&str, &str)] = &[
        ("P3", "3x3"),
        ("P2L", "3x3"),
        ("RB", "3x3"),
        ("GSN", "3x3"),
        ("KP2", "3x3"),
        ("NNP", "4x3"),
        ("RPP", "3x4"),
        ("BL", "4x4"),
        ("GgP", "3x3"),
        ("SX2", "3x3"),
        ("+R+BP", "3x4"),
        ("P4", "2x4"),
        ("LLN", "3x4"),
    ];
    for &(spec, area) in cases {
        let area = Area::parse(area).unwrap();
        for bidirectional in [false, true] {
            if bidirectional && spec.chars().any(|c| c.is_ascii_lowercase()) {
                continue;
            }
            let (n, sym) = brute(spec, area, bidirectional);
            assert!(
                n > 0,
                "{spec} on {area}: the brute force found nothing to compare"
            );
            for threads in [1, 3] {
                let o = count(spec, area, bidirectional, threads);
                assert!(o.complete);
                assert_eq!(
                    (o.count, o.symmetric),
                    (n, sym),
                    "{spec} on {area}, bidirectional {bidirectional}, {threads} threads"
                );
            }
        }
    }
}

#[test]
fn all_lists_valid_distinct_placements_in_thread_independent_order() {
    let set = PieceSet::parse("SP3").unwrap();
    let area = Area::parse("3x4").unwrap();
    let mut lists = Vec::new();
    for threads in [1, 2, 5] {
        let mut v = Vec::new();
        let o = search(
            &set,
            &opts(area, true, Mode::All, threads),
            |p| v.push(p.sfen_board()),
            &|_, _| {},
        );
        assert_eq!(o.count as usize, v.len());
        lists.push(v);
    }
    assert!(lists[0].len() > 10);
    assert_eq!(lists[0], lists[1]);
    assert_eq!(lists[0], lists[2]);
    let distinct: std::collections::HashSet<_> = lists[0].iter().collect();
    assert_eq!(distinct.len(), lists[0].len());
    for b in &lists[0] {
        assert!(
            super::super::spec::parse_board(b, area).unwrap().is_valid(),
            "{b}"
        );
    }
}

#[test]
fn first_is_the_first_of_all_and_none_when_impossible() {
    let set = PieceSet::parse("GSP4").unwrap();
    let area = Area::parse("4x4").unwrap();
    let mut all = Vec::new();
    search(
        &set,
        &opts(area, false, Mode::All, 1),
        |p| all.push(p.clone()),
        &|_, _| {},
    );
    for threads in [1, 2] {
        let o = search(
            &set,
            &opts(area, false, Mode::First, threads),
            |_| {},
            &|_, _| {},
        );
        assert_eq!(o.first.as_ref(), all.first());
        assert!(o.complete);
    }
    // Seven pawns facing up cannot stand on a 3x3 board (at most two per file).
    let o = count("P7", Area::parse("3x3").unwrap(), false, 2);
    assert_eq!(o.count, 0);
    assert!(o.complete);
}

#[test]
fn pawns_alone_reach_45_one_way_and_54_both_ways() {
    let first = |spec: &str, bi: bool| {
        let set = PieceSet::parse(spec).unwrap();
        search(
            &set,
            &opts(Area::FULL, bi, Mode::First, 1),
            |_| {},
            &|_, _| {},
        )
    };
    let o = first("P45", false);
    assert!(o.first.as_ref().unwrap().is_valid());
    assert!(first("P46", false).first.is_none());
    let o = first("P54", true);
    assert!(o.first.as_ref().unwrap().is_valid());
    assert!(first("P55", true).first.is_none());
}

#[test]
fn deadline_in_the_past_stops_incomplete() {
    let set = PieceSet::parse("P18L4N4S4G4K2R2B2").unwrap();
    let mut o = opts(Area::FULL, false, Mode::Count, 1);
    o.deadline = Some(Instant::now());
    let out = search(&set, &o, |_| {}, &|_, _| {});
    assert!(!out.complete);
}
