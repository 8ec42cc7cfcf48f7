//! The command line's grammar (clap, derive): the subcommands, their options and help, and the
//! usage errors (one line naming the bad argument, a hint, exit status 2).

use super::output::{note, say};
use crate::mate::hash_size::{BENCH_MB, CLI_MAX_MB, DEFAULT_MB, MIN_MB};
use crate::mate::{PostSearch, Threshold, MAX_THREADS};
use crate::shogi::Position;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

/// Exit code for bad input or bad arguments.
pub const EXIT_USAGE: u8 = 2;

/// Help layout: the usage line first (`usage: tsumugi solve ...`), as scripts grep for it.
const HELP: &str = "usage: {usage}\n\n{about-with-newline}\n{all-args}{after-help}";

/// `tsumugi`: the USI engine with no arguments, else a subcommand.
#[derive(Parser, Debug)]
#[command(
    name = "tsumugi",
    version = crate::VERSION,
    about = "A tsume-shogi (mate problem) solver. With no arguments: a USI engine on stdin/stdout.",
    help_template = HELP,
    after_help = "\
Examples:
  tsumugi                                   the USI engine (for GUIs and scripts)
  tsumugi solve \"<SFEN>\"                    solve one position
  tsumugi solve problem.kif --format kif    a KIF/KI2/CSA/SFEN file (UTF-8 or Shift_JIS)
  tsumugi solve --batch list.txt --jobs 2   many positions, JSON lines out
  tsumugi check problem.kif                 check a composed problem (余詰, defences, 駒余り)
  tsumugi perft 5 startpos                  count move-generation leaves
  tsumugi kikazu --count                    the 40 pieces placed so none attacks another
  'tsumugi <subcommand> --help' shows each one's options."
)]
pub struct Cli {
    /// The subcommand; none runs the USI engine.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Solve one position (SFEN, or a KIF/KI2/CSA/SFEN file), or a batch of them.
    #[command(help_template = HELP, allow_negative_numbers = true)]
    Solve(SolveArgs),
    /// Count the leaves of the legal-move tree to a depth.
    #[command(help_template = HELP, allow_negative_numbers = true)]
    Perft(PerftArgs),
    /// Print the legal (or checking, or evading) moves of a position, sorted, on one line.
    #[command(help_template = HELP, allow_negative_numbers = true)]
    Moves(MovesArgs),
    /// Solve the built-in positions and print a deterministic node signature.
    #[command(help_template = HELP, allow_negative_numbers = true)]
    Bench(BenchArgs),
    /// Place pieces so that none attacks another (利かずの駒並べ): count, first or all.
    #[command(help_template = HELP, allow_negative_numbers = true)]
    Kikazu(KikazuArgs),
    /// Check a composed problem: 余詰, longest defences, 駒余り, 変同, 変化別詰.
    #[command(help_template = HELP, allow_negative_numbers = true)]
    Check(CheckArgs),
}

/// `--format` of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// The report for people.
    Text,
    /// The same in Japanese, in the words composers use.
    Ja,
    /// One JSON object (documented in README.md).
    Json,
    /// A KIF file in Shift_JIS (CP932): the main line, each finding a 変化 with a comment.
    Kif,
    /// The same KIF in UTF-8 (a .kifu).
    Kifu,
}

/// `tsumugi check`.
#[derive(Args, Debug)]
#[command(
    about = "Check a composed problem: 余詰, longest defences, 駒余り, 変同, 変化別詰.",
    after_help = "\
The problem is a SFEN, a file (KIF/KI2/CSA/SFEN; its moves, if any, are the intended solution)
or '-'. Without --solution (or moves in the file) the intended line is the engine's composer
line. Each question (another check at an attacker move, another defence at a defender move)
gets a share of --time-ms; what a search could not decide in its share is reported undecided,
never as sound. The convention applied is named in the report (docs/composer-rules.md).

--format kif writes the report as a KIF to open in a shogi GUI: the main line, and each finding
(余詰, 早詰, 変同, ...) as a variation (変化) at its ply with a comment naming it (*余詰: ...);
in Shift_JIS as a .kif is (save with > problem-check.kif), or UTF-8 with --format kifu (.kifu).

