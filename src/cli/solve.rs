//! `tsumugi solve`: solve one position and write the answer as `--format` asks (the USI reply
//! by default, then what is established about it); `--batch` hands over to [`super::batch`].
//!
//! The position comes from SFEN words, `--sfen`, a file or standard input, read by
//! [`crate::record`] (SFEN, KIF/KI2, CSA; UTF-8 or Shift_JIS).

use super::args::{
    clip_message, clip_word, usage_error, OutFormat, SearchOpts, SolveArgs, EXIT_USAGE,
};
use super::output::{note, say};
use crate::mate::{Limits, Outcome, SearchResult, Solver, UnknownReason};
use crate::record::{self, csa, kif};
use crate::shogi::notation::japanese_line;
use crate::shogi::Position;
use crate::usi::checkmate_reply;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Exit status after Ctrl-C (or SIGTERM/SIGHUP), as shells report 128 + SIGINT.
pub const EXIT_INTERRUPTED: u8 = 130;

/// Raised by the signal handler: the running search stops and its answer is printed.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C stop the search instead of killing the process (a proven mate would be lost);
/// a second one exits at once.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn install_signal_handler() {
    let r = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED as i32);
        }
    });
    if let Err(e) = r {
        log::warn!("cannot catch Ctrl-C ({e}); it will end the search without an answer");
    }
}

/// WebAssembly has no signals (the command line is not used there; it compiles so that the
/// bindings can share `bench`'s positions).
#[cfg(target_arch = "wasm32")]
pub(crate) fn install_signal_handler() {}

/// Reads the position of `words` (positional arguments) or `sfen` (`--sfen`): SFEN words
/// (with `moves`), `startpos`, a file, or `-` for standard input. `Err` is the message.
pub fn read_position(words: &[String], sfen: &Option<Vec<String>>) -> Result<Position, String> {
    if let Some(s) = sfen {
        return record::sfen::read_line(&s.join(" ")).map(|r| r.position());
    }
    if words.len() == 1 {
        let w = &words[0];
        if w == "-" {
            let mut bytes = vec![];
            std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
                .map_err(|e| format!("standard input: {e}"))?;
            return record::read_bytes(&bytes)
                .map(|r| r.position())
                .map_err(|e| format!("standard input: {e}"));
        }
        if Path::new(w).is_file() {
            return read_file(Path::new(w));
        }
    }
    let text = words.join(" ");
    if !record::sfen::looks_like(&text) {
        if words.len() == 1 {
            let w = clip_word(&text);
            if looks_like_file_name(&text) {
                return Err(if Path::new(&text).exists() {
                    format!("'{w}' is not a file")
                } else {
                    format!("'{w}': file not found")
                });
            }
            return Err(format!("'{w}' is neither a file nor a SFEN"));
        }
        let files: Vec<&String> = words
            .iter()
            .filter(|w| Path::new(w).is_file() || has_record_extension(w))
            .collect();
        if !files.is_empty() {
            return Err(format!(
                "one position at a time, got {} arguments ({}{}); to solve many, list them in a \
                 file, one per line, and use --batch FILE",
                words.len(),
                files
                    .iter()
                    .take(3)
                    .map(|f| format!("'{}'", clip_word(f)))
                    .collect::<Vec<_>>()
                    .join(", "),
                if files.len() > 3 { ", ..." } else { "" }
            ));
        }
    }
    record::sfen::read_line(&text).map(|r| r.position())
}

/// Whether `w` reads as the name of a problem file rather than a SFEN word: a record file's
/// extension, or a path separator in a single word (a SFEN board has its '/' in a word of its
/// own, followed by more words, and is recognised before this is asked).
pub fn looks_like_file_name(w: &str) -> bool {
    has_record_extension(w)
        || ((w.contains('/') || w.contains('\\')) && !w.contains(char::is_whitespace))
}

