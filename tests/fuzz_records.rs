//! Property test: the problem-file readers (`tsumugi::record`: encoding detection, SFEN, KIF/KI2
//! with BOD diagrams, CSA, df-pn-rust's ASCII board) never panic, whatever the bytes: mutations of valid KIF, KI2, CSA
//! SFEN and ASCII-board records (characters replaced, inserted and deleted from a vocabulary of the
//! formats' own symbols, lines dropped, duplicated and swapped, truncation), the same in
//! Shift_JIS, and random bytes. Every record that is read is also written back (KIF and CSA)
//! and read again to the same position: the writers and readers agree.
//!
//! Quick version (runs in `cargo test`): 30 000 inputs. Full version, one million:
//!
//! ```sh
//! cargo test --release --test fuzz_records -- --ignored --nocapture
//! ```
//!
//! `FUZZ_SEED=<n>` changes the seed (printed; a failure names the input).

mod common;

use common::rng::Rng;
use std::time::Instant;
use tsumugi::record::{self, csa, kif};
use tsumugi::shogi::{Move, MoveList, Position};

/// Symbols of the formats, so mutations reach deep into the readers.
const VOCAB: &[&str] = &[
    "|",
    " ・",
    "v",
    "歩",
    "香",
    "桂",
    "銀",
    "金",
    "角",
    "飛",
    "玉",
    "王",
    "と",
    "杏",
    "圭",
    "全",
    "馬",
    "龍",
    "竜",
    "成",
    "不成",
    "打",
    "同",
    "　",
    "一",
    "二",
    "九",
    "十",
    "十八",
    "１",
    "９",
    "：",
    "後手の持駒：",
    "先手の持駒：",
    "なし",
    "後手番",
    "手合割：",
    "平手",
    "角落ち",
    "▲",
    "△",
    "右",
    "左",
    "上",
    "引",
    "寄",
    "直",
    "(",
    ")",
    "77",
    "00",
    "*",
    "#",
    "変化：",
    "まで",
    "投了",
    "詰み",
    "P1",
    "PI",
    "P+",
    "P-",
    "00AL",
    "+",
    "-",
    " * ",
    "FU",
    "OU",
    "UM",
    "RY",
    "%TORYO",
    ",",
    "'",
    "T1",
    "sfen ",
    "position ",
    "startpos",
    "moves",
    "7g7f",
    "P*5e",
    "/",
    "9",
    "b",
    "w",
    "\n",
    "\r\n",
    " ",
    "\u{feff}",
    "\u{ffea}",
    "\u{ffec}",
    "x2",
    "---------------------------",
    "   ",
];

/// df-pn-rust's ASCII board (the layout of its `examples/five.txt`).
const ASCII_BOARD: &str = "歩x14 香x3 桂x4 銀x2 金 角 飛x2
---------------------------
                     \u{ffec}香
                           
            \u{ffec}金   \u{ffea}と      
                  \u{ffea}銀   \u{ffec}金
                  \u{ffec}王      
               \u{ffec}歩\u{ffec}歩\u{ffec}歩   
                           
                           
                           
---------------------------
角 金 銀
";

fn pick<'a>(rng: &mut Rng, v: &[&'a str]) -> &'a str {
    v[rng.below(v.len())]
}