Exit status: 0 sound, 1 flawed or no mate, 3 undecided, 2 bad arguments, 130 interrupted."
)]
pub struct CheckArgs {
    /// The problem: SFEN words, a file path, or '-' (standard input).
    #[arg(value_name = "SFEN|FILE|-")]
    pub position: Vec<String>,
    /// The problem as SFEN (one argument or several words).
    #[arg(long, value_name = "SFEN", num_args = 1.., conflicts_with = "position")]
    pub sfen: Option<Vec<String>>,
    /// The intended solution, USI moves from the problem ("2b2a+ 3a2a G*2b").
    #[arg(long, value_name = "MOVES")]
    pub solution: Option<String>,
    /// Time budget of the whole check in milliseconds, shared among its questions (0: no
    /// limit, each question searched until decided).
    #[arg(long, value_name = "T", default_value_t = 60_000,
          value_parser = count::<0, { u64::MAX }>)]
    pub time_ms: u64,
    /// Transposition table size in MB; reduced, with a warning, to what the available memory
    /// allows.
    #[arg(long, value_name = "M", default_value_t = DEFAULT_MB as u64,
          value_parser = count::<{ MIN_MB as u64 }, { CLI_MAX_MB as u64 }>)]
    pub hash_mb: u64,
    /// How the report is written.
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub format: CheckFormat,
    /// Skip the search for 変化別詰 in the variations.
    #[arg(long)]
    pub no_variations: bool,
}

/// `--post-search`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PostSearchArg {
    /// After the first proof, prove the shortest mate.
    Shortest,
    /// Return the first proven line.
    None,
    /// `shortest`, shown as composers count it (useless interpositions omitted).
    Composer,
}

impl From<PostSearchArg> for PostSearch {
    fn from(a: PostSearchArg) -> PostSearch {
        match a {
            PostSearchArg::Shortest => PostSearch::Shortest,
            PostSearchArg::None => PostSearch::None,
            PostSearchArg::Composer => PostSearch::Composer,
        }
    }
}

/// `--format`: how an answer is written on stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutFormat {
    /// The USI reply: `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`.
    Usi,
    /// The line in Japanese (▲２二金打 △同玉 ... まで3手で詰み).
    Ja,
    /// A KIF file in Shift_JIS (CP932), as a .kif is: the problem as a BOD diagram and the
    /// solution (Kifu for Windows, ShogiGUI, ShogiHome).
    Kif,
    /// The same KIF in UTF-8, as a .kifu is.
    Kifu,
    /// A CSA file: the problem and the solution.
    Csa,
    /// One JSON object (input, result, line in USI and Japanese, length, nodes, time, ...).
    Json,
}

