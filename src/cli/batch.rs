//! `tsumugi solve --batch FILE|-`: many positions, one search per core.
//!
//! The input has one position per line: a SFEN line (as `tsumugi solve` takes it, `moves`
//! allowed) or the path of a problem file (relative paths are tried from the working directory,
//! then from the input file's directory); blank lines and `#` comments are skipped. Each answer
//! is one JSON object on one line of stdout (see [`super::kit::answer::json_answer`]), written with a
//! single write and flushed, with the input's line number and text, so a run killed at any
//! moment leaves whole lines behind. `--skip-done OUTPUT` reads those back and skips the
//! (line, input) pairs already answered: `... --skip-done out.jsonl >> out.jsonl` resumes a
//! run with nothing lost or doubled. `--shard i/n` keeps the lines whose 0-based number is i
//! modulo n, so n machines or array jobs can split one file.
//!
//! `--jobs N` worker threads (default: the cores available) each own a solver with its own
//! `--hash-mb` table (the total is said up front) and take the next position when done. Answers
//! are written as they finish, or in input order with `--ordered`. A progress bar goes to
//! stderr when it is a terminal; a summary at the end. Both count the answers written. Ctrl-C
//! stops the searches under way; their unfinished answers are not written (a resumed run does
//! them again). With `--ordered`, every finished answer up to the first unfinished line is
//! written; those that finished after it are dropped (and counted apart), so the output stays in
//! input order and the resumed run appends exactly the rest, still in order.

use super::args::{usage_error, OutFormat, SolveArgs};
use super::kit::answer::{json_answer, result_word};
use super::kit::input::read_file;
use super::kit::search::{fit_hash_mb, limits_of, solver_of};
use super::kit::stop::{install_signal_handler, EXIT_INTERRUPTED, STOP};
use super::output::note;
use crate::mate::{Limits, Solver};
use crate::record;
use std::collections::{BTreeMap, HashSet};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// One input line to solve.
#[derive(Clone, Debug)]
pub struct Item {
    /// Its 1-based line number in the input.
    pub line: usize,
    /// The line's text, trimmed.
    pub text: String,
}

/// The positions of a batch input: every non-blank line that is not a `#` comment, and of
/// those only the lines whose 0-based number is `i` modulo `n` when `shard` is given.
pub fn items(text: &str, shard: Option<(usize, usize)>) -> Vec<Item> {
    text.lines()
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|(k, n)| i % n == k))
        .filter_map(|(i, l)| {
            let t = l.trim();
            (!t.is_empty() && !t.starts_with('#')).then(|| Item {
                line: i + 1,
                text: t.to_string(),
            })
        })
        .collect()
}

/// The (line, input) pairs answered in an earlier run's output `path` (missing: none). A
/// partial last line (a run killed mid-write) is cut off the file. Returns the pairs and how
/// many lines were not answers.
pub fn done_set(path: &Path) -> Result<(HashSet<(usize, String)>, usize), String> {
    let mut done = HashSet::new();
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((done, 0)),
        Err(e) => return Err(format!("--skip-done {}: {e}", path.display())),
    };
    let whole = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(i) => i + 1,
        None => 0,
    };
    if whole < bytes.len() {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("--skip-done {}: {e}", path.display()))?;
        f.set_len(whole as u64)
            .map_err(|e| format!("--skip-done {}: {e}", path.display()))?;
        note(format_args!(
            "batch: cut a partial last line ({} bytes) off {}",
            bytes.len() - whole,
            path.display()
        ));
    }
    let mut bad = 0;
    for l in String::from_utf8_lossy(&bytes[..whole]).lines() {
        if l.trim().is_empty() {
            continue;
        }
        let v: Option<serde_json::Value> = serde_json::from_str(l).ok();
        let key = v.as_ref().and_then(|v| {
            Some((
                v.get("line")?.as_u64()? as usize,
                v.get("input")?.as_str()?.to_string(),
            ))
        });
        match key {
            Some(k) => {
                done.insert(k);
            }
            None => bad += 1,
        }
    }
    Ok((done, bad))
}

/// The `result` of the answer to a line that is not a position.
const ERROR: &str = "error";