/// Whether `w` ends in the extension of a problem file (.kif, .kifu, .ki2, .ki2u, .csa, .sfen,
/// .txt; any case).
pub fn has_record_extension(w: &str) -> bool {
    const EXTENSIONS: [&str; 7] = ["kif", "kifu", "ki2", "ki2u", "csa", "sfen", "txt"];
    Path::new(w)
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// Reads the position of a problem file; `Err` names the file, the line and the reason.
pub fn read_file(path: &Path) -> Result<Position, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    record::read_bytes(&bytes)
        .map(|r| r.position())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The search limits and solver settings of `opts`; `threads` is the default thread count.
pub fn limits_of(opts: &SearchOpts, info: bool) -> Limits {
    Limits {
        // 0 is no limit, as everywhere (USI's NodesLimit 0, the page's empty field).
        time: opts.time_ms.filter(|&t| t > 0).map(Duration::from_millis),
        nodes: opts.nodes.filter(|&n| n > 0),
        post_search: opts.post_search.into(),
        // Long searches report progress on stderr so a person knows it is alive.
        info_interval: info.then(|| Duration::from_secs(5)),
        root_is_and_if_checked: !opts.no_defender_root,
        max_plies: (opts.max_plies > 0).then_some(opts.max_plies),
    }
}

/// The `--hash-mb` to allocate for `copies` tables of `want` MB each: reduced, with a one-line
/// warning, to what the available memory allows (see [`crate::mate::hash_limit_mb`]); a
/// request the machine cannot hold would otherwise fail to allocate, or be granted lazily and
/// end in the OOM killer mid-search.
pub fn fit_hash_mb(want: u64, copies: usize) -> usize {
    let want = usize::try_from(want).unwrap_or(usize::MAX);
    let copies = copies.max(1);
    let Some(limit) = crate::mate::hash_limit_mb(0) else {
        return want;
    };
    let per_copy = (limit / copies).max(1);
    if want <= per_copy {
        return want;
    }
    let each = if copies > 1 {
        format!(" x {copies} jobs")
    } else {
        String::new()
    };
    note(format_args!(
        "warning: --hash-mb {want}{each} is more than the available memory allows \
         ({} MB available); using {per_copy} MB{}",
        crate::mate::available_memory_mb().unwrap_or(0),
        if copies > 1 { " per job" } else { "" }
    ));
    per_copy
}

/// A solver with the table size, threshold and threads of `opts` (`opts.hash_mb` already
/// passed through [`fit_hash_mb`]).
pub fn solver_of(opts: &SearchOpts, threads: usize) -> Solver {
    let mut solver = Solver::new(opts.hash_mb as usize);
    solver.threshold = opts.threshold.unwrap_or_default();
    solver.set_threads(threads);
    solver
}

/// `tsumugi solve [options] <position>`.
pub fn cmd_solve(args: SolveArgs) -> ExitCode {
    const SUB: &str = "solve";
    #[cfg(not(target_arch = "wasm32"))]
    if args.batch.is_some() {
        return super::batch::run(args);
    }
    for (given, name) in [
        (args.jobs.is_some(), "--jobs"),
        (args.ordered, "--ordered"),
        (args.skip_done.is_some(), "--skip-done"),
        (args.shard.is_some(), "--shard"),
    ] {
        if given {
            return usage_error(SUB, &format!("{name} is a batch option: it needs --batch"));
        }
    }
    if args.position.is_empty() && args.sfen.is_none() {
        return usage_error(
            SUB,
            "solve needs a position (SFEN, 'startpos', a file or '-')",
        );
    }
    let pos = match read_position(&args.position, &args.sfen) {
        Ok(p) => p,
        Err(e) => {
            note(format_args!(
                "error: {}\nhint: 'tsumugi solve --help' says what a position may be",
                clip_message(&e)
            ));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let format = args.format.unwrap_or(OutFormat::Usi);
    let threads = args
        .search
        .threads
        .map_or_else(crate::mate::default_threads, |t| t as usize);
    let limits = limits_of(&args.search, true);
    let mut opts = args.search.clone();
    opts.hash_mb = fit_hash_mb(opts.hash_mb, 1) as u64;
    install_signal_handler();
    let root = pos.clone();
    let (result, hash_mb) = crate::mate::with_search_stack(move || {
        let mut solver = solver_of(&opts, threads);
        let r = solver.solve(&root, &limits, &STOP, &mut |p| {
            let st = &p.stats;
            if let Some(news) = &p.news {
                // What was just established, as it happens; a solve of under a second is
                // summed up by its final report alone.
                if st.time < Duration::from_secs(1) {
                    return;
                }
                let line = p.pv.as_ref().map_or(0, |l| l.len());
                note(format_args!(
                    "... {:.1} s: {news} (line shown: {line} plies)",
                    st.time.as_secs_f64()
                ));
                return;
            }
            let best = p
                .status
                .as_ref()
                .map(|s| {
                    format!(
                        ", mate within {} plies proven, looking for shorter",
                        s.upper
                    )
                })
                .unwrap_or_default();
            note(format_args!(
                "... {} s, {} nodes, {} nodes/s, hashfull {}{best}",
                st.time.as_secs(),
                st.nodes,
                st.nps(),
                st.hashfull
            ));
        });
        (r, solver.hash_mb())
    });
    let interrupted = STOP.load(Ordering::SeqCst);
    let report = report_text(&pos, &result, hash_mb, interrupted);
    let input = if let Some(s) = &args.sfen {
        s.join(" ")
    } else {
        args.position.join(" ")
    };
    match format {
        OutFormat::Usi => {
            say(checkmate_reply(&result.outcome));
            if args.verbose {
                say(report);
            } else {
                note(report);
            }
        }
        other => {
            let text = answer_text(other, &input, None, &pos, &result);
            write_answer(other, text.trim_end());
            note(report);
        }
    }
    if interrupted {
        ExitCode::from(EXIT_INTERRUPTED)
    } else if args.search.max_plies > 0 {
        // The bounded question's answer, for scripts checking a stated length.
        match &result.outcome {
            Outcome::Mate(_) => ExitCode::SUCCESS,
            Outcome::NoMate | Outcome::Unknown(UnknownReason::NoMateWithin(_)) => {
                ExitCode::from(EXIT_NO_MATE_WITHIN)
            }
            Outcome::Unknown(_) => ExitCode::from(EXIT_UNDECIDED),
        }
    } else {
        ExitCode::SUCCESS
    }
}

/// Exit status of `solve --max-plies N` when there is no mate within N plies (proven).
pub const EXIT_NO_MATE_WITHIN: u8 = 1;

/// Exit status of `solve --max-plies N` when a time or node limit ended the search undecided.
pub const EXIT_UNDECIDED: u8 = 3;

/// The answer in `format` (not `usi`): Japanese, KIF, CSA or one JSON object. `line_no` is the
/// batch input's line.
pub fn answer_text(
    format: OutFormat,
    input: &str,
    line_no: Option<usize>,
    pos: &Position,
    r: &SearchResult,
) -> String {
    let comments = || -> Vec<String> {
        let mut c = vec![format!("tsumugi: {}", outcome_words(r))];
        if r.defender_root {
            c.push("the side to move is the one being mated".into());
        }
        c.push(format!(
            "nodes {} time_ms {}",
            r.stats.nodes,
            r.stats.time.as_millis()
        ));
        c
    };
    let line: &[crate::shogi::Move] = match &r.outcome {
        Outcome::Mate(l) => l,
        _ => &[],
    };
    let mated = matches!(r.outcome, Outcome::Mate(_));
    match format {
        OutFormat::Usi => checkmate_reply(&r.outcome).to_string(),
        OutFormat::Ja => ja_text(pos, r),
        OutFormat::Kif | OutFormat::Kifu => {
            kif::write(pos, line, mated.then_some("詰み"), &comments())
        }
        OutFormat::Csa => csa::write(pos, line, mated.then_some("%TSUMI"), &comments()),
        OutFormat::Json => json_answer(input, line_no, pos, r).to_string(),
    }
}

/// Writes an answer's `text` on stdout, a line: in Shift_JIS for `kif` (a .kif's encoding by
/// the format's definition), else as UTF-8.
pub fn write_answer(format: OutFormat, text: &str) {
    if format == OutFormat::Kif {
        super::output::say_bytes(&kif::encode(&format!("{text}\n"), false));
    } else {
        say(text);
    }
}

/// What the outcome is, in words (for KIF and CSA comments).
fn outcome_words(r: &SearchResult) -> String {
    match &r.outcome {
        Outcome::Mate(l) => match &r.status {
            Some(s) => s.describe(),
            None => format!("mate in {}", l.len()),
        },
        Outcome::NoMate => "no mate (proven)".into(),
        Outcome::Unknown(why @ UnknownReason::NoMateWithin(_)) => why.to_string(),
        Outcome::Unknown(why) => format!("undecided: {why}"),
    }
}

/// The answer in Japanese: the line and `まで<n>手で詰み`, `不詰`, or `未解決`.
pub fn ja_text(pos: &Position, r: &SearchResult) -> String {
    match &r.outcome {
        Outcome::Mate(l) if l.is_empty() => "詰み (the side to move is checkmated)".into(),
        Outcome::Mate(l) => {
            let mut text = format!("{} まで{}手で詰み", japanese_line(pos, l), l.len());
            // A composed line's length is the composers' count: said so, with the strict one.
            if let Some((_, ja)) = r.status.as_ref().and_then(|s| s.count_note()) {
                text.push_str(&format!(" ({ja})"));
            }
            text
        }
        Outcome::NoMate => "不詰 (no mate, proven)".into(),
        Outcome::Unknown(UnknownReason::NoMateWithin(n)) => format!(
            "{n}手以内の詰みなし (証明済み; {n}手より長い詰みは探していない; no mate within {n} \
             plies, proven; longer mates not searched)"
        ),
        Outcome::Unknown(why) => format!("未解決 (undecided: {why})"),
    }
}

/// One JSON object for an answer: the input, its line in a batch file, the position, the
/// result (`mate`, `nomate`, `no_mate_within` with `max_plies`, `unknown`), the line in USI and Japanese, its length, what is
/// proven about it, nodes and time.
pub fn json_answer(
    input: &str,
    line_no: Option<usize>,
    pos: &Position,
    r: &SearchResult,
) -> serde_json::Value {
    use serde_json::json;
    let mut o = json!({
        "input": input,
        "sfen": pos.to_sfen(),
        "nodes": r.stats.nodes,
        "time_ms": r.stats.time.as_millis() as u64,
        "defender_root": r.defender_root,
    });
    if let Some(n) = line_no {
        o["line"] = json!(n);
    }
    match &r.outcome {
        Outcome::Mate(l) => {
            o["result"] = json!("mate");
            o["moves"] = json!(l
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" "));
            o["moves_ja"] = json!(japanese_line(pos, l));
            o["length"] = json!(l.len());
            if let Some(s) = &r.status {
                // `length` is the line's own; the two counts apart, each named.
                o["counting"] = json!(if s.composed() { "composer" } else { "strict" });
                o["composer_length"] = json!(s.composer_len);
                o["strict_length"] = json!(s.line_len);
                o["minimal"] = json!(s.minimal());
                o["longest_defences"] = json!(s.longest_defences);
                o["mate_upper"] = json!(s.upper);
                o["mate_lower"] = json!(s.lower);
                o["status"] = json!(s.describe());
            }
        }
        Outcome::NoMate => o["result"] = json!("nomate"),
        Outcome::Unknown(why @ UnknownReason::NoMateWithin(n)) => {
            // Proven, but only up to the limit: neither "nomate" nor a mere "unknown".
            o["result"] = json!("no_mate_within");
            o["max_plies"] = json!(n);
            o["reason"] = json!(why.to_string());
        }
        Outcome::Unknown(why) => {
            o["result"] = json!("unknown");
            o["reason"] = json!(why.to_string());
        }
    }
    o
}

/// The human part of `solve`'s answer: statistics (with the table size used), what is established, the line in Japanese.
fn report_text(
    pos: &crate::shogi::Position,
    r: &SearchResult,
    hash_mb: usize,
    interrupted: bool,
) -> String {
    let st = &r.stats;
    let mut info = format!(
        "nodes {} time_ms {} nps {} hashfull {} repetitions {} hash_mb {hash_mb}",
        st.nodes,
        st.time.as_millis(),
        st.nps(),
        st.hashfull,
        st.repetitions
    );
    if interrupted {
        info.push_str("\ninterrupted: the answer is what was established before the signal");
    }
    if r.defender_root {
        info.push_str(
            "\nthe side to move is the one being mated: searched as the defender \
             (the line starts with its move)",
        );
    }
    match &r.outcome {
        Outcome::Mate(line) => {
            info.push_str(&format!("\nlength {}", line.len()));
            if r.status.as_ref().is_some_and(|s| s.composed()) {
                info.push_str(" (composer's count)");
            }
            if let Some(status) = &r.status {
                info.push('\n');
                info.push_str(&status.describe());
            }
            if !line.is_empty() {
                info.push('\n');
                info.push_str(&japanese_line(pos, line));
            }
        }
        Outcome::NoMate => info.push_str("\nno mate (proven)"),
        Outcome::Unknown(why @ UnknownReason::NoMateWithin(_)) => {
            info.push_str(&format!("\n{why}"));
        }
        Outcome::Unknown(why) => info.push_str(&format!("\nundecided: {why}")),
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn two_files_are_one_position_at_a_time() {
        let e = read_position(&words("a.kif b.kif"), &None).unwrap_err();
        assert!(
            e.contains("one position at a time") && e.contains("--batch"),
            "{e}"
        );
        assert!(e.contains("'a.kif'") && !e.contains("bad SFEN"), "{e}");
    }

    #[test]
    fn a_missing_file_is_not_found() {
        for name in [
            "nosuchfile.kif",
            "NOSUCH.CSA",
            "dir/nosuchfile",
            "x.sfen",
            "p.txt",
        ] {
            let e = read_position(&words(name), &None).unwrap_err();
            assert!(e.contains("file not found") && e.contains(name), "{e}");
        }
        let e = read_position(&words("garbage"), &None).unwrap_err();
        assert!(e.contains("neither a file nor a SFEN"), "{e}");
        // A SFEN, as one argument or as words, is still a SFEN.
        let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G 1";
        assert!(read_position(&[sfen.to_string()], &None).is_ok());
        assert!(read_position(&words(sfen), &None).is_ok());
        assert!(read_position(&words("startpos"), &None).is_ok());
        // A board of the wrong shape is a SFEN error, not a missing file.
        let e = read_position(&words("4k4/9/9/9 b - 1"), &None).unwrap_err();
        assert!(e.contains("bad SFEN"), "{e}");
    }

    #[test]
    fn a_long_argument_is_not_echoed_whole() {
        let e = read_position(&["y".repeat(100_000)], &None).unwrap_err();
        assert!(e.len() < 200, "{}", e.len());
    }

    /// An undecided answer is said in words, not in debug formatting
    /// (`undecided: Time`).
    #[test]
    fn undecided_in_words_item7() {
        let pos = crate::shogi::Position::startpos();
        let r = SearchResult::unknown(crate::mate::UnknownReason::Time);
        let text = report_text(&pos, &r, 16, false);
        assert!(text.ends_with("undecided: time limit reached"), "{text}");
    }
}