/// The options of one search, shared by single and batch solving.
#[derive(Args, Debug, Clone)]
pub struct SearchOpts {
    /// Time limit per position in milliseconds (default or 0: none, search until answered).
    #[arg(long, value_name = "T", value_parser = count::<0, { u64::MAX }>)]
    pub time_ms: Option<u64>,
    /// Node limit per position (exact; default or 0: none).
    #[arg(long, value_name = "N", value_parser = count::<0, { u64::MAX }>)]
    pub nodes: Option<u64>,
    /// Look for mates of at most N plies only (0: no limit): the answer is a mate within N
    /// (its shortest length only when proven) or "no mate within N plies", proven, which says
    /// nothing of longer mates. Exit status 0 mate within N, 1 no mate within N, 3 undecided.
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=crate::mate::MAX_PLIES as i64))]
    pub max_plies: u32,
    /// Transposition table size in MB, per search (each batch job has its own); reduced, with a
    /// warning, to what the available memory allows.
    #[arg(long, value_name = "M", default_value_t = DEFAULT_MB as u64,
          value_parser = count::<{ MIN_MB as u64 }, { CLI_MAX_MB as u64 }>)]
    pub hash_mb: u64,
    /// Search threads over one table (default: the cores available, at most 8; 1 in a batch,
    /// where --jobs runs one search per core). 1 gives the same search node for node.
    #[arg(long, value_name = "N",
          value_parser = count::<1, { MAX_THREADS as u64 }>)]
    pub threads: Option<u64>,
    /// After the first proof: the shortest mate, nothing, or the shortest as composers count it
    /// (the line shown is then in the composers' count, and the report names it so, with the
    /// strict count, every defence counted, beside it).
    #[arg(long, value_enum, value_name = "KIND", default_value = "shortest")]
    pub post_search: PostSearchArg,
    /// ε of the 1+ε child thresholds, as `epsilon:<x>` (0 < x <= 10; default 0.5); with
    /// `,no-tca` after it, no threshold control at positions met before at a shallower ply;
    /// with `,cap:<n>` a search path fails at n plies (default 4000), `,no-cap`: never; with
    /// `,no-dce`, no double-count elimination by parent links; with `,root:<g>` the root's
    /// thresholds grow by g (1 < g <= 100; default 1.7), `,no-root`: infinite at once; with
    /// `,depth:<k>` a position new to the search starts with one more proof number for every k
    /// plies of depth (1 <= k <= 100000; off by default), for problems whose search dives into
    /// long forced lines that do not mate.
    #[arg(long, value_name = "epsilon:<x>[,no-tca][,cap:<n>|,no-cap][,no-dce][,root:<g>|,no-root][,depth:<k>]", value_parser = parse_threshold)]
    pub threshold: Option<Threshold>,
    /// Never search the side to move as the defender (by default a side to move in check that
    /// cannot mate, or whose opponent has no king, is the one being mated).
    #[arg(long)]
    pub no_defender_root: bool,
}

/// A whole number from `LO` to `HI`. Numeric options also take values that start with '-'
/// (`allow_negative_numbers` on each subcommand), so that `--hash-mb -1` is refused here,
/// naming the option, rather than read as an unknown option.
fn count<const LO: u64, const HI: u64>(v: &str) -> Result<u64, String> {
    let range = if HI == u64::MAX {
        format!("{LO} or more")
    } else {
        format!("from {LO} to {HI}")
    };
    match v.trim().parse::<u64>() {
        Ok(n) if (LO..=HI).contains(&n) => Ok(n),
        Ok(_) => Err(format!("out of range: a whole number {range}")),
        Err(_) => Err(format!("not a whole number {range}")),
    }
}

fn parse_threshold(v: &str) -> Result<Threshold, String> {
    if v == "kh" {
        return Err(
            "--threshold kh was dropped: with the shortest-mate search it could loop \
                    without end; use epsilon:<x>"
                .into(),
        );
    }
    Threshold::parse(v).ok_or_else(|| {
        format!(
            "'{v}' is not epsilon:<x> (0 < x <= 10) with optional switches \
             ,no-tca ,cap:<n> ,no-cap ,no-dce ,root:<g> ,no-root ,depth:<k>"
        )
    })
}

/// `tsumugi solve`.
#[derive(Args, Debug)]
#[command(
    about = "Solve one position (SFEN, or a KIF/KI2/CSA/SFEN file), or a batch of them.",
    after_help = "\
A position is a SFEN (one argument or several words; 'sfen' / 'position sfen' prefixes and
'moves ...' allowed), 'startpos', a file, or '-' for standard input: one position (many go in a
--batch file). Files may hold SFEN, KIF or KI2 (a BOD diagram, a handicap, moves; the position
after the last move) or CSA (P1..P9, PI, P+/P-, moves), in UTF-8 or Shift_JIS; the format is
detected. A file must hold a whole position: a board with a row missing, a KIF diagram without a
hand line, a CSA position without its side-to-move line or a file SFEN without its move number
is refused, not guessed at.

--format kif writes Shift_JIS (CP932), the encoding a .kif has by definition; --format kifu
writes the same in UTF-8 (a .kifu).

With --format usi (default) the USI answer goes to stdout, then nodes, time, what is established
about the mate and the line in Japanese to stderr (stdout with --verbose). There is no time or
node limit by default (--time-ms 0 and --nodes 0 mean none too). Ctrl-C (SIGINT, SIGTERM,
SIGHUP) stops the search and prints the best line proven so far; a second Ctrl-C exits at once.
Every 5 s a progress line goes to stderr.