/// One answer: its `result` word (what the batch counts) and its JSON object, serialized.
type Answer = (&'static str, String);

/// Solves one item: its answer as a JSON object (`result` `error` when the line is not a
/// position), with the answer's `result` beside it, so that nothing reads the JSON back.
fn solve_item(solver: &mut Solver, item: &Item, base: Option<&Path>, limits: &Limits) -> Answer {
    let pos = if record::sfen::looks_like(&item.text) {
        record::sfen::read_line(&item.text).map(|r| r.position())
    } else {
        let mut p = PathBuf::from(&item.text);
        if p.is_relative() && !p.exists() {
            if let Some(b) = base {
                p = b.join(p);
            }
        }
        read_file(&p)
    };
    match pos {
        Err(e) => (
            ERROR,
            serde_json::json!({
                "input": item.text,
                "line": item.line,
                "result": ERROR,
                "error": e,
            })
            .to_string(),
        ),
        Ok(pos) => {
            // A new game per position: answers do not depend on the order of the work or on
            // the other positions. It writes nothing to the table (see `Solver::new_game`);
            // zeroing the table instead gave its pages back, and the kernel zeroed them again
            // as the next search touched them (1500 positions of 3 to 11 plies at 64 MB: most
            // of the time went there).
            solver.new_game();
            let r = solver.solve(&pos, limits, &STOP, &mut |_| {});
            let json = json_answer(&item.text, Some(item.line), &pos, &r).to_string();
            (result_word(&r.outcome), json)
        }
    }
}

/// `tsumugi solve --batch FILE|- [--jobs N] [--ordered] [--skip-done OUTPUT] [--shard i/n]`
/// (dispatched here by [`super::run`] when `--batch` is given).
pub fn run(args: SolveArgs) -> ExitCode {
    const SUB: &str = "solve";
    if args.format.is_some_and(|f| f != OutFormat::Json) {
        return usage_error(SUB, "--batch writes JSON lines: --format must be json");
    }
    if args.multipv > 1 {
        return usage_error(
            SUB,
            "--multipv is for one position: it cannot be used with --batch",
        );
    }
    let src = args.batch.clone().unwrap_or_default();
    let (bytes, base) = if src == "-" {
        let mut b = vec![];
        if let Err(e) = std::io::stdin().lock().read_to_end(&mut b) {
            return usage_error(SUB, &format!("--batch -: {e}"));
        }
        (b, None)
    } else {
        match std::fs::read(&src) {
            Ok(b) => (b, Path::new(&src).parent().map(Path::to_path_buf)),
            Err(e) => return usage_error(SUB, &format!("--batch {src}: {e}")),
        }
    };
    let text = match record::decode::decode(&bytes) {
        Ok(t) => t,
        Err(e) => return usage_error(SUB, &format!("--batch {src}: {e}")),
    };
    let all = items(&text, args.shard);
    let (done, bad) = match &args.skip_done {
        None => (HashSet::new(), 0),
        Some(p) => match done_set(p) {
            Ok(d) => d,
            Err(e) => return usage_error(SUB, &e),
        },
    };
    if bad > 0 {
        note(format_args!(
            "batch: {bad} lines of the --skip-done file are not answers; ignored"
        ));
    }
    let total = all.len();
    let todo: Vec<Item> = all
        .into_iter()
        .filter(|it| !done.contains(&(it.line, it.text.clone())))
        .collect();
    let skipped = total - todo.len();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = (args.jobs.map_or(cores, |j| j as usize))
        .min(todo.len())
        .max(1);
    let threads = args.search.threads.map_or(1, |t| t as usize);
    let hash = fit_hash_mb(args.search.hash_mb, jobs);
    let mut search = args.search.clone();
    search.hash_mb = hash as u64;
    let shard = args
        .shard
        .map(|(i, n)| format!(", shard {i}/{n}"))
        .unwrap_or_default();
    note(format_args!(
        "batch: {} positions to solve ({skipped} already answered{shard}); {jobs} {} x \
         {hash} MB table = {} MB{}",
        todo.len(),
        if jobs == 1 { "job" } else { "jobs" },
        jobs * hash,
        if threads > 1 {
            format!(", {threads} threads per job")
        } else {
            String::new()
        }
    ));
    install_signal_handler();
    let start = Instant::now();
    let todo = Arc::new(todo);
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = crossbeam_channel::unbounded::<(usize, Answer)>();
    let limits = limits_of(&args.search, false);
    let mut workers = vec![];
    for j in 0..jobs {
        let (todo, next, tx, limits, opts) = (
            todo.clone(),
            next.clone(),
            tx.clone(),
            limits.clone(),
            search.clone(),
        );
        let base = base.clone();
        let h = crate::mate::spawn_search_thread(&format!("batch-{j}"), move || {
            let mut solver = solver_of(&opts, threads);
            loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= todo.len() || STOP.load(Ordering::SeqCst) {
                    break;
                }
                let ans = solve_item(&mut solver, &todo[i], base.as_deref(), &limits);
                // An answer cut short by Ctrl-C is not an answer: a resumed run redoes it.
                if STOP.load(Ordering::SeqCst) || tx.send((i, ans)).is_err() {
                    break;
                }
            }
        });
        match h {
            Ok(h) => workers.push(h),
            Err(e) => {
                STOP.store(true, Ordering::SeqCst);
                note(format_args!("error: cannot start a batch job: {e}"));
                break;
            }
        }
    }
    drop(tx);
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(todo.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} {msg} (eta {eta})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
            .progress_chars("=> "),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    // Counted as written: the bar, its message and the summary speak of the same lines.
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut pending: BTreeMap<usize, Answer> = BTreeMap::new();
    let mut next_out = 0;
    let mut out = std::io::stdout().lock();
    let mut closed = false;
    for (i, ans) in rx.iter() {
        let ready: Vec<Answer> = if args.ordered {
            pending.insert(i, ans);
            let mut v = vec![];
            while let Some(a) = pending.remove(&next_out) {
                v.push(a);
                next_out += 1;
            }
            v
        } else {
            vec![ans]
        };
        for (result, json) in ready {
            // One write per answer: a run killed at any moment leaves whole lines.
            let mut line = json.into_bytes();
            line.push(b'\n');
            if out.write_all(&line).and_then(|_| out.flush()).is_err() {
                closed = true;
                break;
            }
            *counts.entry(result).or_default() += 1;
        }
        // The message before the position: a frame drawn by either shows the same count.
        bar.set_message(progress_counts(&counts, pending.len()));
        bar.set_position(counts.values().sum::<usize>() as u64);
        if closed {
            STOP.store(true, Ordering::SeqCst);
            break;
        }
    }
    drop(out);
    for w in workers {
        let _ = w.join();
    }
    let held = pending.len();
    // The last frame is drawn as it stands (the rate limit may have skipped the last update),
    // so that it says what the summary says.
    bar.set_message(summary_counts(&counts));
    bar.abandon();
    let interrupted = STOP.load(Ordering::SeqCst) && !closed;
    let answered: usize = counts.values().sum();
    let dropped = if held > 0 {
        // With --ordered an answer is written only after every earlier line's: those that
        // finished after an unfinished one are dropped, so that the output stays in input order
        // and a run resumed with --skip-done appends exactly the lines from that one on.
        format!(
            "; {held} finished after an unfinished line and were not written (--ordered: a \
             resumed run solves them again)"
        )
    } else {
        String::new()
    };
    note(format_args!(
        "batch: {answered} answered ({}), {skipped} skipped as done, {} not reached{dropped}; \
         {:.1} s with {jobs} {}{}",
        summary_counts(&counts),
        todo.len() - answered - held,
        start.elapsed().as_secs_f64(),
        if jobs == 1 { "job" } else { "jobs" },
        if interrupted { "; interrupted" } else { "" }
    ));
    if closed {
        ExitCode::SUCCESS
    } else if interrupted {
        ExitCode::from(EXIT_INTERRUPTED)
    } else if counts.contains_key(ERROR) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The bar's message: the written answers by result, and those waiting for an earlier line
/// (`--ordered`).
fn progress_counts(counts: &BTreeMap<&str, usize>, waiting: usize) -> String {
    let mut s = summary_counts(counts);
    if waiting > 0 {
        s.push_str(&format!(", {waiting} waiting for an earlier line"));
    }
    s
}

/// The written answers by result, as `3 mate, 1 nomate` (`none yet` when there are none).
fn summary_counts(counts: &BTreeMap<&str, usize>) -> String {
    if counts.is_empty() {
        return "none yet".into();
    }
    counts
        .iter()
        .map(|(k, v)| format!("{v} {k}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_skip_comments_and_shard() {
        let t = "# c\na\n\nb\nc\nd\n";
        let all = items(t, None);
        assert_eq!(
            all.iter().map(|i| i.line).collect::<Vec<_>>(),
            vec![2, 4, 5, 6]
        );
        let mut union = vec![];
        for k in 0..3 {
            union.extend(items(t, Some((k, 3))).into_iter().map(|i| i.line));
        }
        union.sort();
        assert_eq!(union, vec![2, 4, 5, 6]);
    }

    /// The word a batch counts an answer by is the `result` its JSON line says, for a mate, a
    /// proven no-mate, an undecided search and a line that is not a position.
    #[test]
    fn answers_are_counted_by_their_json_result() {
        let answers = crate::mate::with_search_stack(|| {
            let mut solver = Solver::new(1);
            let mut answer = |text: &str, nodes: Option<u64>| {
                let limits = Limits {
                    nodes,
                    ..Limits::default()
                };
                let item = Item {
                    line: 1,
                    text: text.into(),
                };
                solve_item(&mut solver, &item, None, &limits)
            };
            vec![
                answer("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", None),
                answer("4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l17p 1", None),
                answer("9/1k7/N8/9/3NP4/9/9/9/9 b RBSrb4g3s2n4l17p 1", Some(10)),
                answer("no-such-problem.kif", None),
            ]
        });
        let words: Vec<&str> = answers.iter().map(|(w, _)| *w).collect();
        assert_eq!(words, ["mate", "nomate", "unknown", "error"]);
        for (word, json) in &answers {
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            assert_eq!(v["result"], *word, "{json}");
        }
    }

    #[test]
    fn done_set_cuts_a_partial_line() {
        let dir = std::env::temp_dir().join(format!("tsumugi-done-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("out.jsonl");
        std::fs::write(
            &p,
            "{\"line\":2,\"input\":\"x\",\"result\":\"mate\"}\nnot json\n{\"line\":3,\"inp",
        )
        .unwrap();
        let (done, bad) = done_set(&p).unwrap();
        assert!(done.contains(&(2, "x".to_string())));
        assert_eq!((done.len(), bad), (1, 1));
        assert!(std::fs::read_to_string(&p).unwrap().ends_with("not json\n"));
        let (none, _) = done_set(&dir.join("missing")).unwrap();
        assert!(none.is_empty());
        std::fs::remove_dir_all(&dir).ok();
    }
}