/// Valid records to mutate: KIF (BOD and moves), KI2, CSA and SFEN of random playouts from
/// the start position and from a problem position.
fn seeds() -> Vec<String> {
    let mut rng = Rng::from_state(12345);
    let mut out = vec![ASCII_BOARD.to_string()];
    for start in [
        Position::startpos(),
        Position::from_sfen("9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1").unwrap(),
        Position::from_sfen(
            "l3k2nl/4g1gb1/1+S1pspp+P1/p1p6/3n4p/2PPR1P2/P2bPP2P/5GS2/LN1K4L w R2Pgsn2p 50",
        )
        .unwrap(),
    ] {
        for len in [0usize, 3, 12, 40] {
            let mut p = start.clone();
            let mut line: Vec<Move> = vec![];
            let mut list = MoveList::new();
            for _ in 0..len {
                p.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let m = list.as_slice()[rng.below(list.len())];
                line.push(m);
                p.do_move(m);
            }
            out.push(kif::write(&start, &line, Some("投了"), &["comment".into()]));
            out.push(csa::write(
                &start,
                &line,
                Some("%TORYO"),
                &["comment".into()],
            ));
            let moves: Vec<String> = line.iter().map(|m| m.to_string()).collect();
            out.push(format!(
                "position sfen {} moves {}",
                start.to_sfen(),
                moves.join(" ")
            ));
            // KI2: the KIF moves with ▲△ marks and without origins.
            let mut q = start.clone();
            let mut ki2 = String::new();
            let mut prev = None;
            for &m in &line {
                // Without relative words (右, 引, ...) only unambiguous moves can be written.
                let same = q
                    .legal_move_list()
                    .iter()
                    .filter(|o| {
                        o.to() == m.to()
                            && o.is_drop() == m.is_drop()
                            && o.is_promotion() == m.is_promotion()
                            && (m.is_drop()
                                || q.piece_on(o.from()).kind() == q.piece_on(m.from()).kind())
                    })
                    .count();
                if same > 1 {
                    break;
                }
                let t = kif::move_text(&q, m, prev);
                let mut t = t.split('(').next().unwrap_or("").to_string();
                // KI2 writes 不成 where the piece could have promoted.
                if !m.is_drop()
                    && !m.is_promotion()
                    && q.legal_move_list()
                        .iter()
                        .any(|&o| o == Move::normal(m.from(), m.to(), true))
                {
                    t.push_str("不成");
                }
                let mark = if q.side_to_move() == tsumugi::shogi::Color::Black {
                    '▲'
                } else {
                    '△'
                };
                ki2.push(mark);
                ki2.push_str(&t);
                ki2.push(' ');
                prev = Some(m.to());
                q.do_move(m);
            }
            out.push(format!("{}{ki2}\n", kif::bod(&start)));
        }
    }
    out
}

fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut chars: Vec<String> = seed.chars().map(String::from).collect();
    match rng.below(4) {
        0 => {
            // Line-level: drop, duplicate or swap lines.
            let mut lines: Vec<String> = seed.lines().map(String::from).collect();
            for _ in 0..1 + rng.below(3) {
                if lines.is_empty() {
                    break;
                }
                let i = rng.below(lines.len());
                let j = rng.below(lines.len());
                match rng.below(3) {
                    0 => {
                        lines.remove(i);
                    }
                    1 => {
                        let l = lines[i].clone();
                        lines.insert(j, l);
                    }
                    _ => lines.swap(i, j),
                }
            }
            return lines.join("\n");
        }
        1 => {
            let n = rng.below(chars.len() + 1);
            chars.truncate(n);
        }
        _ => {}
    }
    for _ in 0..1 + rng.below(6) {
        let i = rng.below(chars.len() + 1);
        let w = pick(rng, VOCAB).to_string();
        match rng.below(3) {
            0 if i < chars.len() => chars[i] = w,
            1 if i < chars.len() => {
                chars.remove(i);
            }
            _ => chars.insert(i, w),
        }
    }
    chars.concat()
}

/// Reads `bytes`; a record read must write back and read again to the same position.
fn exercise(bytes: &[u8], stats: &mut [usize; 2]) {
    let r = std::panic::catch_unwind(|| match record::read_bytes(bytes) {
        Err(e) => {
            assert!(!e.reason.is_empty());
            false
        }
        Ok(r) => {
            let p = r.position();
            for text in [
                kif::write(&p, &[], None, &[]),
                csa::write(&p, &[], None, &[]),
            ] {
                let back = record::read_text(&text)
                    .unwrap_or_else(|e| panic!("written record unreadable: {e}\n{text}"));
                let strip = |s: String| s.rsplit_once(' ').map(|(a, _)| a.to_string()).unwrap_or(s);
                assert_eq!(
                    strip(back.position().to_sfen()),
                    strip(p.to_sfen()),
                    "{text}"
                );
            }
            true
        }
    });
    match r {
        Ok(ok) => stats[ok as usize] += 1,
        Err(_) => panic!("reader panicked on {:?}", String::from_utf8_lossy(bytes)),
    }
}