Batch (--batch FILE|-): one position per line (a SFEN line or a file path; blank lines and
'#' comments skipped); one JSON object per line on stdout; --jobs searches at once, each with
--hash-mb of its own; a progress bar on stderr when it is a terminal, a summary at the end
(both count the answers written). Ctrl-C writes the finished answers; with --ordered only those
up to the first unfinished line, so that the output stays in input order. Resume with:
tsumugi solve --batch in.txt --skip-done out.jsonl >> out.jsonl

--max-plies N asks \"is there a mate within N plies?\": longer mates are not searched. The answer
is a mate within N, or \"no mate within N plies\" (proven; not a proof that there is no mate at
all), which --format usi writes as 'checkmate timeout', the USI engine's answer with MaxPlies.

Exit status: 0 for an answer, 2 for bad arguments or an input that is not a position, 130 when
interrupted; a batch exits 1 when some line was not a position (its JSON says why). With
--max-plies (one position): 0 a mate within N plies, 1 no mate within N plies (proven), 3
undecided (a time or node limit)."
)]
pub struct SolveArgs {
    /// The position: SFEN words, 'startpos', a file path, or '-' (standard input).
    #[arg(value_name = "POSITION|FILE|-")]
    pub position: Vec<String>,
    /// The position as SFEN (one argument or several words).
    #[arg(long, value_name = "SFEN", num_args = 1..,
          conflicts_with = "position")]
    pub sfen: Option<Vec<String>>,
    /// How the answer is written (batch: json only).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<OutFormat>,
    /// With --format usi: the report (statistics, the line in Japanese) on stdout, not stderr.
    #[arg(long)]
    pub verbose: bool,
    /// After the best line, search every other check and show the best N lines in all (each
    /// mate with what is proven of its length, each check that does not mate with a defence
    /// that refutes it, undecided ones said so); 1: the best line only.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = count::<1, 600>)]
    pub multipv: u64,
    /// The search.
    #[command(flatten)]
    pub search: SearchOpts,
    /// Solve every position listed in FILE ('-': standard input), one per line.
    #[arg(long, value_name = "FILE|-", conflicts_with_all = ["position", "sfen"])]
    pub batch: Option<String>,
    /// Batch: searches at once (default: the cores available).
    #[arg(long, value_name = "N", requires = "batch",
          value_parser = count::<1, 1024>)]
    pub jobs: Option<u64>,
    /// Batch: write answers in input order (default: as they finish). Ctrl-C then writes the
    /// finished ones up to the first unfinished line.
    #[arg(long, requires = "batch")]
    pub ordered: bool,
    /// Batch: skip positions already answered in OUTPUT (an earlier run's JSON lines; a
    /// missing file means none; a partial last line is cut off).
    #[arg(long, value_name = "OUTPUT", requires = "batch")]
    pub skip_done: Option<std::path::PathBuf>,
    /// Batch: only the lines whose 0-based line number is i modulo n (split a file over n
    /// machines or array jobs).
    #[arg(long, value_name = "i/n", requires = "batch", value_parser = parse_shard)]
    pub shard: Option<(usize, usize)>,
}

fn parse_shard(v: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{v}' is not i/n with 0 <= i < n");
    let (i, n) = v.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// `tsumugi perft`.
#[derive(Args, Debug)]
#[command(
    about = "Count the leaf nodes of the legal-move tree to <DEPTH> (1-12) from the position \
             (default: the start position). Prints one '<move> <count>' line per root move, \
             sorted, then 'nodes <N> time_ms <T> nps <R>'."
)]
pub struct PerftArgs {
    /// Depth, 1 to 12.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: u32,
    /// The position: SFEN words or 'startpos'.
    #[arg(value_name = "SFEN|startpos")]
    pub position: Vec<String>,
    /// The position as SFEN.
    #[arg(long, value_name = "SFEN", num_args = 1..,
          conflicts_with = "position")]
    pub sfen: Option<Vec<String>>,
}

