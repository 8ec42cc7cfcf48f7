//! `tsumugi check`: check a composed problem (余詰, longest defences, 駒余り, variations) and
//! write the report as text or JSON (see [`crate::review`]).

use super::args::{clip_message, usage_error, CheckArgs, CheckFormat, EXIT_USAGE};
use super::kit::input::read_position;
use super::kit::search::fit_hash_mb;
use super::kit::stop::{install_signal_handler, EXIT_INTERRUPTED, STOP};
use super::output::{note, say, say_bytes};
use crate::record::{self, kif};
use crate::review::{check_with_progress, parse_solution, CheckOptions, Report, Severity, Verdict};
use crate::shogi::{Move, Position};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The problem and, from a record file with moves (KIF, CSA, SFEN `moves`), its solution.
/// The problem, from a record file with moves (KIF, CSA, SFEN `moves`) its solution, and the
/// file's own headers (a KIF's 作品名, 作者, ...).
type Problem = (Position, Option<Vec<Move>>, Vec<(String, String)>);

fn read_problem(args: &CheckArgs) -> Result<Problem, String> {
    if args.sfen.is_none() && args.position.len() == 1 && Path::new(&args.position[0]).is_file() {
        let path = Path::new(&args.position[0]);
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let rec = record::read_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let start = Position::from_sfen(&rec.start.to_sfen()).unwrap_or(rec.start.clone());
        let moves = (!rec.moves.is_empty()).then(|| rec.moves.clone());
        return Ok((start, moves, rec.headers));
    }
    read_position(&args.position, &args.sfen).map(|p| (p, None, vec![]))
}

/// The report as a KIF for a shogi GUI: the problem, the main line, and each finding with
/// moves as a variation (変化) at its ply, its first move commented `*<name>: <note>`; findings
/// without moves are comments on the main line's move (ply 0: before the first move), as are
/// the verdict and the open questions' reasons.
pub fn report_kif(root: &Position, report: &Report, headers: &[(String, String)]) -> String {
    // A KIF is read in a Japanese GUI: the comments are the Japanese report.
    let convention = report
        .convention
        .split(':')
        .next()
        .unwrap_or(report.convention);
    let mut head = vec![format!(
        "tsumugi 検討: {} (規約 {convention})",
        report.verdict.japanese()
    )];
    if let Some(e) = &report.error {
        head.push(format!("エラー: {e}"));
    }
    if let Some(g) = &report.given_line {
        head.push(format!("与えられた手順: {}", g.describe_ja()));
    }
    let mut notes: Vec<(usize, String)> = vec![];
    let mut vars: Vec<kif::Variation> = vec![];
    let mut place = |ply: usize, moves: &[Move], text: String| {
        if moves.is_empty() || ply == 0 {
            if ply == 0 {
                head.push(text);
            } else {
                notes.push((ply, text));
            }
        } else {
            vars.push(kif::Variation {
                ply,
                moves: moves.to_vec(),
                comments: vec![text],
            });
        }
    };
    for f in &report.findings {
        let sev = match f.kind.severity() {
            Severity::Flaw => "不備",
            Severity::Note => "注",
        };
        place(
            f.ply,
            &f.moves,
            format!("{}: {} [{sev}、{}手目]", f.kind.name(), f.note_ja, f.ply),
        );
    }
    for u in &report.undecided {
        place(
            u.ply,
            &u.moves,
            format!("未確定: {} [{}手目]", u.why_ja, u.ply),
        );
    }
    let mut end = root.clone();
    for &m in &report.line {
        end.do_move(m);
    }
    let mated = !report.line.is_empty() && end.is_checkmated();
    let text = kif::write_tree(
        root,
        &report.line,
        mated.then_some("詰み"),
        &head,
        &notes,
        &vars,
    );
    with_headers(text, headers)
}

/// `text` (a KIF whose first line is its `#` comment) with the input file's `headers`
/// (作品名, 作者, ...) written after that line, as KIF headers come before the diagram.
fn with_headers(text: String, headers: &[(String, String)]) -> String {
    if headers.is_empty() {
        return text;
    }
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let mut out = format!("{first}\n");
    for (k, v) in headers {
        out.push_str(&format!("{k}：{v}\n"));
    }
    out.push_str(rest);
    out
}

/// `tsumugi check [options] <problem>`.
pub fn cmd_check(args: CheckArgs) -> ExitCode {
    const SUB: &str = "check";
    if args.position.is_empty() && args.sfen.is_none() {
        return usage_error(SUB, "check needs a problem (SFEN, a file or '-')");
    }
    let (pos, from_file, headers) = match read_problem(&args) {
        Ok(p) => p,
        Err(e) => {
            note(format_args!(
                "error: {}\nhint: 'tsumugi check --help' says what a problem may be",
                clip_message(&e)
            ));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let solution = match &args.solution {
        Some(text) => match parse_solution(&pos, text) {
            Ok(l) if l.is_empty() => {
                return usage_error(SUB, "--solution is empty");
            }
            Ok(l) => Some(l),
            Err(e) => {
                note(format_args!("error: --solution: {}", clip_message(&e)));
                return ExitCode::from(EXIT_USAGE);
            }
        },
        None => from_file,
    };
    let opts = CheckOptions {
        solution,
        // 0 is no limit, as for every --time-ms.
        time: (args.time_ms > 0).then(|| Duration::from_millis(args.time_ms)),
        hash_mb: fit_hash_mb(args.hash_mb, 1),
        variations: !args.no_variations,
    };
    install_signal_handler();
    let budget = opts.time;
    let root = pos.clone();
    let report = crate::mate::with_search_stack(move || {
        check_with_progress(&pos, &opts, &STOP, &mut |p| {
            let of = budget.map_or(String::new(), |b| format!(" of {:.0} s", b.as_secs_f64()));
            note(format_args!(
                "... {:.0} s{of}: {} searches, {} findings so far",
                p.elapsed.as_secs_f64(),
                p.searches,
                p.findings
            ))
        })
    });
    match args.format {
        CheckFormat::Text => say(report.text()),
        CheckFormat::Ja => say(report.text_ja()),
        CheckFormat::Json => say(report.json()),
        CheckFormat::Kif => say_bytes(&kif::encode(&report_kif(&root, &report, &headers), false)),
        CheckFormat::Kifu => say_bytes(&kif::encode(&report_kif(&root, &report, &headers), true)),
    }
    if STOP.load(Ordering::SeqCst) {
        return ExitCode::from(EXIT_INTERRUPTED);
    }
    match report.verdict {
        Verdict::Sound => ExitCode::SUCCESS,
        Verdict::Flawed | Verdict::NoMate => ExitCode::from(1),
        Verdict::Undecided => ExitCode::from(3),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::args::{parse, Command};

    /// `tsumugi check` and a check run as a library start from the same table size.
    #[test]
    fn check_default_table_is_the_library_default() {
        let Ok(cli) = parse(&["check".to_string(), "startpos".to_string()]) else {
            panic!()
        };
        let Some(Command::Check(a)) = cli.command else {
            panic!()
        };
        assert_eq!(a.hash_mb as usize, CheckOptions::default().hash_mb);
        assert_eq!(a.hash_mb, 256);
    }
}