fn seed() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x7265_636f_7264_7321)
}

fn fuzz(n: usize) {
    let seeds = seeds();
    for s in &seeds {
        let r = record::read_text(s).unwrap_or_else(|e| panic!("seed unreadable: {e}\n{s}"));
        let _ = r.position();
    }
    let seed = seed();
    let mut rng = Rng::from_state(seed);
    let mut stats = [0usize; 2];
    let t = Instant::now();
    for _ in 0..n {
        let s = &seeds[rng.below(seeds.len())];
        let text = mutate(&mut rng, s);
        let bytes = match rng.below(6) {
            0 => encoding_rs::SHIFT_JIS.encode(&text).0.into_owned(),
            1 => {
                let len = rng.below(400);
                (0..len).map(|_| rng.next() as u8).collect()
            }
            _ => text.into_bytes(),
        };
        exercise(&bytes, &mut stats);
    }
    println!(
        "fuzz_records: {n} inputs, seed {seed}, {:.1}s; read {}, rejected {}",
        t.elapsed().as_secs_f64(),
        stats[1],
        stats[0]
    );
    // Both outcomes must be common, or the mutations prove little.
    assert!(stats[1] > n / 20 && stats[0] > n / 20, "{stats:?}");
}

#[test]
fn readers_never_panic_quick() {
    fuzz(30_000);
}

#[test]
#[ignore = "a million inputs: cargo test --release --test fuzz_records -- --ignored --nocapture"]
fn readers_never_panic_million() {
    fuzz(1_000_000);
}

/// What a reading of a text gives: the start position (without its move number) and the
/// moves, or `None` when the text is rejected.
fn reading(bytes: &[u8]) -> Option<(String, Vec<Move>)> {
    let r = record::read_bytes(bytes).ok()?;
    let sfen = r.start.to_sfen();
    let start = sfen
        .rsplit_once(' ')
        .map_or(sfen.clone(), |(a, _)| a.to_string());
    Some((start, r.moves))
}

/// A line whose shortening is, by its format's own definition, another valid statement: a
/// list with no terminator (a hand: KIF `の持駒：`, CSA `P+`/`P-`, `PI` with removals, the
/// ASCII board's hand lines) or an ASCII board row (its trailing empty squares are spaces,
/// which editors trim). No reader can tell such a line cut short from one written so.
fn open_ended_when_cut(format: record::Format, line: &str, cut: usize) -> bool {
    let t = line.trim_start_matches('\u{feff}');
    if t.contains("の持駒：") || t.starts_with("P+") || t.starts_with("P-") || t.starts_with("PI")
    {
        return true;
    }
    match format {
        record::Format::Ascii => !t.trim().chars().all(|c| c == '-'),
        // A USI move cut before its `+` is the same move without promotion.
        record::Format::Sfen => line[cut..].starts_with('+'),
        _ => false,
    }
}

/// A line the format lets one leave out, its absence meaning something else: KIF's `後手番`
/// (absent: Black to move), CSA's `P+`/`P-` statements (hands and placements are optional),
/// the ASCII board's hand lines (absent: an empty hand).
fn optional_line(format: record::Format, line: &str) -> bool {
    let t = line.trim().trim_start_matches('\u{feff}');
    matches!(t, "後手番" | "上手番")
        || t.starts_with("P+")
        || t.starts_with("P-")
        || (format == record::Format::Ascii
            && !t.is_empty()
            && !t
                .chars()
                .all(|c| c == '-' || c == ' ' || c == '\u{ffea}' || c == '\u{ffec}')
            && !t.contains(['\u{ffea}', '\u{ffec}']))
}