/// `--kind` of `tsumugi moves`.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum MoveKind {
    /// Every legal move.
    Legal,
    /// The checking moves.
    Checks,
    /// The evasions (the side to move must be in check).
    Evasions,
}

/// `tsumugi moves`.
#[derive(Args, Debug)]
#[command(
    about = "Print the legal moves of the side to move (or only its checks, or its evasions when \
             in check), sorted, on one line."
)]
pub struct MovesArgs {
    /// Which moves.
    #[arg(long, value_enum, default_value = "legal")]
    pub kind: MoveKind,
    /// The position: SFEN words or 'startpos'.
    #[arg(value_name = "SFEN|startpos")]
    pub position: Vec<String>,
    /// The position as SFEN.
    #[arg(long, value_name = "SFEN", num_args = 1..,
          conflicts_with = "position")]
    pub sfen: Option<Vec<String>>,
}

/// `tsumugi bench`.
#[derive(Args, Debug, PartialEq, Eq)]
#[command(
    about = "Solve the built-in positions (shortest mate, a node limit per position, no time \
             limit) and print one line per position: '<index> <result> length <L> nodes <N> \
             time_ms <T>', where result is mate, nomate or unknown:<reason>; then \
             'nodes <N> time_ms <T> nps <R>'.",
    after_help = "With one thread the node counts are deterministic for a given --hash-mb: the \
                  total is a regression signature. With more, they vary from run to run (the \
                  threads race over one table); the nodes are summed over the threads."
)]
pub struct BenchArgs {
    /// Table size in MB.
    #[arg(long, value_name = "M", default_value_t = BENCH_MB as u64,
          value_parser = count::<{ MIN_MB as u64 }, { CLI_MAX_MB as u64 }>)]
    pub hash_mb: u64,
    /// Search threads per position.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = count::<1, { MAX_THREADS as u64 }>)]
    pub threads: u64,
}

/// `tsumugi kikazu`.
#[derive(Args, Debug)]
#[command(
    about = "Place pieces on the board so that none stands on a square another attacks \
             (利かずの駒並べ; two pawns on a file and pieces with no further move allowed).",
    after_help = "\
Pieces: letters with counts, as P18L4N4S4G4K2R2B2 (the default: the 40 pieces of a game).
P L N S G K R B are the pieces, + before one promotes it, X is a stone (attacks nothing, may not
stand on an attacked square). Upper case faces as Black's pieces, lower case as White's; with
--bidirectional the search chooses each piece's facing (write upper case).

Placements are counted as sets of (square, piece, facing): identical pieces are not told apart,
and a placement and its left-right mirror image count as two (up_to_mirror counts them once).

Output: 'sfen <board> b - 1' per placement (stones as X), the first one drawn, then
'count <N> up_to_mirror <K> nodes <X> time_ms <T> threads <N> complete <true|false>'
(--first: count 1 or 0, no up_to_mirror).
Exit status: 0 when the search ran to its end (--first: also when there is no placement),
2 for bad arguments, 3 when --time-ms stopped it (the count is then a lower bound)."
)]
pub struct KikazuArgs {
    /// The pieces to place (see below).
    #[arg(long, value_name = "SPEC", default_value = crate::kikazu::spec::STANDARD)]
    pub pieces: String,
    /// Each piece may face either way (the two-direction puzzle).
    #[arg(long)]
    pub bidirectional: bool,
    /// Count every placement (and print none).
    #[arg(long, conflicts_with_all = ["first", "all"])]
    pub count: bool,
    /// Print the first placement found (the default).
    #[arg(long, conflicts_with = "all")]
    pub first: bool,
    /// Print every placement, one SFEN line each.
    #[arg(long)]
    pub all: bool,
    /// With --all: draw every placement, not only write its SFEN.
    #[arg(long, requires = "all")]
    pub picture: bool,
    /// Search threads (default: the cores available).
    #[arg(long, value_name = "N", value_parser = count::<1, 256>)]
    pub threads: Option<u64>,
    /// The board: <files>x<ranks>, the top-right corner of the 9x9 board (files 1.., ranks a..).
    #[arg(long, value_name = "FxR", default_value = "9x9")]
    pub board: String,
    /// Stop after this many milliseconds (the answer is then incomplete; exit status 3; 0: no
    /// limit, the default).
    #[arg(long, value_name = "T", value_parser = count::<0, { u64::MAX }>)]
    pub time_ms: Option<u64>,
}

