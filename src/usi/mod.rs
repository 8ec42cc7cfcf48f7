//! USI protocol: `tsumugi` with no arguments is a USI engine for mate search (`go mate`).
//!
//! * [`command`]: pure parser, one line → one [`command::Command`].
//! * [`options`]: the option table and `setoption` validation.
//! * [`input`]: the reader thread (bytes → capped, lossily decoded lines; end of input → quit).
//! * [`engine`]: the protocol state machine (the loop that answers commands, starts, stops and
//!   times searches).
//! * [`search_thread`]: the thread that runs the solver on jobs from the loop, and the state the
//!   two threads share.
//! * [`reply`]: the text of every `checkmate`, `bestmove` and `info` line, from a search result.
//! * [`clock`]: time management (a search's time limit, a plain `go`'s share of the clock).
//! * [`output`]: the output writer (sanitized, flushed lines) and the running-search record.
//! * [`cooperative`]: the same engine without threads, its searches advanced in slices by the
//!   host (`poll()`): the WebAssembly USI engine for ShogiHome's web version.
//!
//! stdout carries USI lines only, each flushed, ASCII only (anything else is escaped); logs go
//! to stderr through `log` (`RUST_LOG=debug` shows every line in and out).
//!
//! # Commands
//!
//! | command | answer |
//! |---|---|
//! | `usi` | `id name tsumugi <version>`, `id author ...`, the options, `usiok` (at once; nothing is allocated) |
//! | `isready` | allocates or resizes the table to `USI_Hash`, then `readyok`. During a search: `readyok` at once, the table change waits for the next search |
//! | `setoption name <N> value <V>` | sets an option (names case-insensitive; the value is the rest of the line). A bad name or value: `info string error: ...`, option unchanged |
//! | `usinewgame` | forgets the table, in O(1) (during a search: before the next search) |
//! | `position startpos\|sfen <SFEN> [moves ...]` | sets the position for the next `go` (`position <SFEN>` without `sfen` is read the same, with a note) |
//! | `go mate <ms>` / `go mate infinite` / `go mate` | mate search; exactly one `checkmate <moves>` / `checkmate nomate` / `checkmate timeout` |
//! | `go [btime .. wtime .. byoyomi .. binc .. winc .. movetime .. nodes .. ponder infinite]` | mate search; `bestmove <first move of the mate>` or `bestmove resign` |
//! | `stop` | ends the search; its answer follows at once |
//! | `ponderhit` | the pondered `go ponder` becomes a timed search |
//! | `gameover ...` | stops a running search (its answer is still written) |
//! | `quit`, end of input | stops a running search and exits (within a second) |
//!
//! # Behaviour in the corner cases (decided here)
//!
//! * **Answers.** Every accepted `go mate` gets exactly one `checkmate` line; `go mate infinite`
//!   answers as soon as the result is known (it does not wait for `stop`). If the time or node
//!   limit runs out, or `stop` arrives, after a mate was proven (while the shortest one was
//!   being searched) that mate is printed; otherwise `checkmate timeout`. Every mating line has
//!   been replayed and checked (legal, checks only, ends in mate) by the mate layer before the
//!   solver returns it (`Outcome::Mate` and `best_mate` alike), so it is printed as it is; a
//!   proof without a verified line is undecided (`info string error: mate proven but no
//!   verified line ...`, `checkmate timeout`). The `checkmate` line is preceded by a final
//!   `info time .. nodes .. nps .. hashfull ..` line (with `pv` when mate).
//! * **Info lines.** Every `PvInterval` ms during a search: `info time <ms> nodes <n> nps <n>
//!   hashfull <permille>`, plus `score mate <N> pv <moves>` once a mate is proven (N: the
//!   shortest mate proven so far, in plies; negative when the side to move is the one mated;
//!   the line shown may be another length until the shortest is read). Each time the search
//!   establishes something (a mate within N plies, a shorter one, or no mate within n plies),
//!   that line is sent at once, followed by `info string <what was established>`, so a GUI
//!   shows the answer shortening. `PvInterval 0`: no periodic lines (those events and the
//!   final line are still sent).
//! * **`go` while a search runs:** ignored, with `info string error: go ignored: a search is
//!   already running`. It gets no answer of its own; the running search still answers once.
//! * **`position` while a search runs:** accepted; it applies to the next `go`.
//! * **`setoption` while a search runs:** accepted and stored, with an `info string` that it
//!   takes effect from the next search; the running search keeps its settings. A new `USI_Hash`
//!   is allocated at the next `isready` (or, failing that, at the next `go`).
//! * **`stop` (or `ponderhit`) with no search running:** `stop` is ignored silently (GUIs send
//!   it redundantly); `ponderhit` gets an `info string`.
//! * **Bad `position`** (malformed SFEN, a move that is not USI syntax, an illegal move): `info
//!   string error: ...` naming the fault (the SFEN error, or the move number, its text and the
//!   position it was tried in). The engine then has *no* position: the next `go mate` repeats
//!   the error in an `info string` and answers `checkmate timeout` (undecided: nothing was
//!   searched, so never `nomate`; a plain `go`: `bestmove resign`), until a good `position`
//!   arrives. Before any `position`, and after a `position` line dropped for its length, there
//!   is no position either.
//! * **What an answer establishes.** Every mating answer is preceded by an `info string`:
//!   the shortest mate proven, or the interval known (`between A and B plies`), and whether
//!   every defence on the line is proven longest (`mate::MateStatus::describe`).
//! * **Defender to move.** When the side to move's opponent has no king, or (option
//!   `RootIsAndNodeIfChecked`, default true) the side to move is in check and cannot mate, the
//!   side to move is the one being mated: the line starts with its move, and an `info string`
//!   says so. A checkmated side to move gets `checkmate` with no moves.
//! * **Bad `go mate` time** (`go mate abc`, `go mate -5`): `info string error: ...` and
//!   `checkmate timeout` at once, without searching. A number too large for 30 days means no
//!   limit. `go mate 0` is no limit (as `go mate infinite`; 0 means no limit everywhere, as in
//!   `NodesLimit 0`), and so is `go nodes 0`. Unknown tokens after `go` are
//!   reported with `info string` and ignored.
//! * **Unknown commands, extra tokens:** an `info string` note; the command is ignored (extra
//!   tokens are ignored, the command is executed).
//! * **Over-long lines** (over 64 KiB): dropped with an `info string error`; memory stays
//!   bounded. Invalid UTF-8 is decoded lossily (and escaped if quoted back).
//! * **`USI_Hash` larger than the machine allows** (over 3/4 of available memory, Linux): the
//!   table is made smaller, with an `info string`.
//! * **Plain `go` (game play):** the engine plays the first move of a mate it finds in time, and
//!   resigns otherwise. Time: `movetime`, else 1/20 of the side's remaining time plus increment
//!   and byoyomi (less a margin), else 3 s; `go infinite` / `go ponder` search until `stop` (or
//!   `ponderhit`, after which the clock budget applies) and hold the `bestmove` until then.

pub mod clock;
pub mod command;
pub mod cooperative;
pub mod engine;
pub mod input;
mod multipv;
pub mod options;
pub mod output;
pub mod reply;
pub mod search_thread;

pub use engine::run;
pub use reply::{checkmate_line, checkmate_reply};

use std::process::ExitCode;

/// Runs the USI engine on stdin/stdout (the binary without arguments).
pub fn run_stdio() -> ExitCode {
    use std::io::IsTerminal;
    // Someone who starts the engine by hand (on Windows: a double-click on tsumugi.exe, which
    // opens a console) otherwise sees a window waiting silently. GUIs use pipes: no hint.
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        eprintln!(
            "tsumugi {}: a USI engine, waiting for commands (usi, isready, position, go mate, \
             quit). Register it in a shogi GUI, or run 'tsumugi --help' for the subcommands.",
            crate::VERSION
        );
    }
    run(std::io::BufReader::new(std::io::stdin()), std::io::stdout())
}
