//! `tsumugi kikazu`: the 利かずの駒並べ puzzle ([`crate::kikazu`]) from the command line.
//!
//! Output on stdout: each placement as `sfen <board> b - 1` (stones written `X`, not SFEN), the
//! first one also drawn; then one summary line
//! `count <N> up_to_mirror <K> nodes <X> time_ms <T> threads <N> complete <true|false>`
//! (`--first`: `count` is 1 or 0, and no `up_to_mirror`). A search stopped by `--time-ms` says so on stderr and in
//! `complete false`: its count is then only a lower bound, and `--first`'s `count 0` means
//! "none found", not "none".

use super::args::{usage_error, KikazuArgs};
use super::output::{note, say};
use crate::kikazu::{search, Area, Mode, PieceSet, SearchOptions};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Exit status of a search stopped by its time limit.
pub const EXIT_INCOMPLETE: u8 = 3;

/// `tsumugi kikazu`.
pub fn cmd_kikazu(args: KikazuArgs) -> ExitCode {
    const SUB: &str = "kikazu";
    let set = match PieceSet::parse(&args.pieces) {
        Ok(s) => s,
        Err(e) => return usage_error(SUB, &format!("--pieces: {e}")),
    };
    if args.bidirectional && set.has_white() {
        return usage_error(
            SUB,
            "--pieces: with --bidirectional the search chooses each piece's facing; write the \
             pieces in upper case",
        );
    }
    let area = match Area::parse(&args.board) {
        Ok(a) => a,
        Err(e) => return usage_error(SUB, &format!("--board: {e}")),
    };
    let mode = if args.count {
        Mode::Count
    } else if args.all {
        Mode::All
    } else {
        Mode::First
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    );
    let start = Instant::now();
    let opts = SearchOptions {
        area,
        bidirectional: args.bidirectional,
        mode,
        threads,
        // 0 is no limit, as for every --time-ms.
        deadline: args
            .time_ms
            .filter(|&ms| ms > 0)
            .map(|ms| start + Duration::from_millis(ms)),
    };
    if set.len() > area.size() {
        note(format_args!(
            "note: {} pieces cannot fit on the {} squares of a {area} board",
            set.len(),
            area.size()
        ));
    }
    let bar = Progress::new();
    let picture = args.picture;
    let out = search(
        &set,
        &opts,
        |p| {
            say(format_args!("sfen {}", p.sfen()));
            if picture {
                say(p.picture());
            }
        },
        &|done, total| bar.update(done, total),
    );
    bar.finish();
    let ms = start.elapsed().as_millis();
    if let Some(p) = &out.first {
        say(format_args!("sfen {}", p.sfen()));
        say(p.picture().trim_end());
    }
    // Mirror classes mean something only when every placement was counted.
    let mirror = match mode {
        Mode::First => String::new(),
        _ => format!(" up_to_mirror {}", out.mirror_classes()),
    };
    say(format_args!(
        "count {}{mirror} nodes {} time_ms {ms} threads {threads} complete {}",
        out.count, out.nodes, out.complete
    ));
    if !out.complete {
        note(format_args!(
            "note: stopped at the time limit ({} ms): {}",
            args.time_ms.unwrap_or(0),
            match mode {
                Mode::First => "no placement found so far; none is not proven",
                _ => "the count is only what was found so far",
            }
        ));
        return ExitCode::from(EXIT_INCOMPLETE);
    }
    if mode == Mode::First && out.first.is_none() {
        note(format_args!(
            "no placement: {set} cannot be placed on a {area} board{}",
            if args.bidirectional {
                " facing either way"
            } else {
                ""
            }
        ));
    }
    ExitCode::SUCCESS
}

/// A progress bar over the search's subtrees on stderr when it is a terminal.
struct Progress {
    #[cfg(not(target_arch = "wasm32"))]
    bar: indicatif::ProgressBar,
}

impl Progress {
    #[cfg(not(target_arch = "wasm32"))]
    fn new() -> Progress {
        use std::io::IsTerminal;
        let bar = if std::io::stderr().is_terminal() {
            let b = indicatif::ProgressBar::new(0);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} subtrees (eta {eta})",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            b
        } else {
            indicatif::ProgressBar::hidden()
        };
        Progress { bar }
    }

    #[cfg(target_arch = "wasm32")]
    fn new() -> Progress {
        Progress {}
    }

    fn update(&self, _done: usize, _total: usize) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.bar.set_length(_total as u64);
            self.bar.set_position(_done as u64);
        }
    }

    fn finish(&self) {
        #[cfg(not(target_arch = "wasm32"))]
        self.bar.finish_and_clear();
    }
}