/// `Ok` when `got` (a reading of `seed` with a part of it lost) is a rejection, the seed's own
/// position with a prefix of its moves (moves at the end are what a shorter record is), or a
/// change the format cannot show (`excused`); `Err` describes a different position read.
fn judge(
    want: &(String, Vec<Move>),
    got: Option<(String, Vec<Move>)>,
    excused: bool,
) -> Result<(), String> {
    let Some((start, moves)) = got else {
        return Ok(());
    };
    if start == want.0 && moves.len() <= want.1.len() && want.1[..moves.len()] == moves[..] {
        return Ok(());
    }
    if excused {
        return Ok(());
    }
    Err(format!(
        "read as {start} with {} moves; the whole text is {} with {}",
        moves.len(),
        want.0,
        want.1.len()
    ))
}

/// Every valid seed with one line deleted, one line cut at any character, or the whole text
/// cut at any byte: the reader rejects it or reads the seed's own position (its moves cut to
/// a prefix), never another position silently, except where the format itself cannot tell
/// (see [`open_ended_when_cut`] and [`optional_line`]). Exhaustive over the seeds; byte cuts
/// on every seed in a release build, every seventh byte in a debug one.
#[test]
fn a_lost_line_or_a_cut_never_reads_as_another_position() {
    let byte_step = if cfg!(debug_assertions) { 7 } else { 1 };
    let mut failures: Vec<String> = vec![];
    let mut tried = 0usize;
    let mut read_ok = 0usize;
    for seed in seeds() {
        let format = record::detect(&seed).unwrap();
        let want = reading(seed.as_bytes()).expect("seed reads");
        let lines: Vec<&str> = seed.split_inclusive('\n').collect();
        let mut check = |text: &[u8], excused: bool, what: String| {
            tried += 1;
            let got = reading(text);
            read_ok += got.is_some() as usize;
            if let Err(e) = judge(&want, got, excused) {
                if failures.len() < 20 {
                    failures.push(format!(
                        "{what}: {e}\n--- text ---\n{}",
                        String::from_utf8_lossy(text)
                    ));
                }
            }
        };
        for i in 0..lines.len() {
            let without: String = lines
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, l)| *l)
                .collect();
            check(
                without.as_bytes(),
                optional_line(format, lines[i]),
                format!("line {} deleted ({:?})", i + 1, lines[i].trim_end()),
            );
            let body = lines[i].trim_end_matches(['\n', '\r']);
            for (cut, _) in body.char_indices().skip(1) {
                let text: String = lines
                    .iter()
                    .enumerate()
                    .map(|(j, l)| {
                        if j == i {
                            format!("{}\n", &body[..cut])
                        } else {
                            l.to_string()
                        }
                    })
                    .collect();
                check(
                    text.as_bytes(),
                    open_ended_when_cut(format, body, cut),
                    format!("line {} cut to {:?}", i + 1, &body[..cut]),
                );
            }
        }
        // The whole text cut at a byte: the line the cut falls in is cut short and every line
        // after it lost.
        let bytes = seed.as_bytes();
        for b in (1..bytes.len()).step_by(byte_step) {
            let mut start = 0;
            let mut excused = false;
            for l in &lines {
                let end = start + l.len();
                if b <= start {
                    excused |= optional_line(format, l);
                } else if b < end {
                    let body = l.trim_end_matches(['\n', '\r']);
                    let mut cut = (b - start).min(body.len());
                    while !body.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    excused |= cut < body.len() && open_ended_when_cut(format, body, cut);
                }
                start = end;
            }
            check(&bytes[..b], excused, format!("cut at byte {b}"));
        }
    }
    println!("{tried} shortened texts, {read_ok} read");
    assert!(
        failures.is_empty(),
        "{} texts read as another position; the first:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