/// Parses `args` (without the program name). `Err` is the exit status after help, the version
/// or a usage error was printed.
pub fn parse(args: &[String]) -> Result<Cli, ExitCode> {
    // `tsumugi help --help` asks for the help of `help`: clap's help subcommand takes no options,
    // so it is answered with the top-level help, which says how to get each one's.
    let help_of_help = args.first().is_some_and(|a| a == "help")
        && args[1..].iter().any(|a| a == "--help" || a == "-h");
    let argv = std::iter::once("tsumugi".to_string()).chain(if help_of_help {
        vec!["--help".to_string()]
    } else {
        args.to_vec()
    });
    match Cli::try_parse_from(argv) {
        Ok(c) => Ok(c),
        Err(e) => {
            use clap::error::ErrorKind;
            match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    say(e.render().to_string().trim_end());
                    Err(ExitCode::SUCCESS)
                }
                _ => {
                    let text = e.render().to_string();
                    let first = text.lines().next().unwrap_or("error: bad arguments");
                    let msg = first.strip_prefix("error: ").unwrap_or(first);
                    Err(usage_error(subcommand_of(args), msg))
                }
            }
        }
    }
}

/// The subcommand `args` name (the first word, when it is one), for the help hint; "" for none.
pub fn subcommand_of(args: &[String]) -> &str {
    use clap::CommandFactory;
    match args.first() {
        Some(a) if Cli::command().get_subcommands().any(|c| c.get_name() == a) => a,
        _ => "",
    }
}

/// Longest message an error line may carry.
const MESSAGE_CHARS: usize = 600;
/// A word (an argument, a path, a field) longer than this is cut when quoted back in an error.
const WORD_CHARS: usize = 160;
/// Characters kept at each end of a word that is cut.
const WORD_END_CHARS: usize = 60;

/// `w` as an error quotes it: whole up to [`WORD_CHARS`], else its first and last
/// [`WORD_END_CHARS`] characters around `...` (the record readers cut the lines they quote; a
/// path keeps its file name).
pub fn clip_word(w: &str) -> String {
    let n = w.chars().count();
    if n <= WORD_CHARS {
        return w.to_string();
    }
    let head: String = w.chars().take(WORD_END_CHARS).collect();
    let tail: String = w.chars().skip(n - WORD_END_CHARS).collect();
    format!("{head}...{tail}")
}

/// `msg` on one line, with every word cut by [`clip_word`] and the whole cut to
/// [`MESSAGE_CHARS`]: an argument of 100 KB is not echoed whole.
pub fn clip_message(msg: &str) -> String {
    let words: Vec<String> = msg
        .split(char::is_whitespace)
        .filter(|w| !w.is_empty())
        .map(clip_word)
        .collect();
    crate::record::shorten(&words.join(" "), MESSAGE_CHARS)
}

/// One line of error and a hint where the usage is; status 2.
pub fn usage_error(sub: &str, msg: &str) -> ExitCode {
    let help = if sub.is_empty() {
        "tsumugi --help".to_string()
    } else {
        format!("tsumugi {sub} --help")
    };
    note(format_args!(
        "error: {}\nhint: '{help}' shows the usage",
        clip_message(msg)
    ));
    ExitCode::from(EXIT_USAGE)
}

/// The position given as SFEN words (`--sfen` or positional): `Ok(None)` when neither.
pub fn sfen_position(
    words: &[String],
    sfen: &Option<Vec<String>>,
) -> Result<Option<Position>, String> {
    let text = match sfen {
        Some(s) => s.join(" "),
        None if words.is_empty() => return Ok(None),
        None => words.join(" "),
    };
    Position::from_sfen(&text)
        .map(Some)
        .map_err(|e| format!("bad SFEN: {e}"))
}

#[cfg(test)]
mod tests;
