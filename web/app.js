// The page: board editor, position box and file input (SFEN, USI `position` commands, KIF,
// KI2, CSA, read by the solver's own readers in the worker, as `tsumugi solve` reads them), settings, Solve/Stop over the search worker (worker.js), progress,
// the answer with a step-through board, USI and KIF text. After the answer, on the same table:
// with Lines 2 or more the other first moves of a mate, and for a proven no mate the defence
// that refutes each check (worker 'more'), each line playable on the same board.
//
// URL parameters: sfen=<SFEN> (the position; also kept up to date while editing), solve=1
// (solve at once: the test hook; #answer then holds exactly what `tsumugi solve` prints on
// stdout for the same settings), mode=strict|composer|first, time=<seconds> (0 = none),
// hash=<MB>, lines=<N> (1 to 600), lang=ja|en.

import {
  BOARD_KINDS, HAND_KINDS, PROMOTABLE, clonePosition, drawBoard, emptyPosition, kindName,
  missingPieces, parseSfen, parseUsiSquare, toSfen,
} from './board.js';
import { TEXT, apply, solverText } from './i18n.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(window.location.search);
const DEFAULT_SFEN = '9/9/6P2/9/4B4/9/6R2/7k+p/9 b Grb3g4s4n4l16p 1';
const STARTPOS = 'lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1';

let lang = params.get('lang') || localStorage.getItem('tsumugi-lang')
  || (navigator.language && navigator.language.startsWith('ja') ? 'ja' : 'en');
if (!TEXT[lang]) lang = 'ja';
const t = () => TEXT[lang];
const st = () => solverText(lang);

let pos = emptyPosition();
let tool = 'select';
let selected = null;
let positionError = null; // the solver's error for the current position ({error, line, reason}), or null
let attacker = 'b'; // the side that mates the current position (the solver's rule), 'b' or 'w'
let loadedFile = null; // {name, format} of the file read last, shown beside the file input

let worker = null;
let ready = false;
let nextId = 1;
const inspectWaiters = new Map();
let job = null; // {id, lastProgress, stopTimer}
// The first moves' search after an answer: {id, last (its last reply), stopTimer}; body's
// data-more is 'searching' while it runs, 'done' once its list is final.
let more = null;
let replay = null; // {line, ply, alt: the listed entry shown, or null for the answer's line}

// ---------------------------------------------------------------- worker

function startWorker() {
  ready = false;
  worker = new Worker('worker.js');
  worker.onmessage = (ev) => onWorker(ev.data);
  worker.onerror = (ev) => {
    setState(`${t().fatal}: ${ev.message || ''}`);
  };
}

// Reads a position in the worker: `input` is {text} or {bytes} (an ArrayBuffer, a file's).
function inspect(input) {
  const id = nextId++;
  return new Promise((resolve) => {
    inspectWaiters.set(id, resolve);
    worker.postMessage({ type: 'inspect', id, ...input }, input.bytes ? [input.bytes] : []);
  });
}

// A worker error in the page's language: a trap or a module not loaded yet by its code, else
// the solver's message.
function workerError(msg) {
  if (msg.code === 'failed') return `${t().solverFailed}: ${msg.error.replace(/^the solver failed: /, '')}`;
  if (msg.code === 'not-loaded') return t().notLoaded;
  return msg.error;
}

function onWorker(msg) {
  switch (msg.type) {
    case 'ready':
      ready = true;
      setState(t().ready);
      onReady();
      break;
    case 'fatal':
      setState(`${t().fatal}: ${msg.error}`);
      break;
    case 'inspect': {
      const resolve = inspectWaiters.get(msg.id);
      inspectWaiters.delete(msg.id);
      if (resolve) resolve(msg.reply);
      break;
    }
    case 'started':
      break;
    case 'progress':
      if (job && msg.id === job.id) {
        job.lastProgress = msg.reply;
        showProgress(msg.reply);
      }
      break;
    case 'done':
      if (job && msg.id === job.id) finish(msg.reply);
      break;
    case 'more-progress':
      if (more && msg.id === more.id) {
        more.last = msg.reply;
        showMore();
      }
      break;
    case 'more-done':
      if (more && msg.id === more.id) finishMore(msg.reply);
      break;
    case 'error':
      if (msg.id && inspectWaiters.has(msg.id)) {
        inspectWaiters.get(msg.id)({ ok: false, error: workerError(msg), line: 0 });
        inspectWaiters.delete(msg.id);
      } else if (job && (msg.id === job.id || msg.id === null)) {
        endJob();
        showError(msg.code ? workerError(msg) : msg.error);
      } else if (more && (msg.id === more.id || msg.id === null)) {
        // The answer stands; the list says why it ends here.
        finishMore({ ...(more.last || { moves: [] }), done: true, error: msg.code ? workerError(msg) : msg.error });
      }
      break;
    default:
      break;
  }
}

function setState(text) {
  $('engine-state').textContent = text;
}

// ---------------------------------------------------------------- editor

function render() {
  drawBoard($('editor-board'), pos, { onSquare: clickSquare, selected });
  for (const b of document.querySelectorAll('.tool')) {
    b.classList.toggle('active', b.dataset.tool === tool);
  }
  drawHandEditor();
  for (const r of document.querySelectorAll('input[name=side]')) r.checked = r.value === pos.side;
  // The sides by what they are in this position: who mates is the solver's decision (the side
  // to move, unless it is the one being mated), not always Sente.
  const defender = attacker === 'b' ? 'w' : 'b';
  for (const c of ['b', 'w']) {
    $(`place-side-${c}`).textContent = t().sideWithRole(t().sideName[c],
      c === attacker ? t().role.attacker : t().role.defender);
  }
  $('rest-to-defender').textContent = t().restToDefender(t().sideName[defender]);
  const left = missingPieces(pos);
  const parts = [];
  for (const k of BOARD_KINDS) if (left[k] > 0) parts.push(`${kindName(k)}${left[k]}`);
  $('missing').textContent = parts.length ? `${t().missing}: ${parts.join(' ')}` : '';
}

function drawHandEditor() {
  const el = $('hand-editor');
  el.textContent = '';
  for (const color of ['b', 'w']) {
    const row = document.createElement('div');
    row.className = 'hand-row';
    const label = document.createElement('span');
    label.className = 'hand-row-label';
    label.textContent = color === 'b' ? `☗ ${t().handSente}` : `☖ ${t().handGote}`;
    row.appendChild(label);
    el.appendChild(row);
    for (const k of HAND_KINDS) {
      const cell = document.createElement('span');
      cell.className = 'hand-cell';
      const minus = document.createElement('button');
      minus.type = 'button';
      minus.textContent = '−';
      minus.dataset.hand = `${color}${k}-`;
      minus.addEventListener('click', () => changeHand(color, k, -1));
      const plus = document.createElement('button');
      plus.type = 'button';
      plus.textContent = '+';
      plus.dataset.hand = `${color}${k}+`;
      plus.addEventListener('click', () => changeHand(color, k, 1));
      const cnt = document.createElement('span');
      cnt.className = 'cnt';
      cnt.textContent = `${kindName(k)}${pos.hands[color][k]}`;
      cell.append(minus, cnt, plus);
      row.appendChild(cell);
    }
  }
}

function changeHand(color, kind, d) {
  const n = pos.hands[color][kind] + d;
  if (n < 0) return;
  pos.hands[color][kind] = n;
  edited();
}

function placeSide() {
  return document.querySelector('input[name=place-side]:checked').value;
}

function clickSquare(r, c) {
  if (tool === 'select') {
    selected = selected && selected.r === r && selected.c === c ? null : { r, c };
  } else if (tool === 'erase') {
    pos.board[r][c] = null;
  } else {
    const promoted = $('place-promoted').checked && PROMOTABLE.has(tool);
    pos.board[r][c] = { kind: tool, promoted, color: placeSide() };
    selected = { r, c };
  }
  edited();
}

function actOnSelected(f) {
  if (!selected) return;
  const p = pos.board[selected.r][selected.c];
  if (!p) return;
  f(p);
  edited();
}

// The position box grows with a pasted record (up to 12 lines), back to one line for a SFEN.
function fitBox() {
  $('sfen').rows = Math.min(12, Math.max(1, $('sfen').value.split('\n').length));
}

function edited() {
  positionChanged();
  $('sfen').value = toSfen(pos);
  fitBox();
  render();
  syncUrl();
  validate();
}

// The position shown changed (edited on the board, loaded from the box, a file or a drop):
// the answer, its line, the replay board, the USI and the KIF were the old position's, so they
// go, and a search of the old position still running is abandoned (its answer would be
// shown beside a position it does not answer).
function positionChanged() {
  if (job || more) {
    worker.postMessage({ type: 'stop' });
    if (job) endJob();
    dropMore();
  }
  clearAnswer();
}

function syncUrl() {
  const u = new URL(window.location.href);
  u.searchParams.set('sfen', toSfen(pos));
  u.searchParams.delete('solve');
  window.history.replaceState(null, '', u);
}

let validateSeq = 0;
async function validate() {
  if (!ready) return null;
  const seq = ++validateSeq;
  const r = await inspect({ text: toSfen(pos) });
  if (seq !== validateSeq) return r;
  positionError = r.ok ? null : r;
  setAttacker(r);
  if (positionError) {
    showError(positionError);
    if (!job) clearAnswer();
  } else {
    hideError();
  }
  $('solve').disabled = !!positionError || !!job;
  return r;
}

// The side that mates, from a reply of the solver; the side to move while the position is
// invalid (the usual problem).
function setAttacker(r) {
  const before = attacker;
  attacker = r.ok ? r.attacker : pos.side;
  if (attacker !== before) render();
}

// `e`: a reply of the solver ({error, line, reason}) or a message.
function showError(e) {
  const el = $('error');
  el.hidden = false;
  el.textContent = `${t().invalid}: ${st().error(e)}`;
}

function hideError() {
  $('error').hidden = true;
  $('error').textContent = '';
}

// Loads a position typed, pasted, passed in the URL ({text}) or read from a file ({bytes,
// name}): read by the solver, so a bad one shows the solver's message, leaves the board as it
// was and clears the answer of the position before (it no longer answers what is shown). The
// box then holds the position's SFEN (after the moves of a record).
async function loadInput(input) {
  const r = await inspect(input);
  if (!r.ok) {
    positionError = r;
    showError(r);
    if (input.text != null) $('sfen').value = input.text;
    $('solve').disabled = true;
    if (!job) clearAnswer();
    return null;
  }
  positionChanged();
  pos = parseSfen(r.sfen);
  selected = null;
  positionError = null;
  attacker = r.attacker;
  hideError();
  $('sfen').value = r.sfen;
  fitBox();
  render();
  $('solve').disabled = !!job;
  return r;
}

// Text typed or pasted (a file's name, shown before, no longer applies).
function loadSfen(text) {
  loadedFile = null;
  showLoaded();
  return loadInput({ text });
}

function showLoaded() {
  $('loaded').textContent = loadedFile ? t().loadedFile(loadedFile.name, loadedFile.format) : '';
}

async function loadFile(file) {
  if (!file || !ready) return;
  const bytes = await file.arrayBuffer();
  const r = await loadInput({ bytes });
  loadedFile = r ? { name: file.name, format: r.format } : null;
  showLoaded();
  if (r) syncUrl();
}

// ---------------------------------------------------------------- solve

function settings() {
  const mode = document.querySelector('input[name=mode]:checked').value;
  const secs = Number($('time').value);
  return {
    mode,
    time_ms: Number.isFinite(secs) && secs > 0 ? Math.round(secs * 1000) : 0,
    hash_mb: Number($('hash').value),
  };
}

// Lines (MultiPV): how many first moves to show, the best line included.
function lines() {
  const n = Math.floor(Number($('lines').value));
  return Number.isFinite(n) ? Math.max(1, Math.min(600, n)) : 1;
}

async function solve() {
  if (!ready || job) return;
  // Text typed or pasted but not loaded yet is read first (a record's position is after its
  // moves; the box then holds its SFEN).
  const text = $('sfen').value.trim();
  if (text && text !== toSfen(pos) && !(await loadSfen(text))) return;
  if (job || positionError) return;
  const sfen = $('sfen').value.trim() || toSfen(pos);
  if (more) {
    // The first moves of the answer before: ended, their table is about to go.
    worker.postMessage({ type: 'stop' });
    dropMore();
  }
  const id = nextId++;
  job = { id, lastProgress: null, stopTimer: null, settings: settings(), stopped: false };
  clearAnswer();
  $('solve').disabled = true;
  $('stop').disabled = false;
  $('verdict').textContent = t().searching;
  document.body.dataset.state = 'solving';
  worker.postMessage({ type: 'solve', id, request: { sfen, ...job.settings } });
}

function stop() {
  if (more && !job) {
    stopMore();
    return;
  }
  if (!job) return;
  job.stopped = true;
  worker.postMessage({ type: 'stop' });
  // The worker answers between two slices (well under a second). If it does not (a slice
  // stuck in work that cannot be interrupted), end it: the answer is then what the last
  // progress report showed.
  const id = job.id;
  job.stopTimer = setTimeout(() => {
    if (!job || job.id !== id) return;
    const last = job.lastProgress;
    worker.terminate();
    startWorker();
    finish({
      done: true, answer: 'checkmate timeout', outcome: 'unknown', reason: 'stopped',
      line: last && last.line, nodes: last ? last.nodes : 0, time_ms: last ? last.time_ms : 0,
      nps: last ? last.nps : 0, hashfull: last ? last.hashfull : 0,
    });
  }, 1500);
}

function endJob() {
  if (job && job.stopTimer) clearTimeout(job.stopTimer);
  job = null;
  $('stop').disabled = true;
  $('solve').disabled = !!positionError || !ready;
  document.body.dataset.state = 'done';
}

function fmt(n) {
  return Number(n).toLocaleString(lang === 'ja' ? 'ja-JP' : 'en-US');
}

function showProgress(p) {
  $('p-time').textContent = `${(p.time_ms / 1000).toFixed(1)} s`;
  $('p-nodes').textContent = fmt(p.nodes);
  $('p-nps').textContent = fmt(p.nps);
  $('p-hashfull').textContent = `${(p.hashfull / 10).toFixed(1)}%`;
  if (p.upper != null) {
    $('p-best').textContent = p.lower != null && p.lower < p.upper
      ? `${t().mateIn(p.upper)} (${t().pliesRange(p.lower, p.upper)})`
      : t().mateIn(p.upper);
  } else if (p.line) {
    $('p-best').textContent = t().mateIn(p.line.usi.length);
  }
  // What the search says about itself (the table is full), while it runs; the answer's
  // notes repeat it (showResult).
  if (!p.done && p.notices && p.notices.length) $('status-text').textContent = noticeTexts(p).join(' / ');
}

// The notices of a progress report or an answer, in the page's language.
function noticeTexts(r) {
  return (r.notices || []).map((n) => (n.kind === 'table_full' ? t().tableFull(n.mb) : n.text));
}

function clearAnswer() {
  lastResult = null;
  lastMore = null;
  if (!more) delete document.body.dataset.more;
  for (const id of ['verdict', 'japanese', 'status-text', 'answer']) $(id).textContent = '';
  for (const id of ['p-time', 'p-nodes', 'p-nps', 'p-hashfull', 'p-best']) $(id).textContent = '-';
  $('replay-panel').hidden = true;
  replay = null;
  $('more-panel').hidden = true;
  $('more-list').textContent = '';
  for (const id of ['more-title', 'more-heading', 'more-state']) $(id).textContent = '';
}

let lastResult = null; // the answer shown, redrawn when the language changes

function finish(r) {
  const done = job;
  endJob();
  lastResult = r;
  showResult(r);
  // Then, on the same table: the other first moves of a mate (Lines 2 or more) or the
  // refutation of each check of a proven no mate. Not after a Stop (the user ended the
  // search) nor for an undecided answer or one where the side to move is mated.
  const n = lines();
  const wanted = r.outcome === 'nomate' || (r.outcome === 'mate' && n > 1);
  if (done && !done.stopped && wanted && !r.defender_root) startMore(r, done.settings, n);
}

// ---------------------------------------------------------------- other first moves

function startMore(r, s, n) {
  const id = nextId++;
  // What is left of the user's time limit (at least 1 ms: 0 would mean none); none without one.
  const timeMs = s.time_ms > 0 ? Math.max(1, s.time_ms - r.time_ms) : 0;
  more = { id, last: null, stopTimer: null, kind: r.outcome === 'mate' ? 'others' : 'refutations' };
  document.body.dataset.more = 'searching';
  $('stop').disabled = false;
  showMore();
  worker.postMessage({ type: 'more', id, request: { lines: n, time_ms: timeMs } });
}

function stopMore() {
  worker.postMessage({ type: 'stop' });
  // As for the answer's search: if the worker does not answer between two slices, end it; the
  // list is then what the last report showed, the rest undecided.
  const { id } = more;
  more.stopTimer = setTimeout(() => {
    if (!more || more.id !== id) return;
    worker.terminate();
    startWorker();
    finishMore({ ...(more.last || { moves: [] }), done: true, reason: 'stopped', incomplete: true });
  }, 1500);
}

function dropMore() {
  if (more && more.stopTimer) clearTimeout(more.stopTimer);
  more = null;
  delete document.body.dataset.more;
}

let lastMore = null; // the final list shown, redrawn when the language changes

function finishMore(reply) {
  const kind = more.kind;
  if (more.stopTimer) clearTimeout(more.stopTimer);
  more = null;
  if (!job) $('stop').disabled = true;
  document.body.dataset.more = 'done';
  if (reply.kind === 'none') {
    // The solver had nothing to add (its rule, the same as the page's; kept for safety).
    $('more-panel').hidden = true;
    return;
  }
  lastMore = { ...reply, kind: reply.kind || kind };
  renderMore(lastMore, false);
}

function showMore() {
  renderMore(more.last || { kind: more.kind, moves: [], decided: 0, checks: 0 }, true);
}

// One listed first move in the page's words, from its JSON fields only (see i18n.js: a mate is
// called shortest only when `minimal`, a defence shown only when the solver gave one).
function entryText(e) {
  const ja = e.line.japanese;
  if (e.result === 'mate') return t().fmMate(ja.join(' '), e);
  if (e.result === 'nomate') {
    return e.refutation ? t().fmRefuted(ja[0], ja[1], e.only_reply) : t().fmNoMate(ja[0]);
  }
  return t().fmUndecided(ja[0], st().reason(e.reason));
}

// The list of the other first moves or of the refutations: `searching` while it may change.
function renderMore(r, searching) {
  const others = r.kind === 'others';
  $('more-panel').hidden = false;
  $('more-title').textContent = others ? t().otherFirstMoves : t().whyNoMate;
  $('more-heading').textContent = !others && r.heading ? r.heading[lang === 'ja' ? 'ja' : 'en'] : '';
  const ol = $('more-list');
  ol.textContent = '';
  ol.start = others ? 2 : 1;
  r.moves.forEach((e) => {
    const li = document.createElement('li');
    li.dataset.result = e.result;
    li.dataset.usi = e.moves;
    li.append(entryText(e));
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'step';
    b.textContent = t().stepThrough;
    b.addEventListener('click', () => showReplay(e.line, e.kif, e));
    li.appendChild(b);
    if (replay && replay.alt && replay.alt.moves === e.moves) li.classList.add('current');
    ol.appendChild(li);
  });
  let state;
  if (r.error) state = r.error;
  else if (searching) state = t().moreSearching(r.decided || 0, r.checks || 0);
  else if (r.reason) state = t().moreEnded(st().reason(r.reason));
  else if (r.checks === 0) state = t().moreNoChecks;
  // Best first: a first entry without mate means no other check mates (each proven).
  else if (others && r.moves.length && r.moves[0].result === 'nomate') state = t().moreNone;
  else state = t().moreDone(r.checks);
  $('more-state').textContent = state;
}

function showResult(r) {
  showProgress(r);
  // The final length is the line's (a composer line is shorter than the strict bound).
  if (r.outcome === 'mate') $('p-best').textContent = t().mateIn(r.line.usi.length);
  $('answer').textContent = r.answer;
  let verdict;
  if (r.outcome === 'mate') {
    verdict = t().mateIn(r.line.usi.length);
    if (r.count_note) verdict += ` (${r.count_note[lang === 'ja' ? 'ja' : 'en']})`;
    if (r.reason) verdict += ` — ${st().reason(r.reason)}`;
  } else if (r.outcome === 'nomate') {
    verdict = t().noMate;
  } else {
    verdict = `${t().unknown} (${st().reason(r.reason)})`;
  }
  $('verdict').textContent = verdict;
  const notes = [];
  if (r.outcome === 'unknown' && r.line) notes.push(t().bestSoFar);
  if (r.defender_root) notes.push(t().defenderRoot);
  if (r.status) notes.push(st().status(r));
  notes.push(...noticeTexts(r));
  $('status-text').textContent = notes.join(' / ');
  if (r.line && r.line.usi.length > 0) {
    $('japanese').textContent = r.line.japanese.join(' ');
    if (!replay || (!replay.alt && replay.line !== r.line)) showReplay(r.line, r.kif);
  }
}

// ---------------------------------------------------------------- step-through

// `kif`: the answer's KIF from the solver (`tsumugi solve --format kifu`'s text), or a listed
// line's; `alt`: the listed first move shown (null: the answer's own line).
function showReplay(line, kif, alt = null) {
  replay = { line, ply: 0, alt };
  $('replay-panel').hidden = false;
  showWhich();
  for (const li of $('more-list').children) li.classList.toggle('current', !!alt && li.dataset.usi === alt.moves);
  const ol = $('r-moves');
  ol.textContent = '';
  line.japanese.forEach((m, i) => {
    const li = document.createElement('li');
    const n = document.createElement('span');
    n.className = 'n';
    n.textContent = String(i + 1);
    li.append(n, m);
    li.addEventListener('click', () => goTo(i + 1));
    ol.appendChild(li);
  });
  $('usi-line').value = `position sfen ${line.sfens[0]} moves ${line.usi.join(' ')}`;
  $('kif').value = kif || '';
  goTo(0);
}

// Which line the board plays: the answer's, or a listed one (then a button back to the answer's).
function showWhich() {
  if (!replay) return;
  const { alt } = replay;
  const best = lastResult && lastResult.line && lastResult.line.usi.length > 0;
  $('r-best').hidden = !alt || !best;
  if (!alt) $('r-which').textContent = t().bestLine;
  else if (alt.result === 'mate') {
    const n = [...$('more-list').children].findIndex((li) => li.dataset.usi === alt.moves);
    $('r-which').textContent = t().lineOf(n >= 0 ? n + 2 : '', alt.line.japanese.join(' '));
  } else $('r-which').textContent = t().refutationOf(alt.line.japanese.join(' '));
}

function goTo(ply) {
  if (!replay) return;
  const n = replay.line.usi.length;
  replay.ply = Math.max(0, Math.min(n, ply));
  const p = parseSfen(replay.line.sfens[replay.ply]);
  let highlight = null;
  if (replay.ply > 0) {
    const m = replay.line.usi[replay.ply - 1];
    highlight = parseUsiSquare(m.slice(2, 4));
  }
  drawBoard($('replay-board'), p, { highlight });
  $('r-ply').textContent = `${replay.ply} / ${n}`;
  [...$('r-moves').children].forEach((li, i) => li.classList.toggle('current', i === replay.ply - 1));
}

// ---------------------------------------------------------------- set-up

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    const old = button.textContent;
    button.textContent = t().copied;
    setTimeout(() => { button.textContent = old; }, 1200);
  } catch (e) {
    // No clipboard access (insecure origin): select the text so Ctrl-C copies it.
    const ta = button.closest('div').nextElementSibling;
    if (ta && ta.select) ta.select();
  }
}

function setLang(l) {
  lang = l;
  localStorage.setItem('tsumugi-lang', l);
  apply(lang);
  $('lang').textContent = t().lang;
  setState(ready ? t().ready : t().loading);
  render();
  if (positionError) showError(positionError);
  showLoaded();
  if (lastResult && !job) showResult(lastResult);
  if (more) showMore();
  else if (lastMore && document.body.dataset.more === 'done') renderMore(lastMore, false);
  showWhich();
}

function wire() {
  const pieceTools = $('piece-tools');
  for (const k of BOARD_KINDS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'tool';
    b.dataset.tool = k;
    b.textContent = kindName(k);
    pieceTools.appendChild(b);
  }
  for (const b of document.querySelectorAll('.tool')) {
    b.addEventListener('click', () => { tool = b.dataset.tool; render(); });
  }
  $('act-promote').addEventListener('click', () => actOnSelected((p) => {
    if (PROMOTABLE.has(p.kind)) p.promoted = !p.promoted;
  }));
  $('act-flip').addEventListener('click', () => actOnSelected((p) => {
    p.color = p.color === 'b' ? 'w' : 'b';
  }));
  $('act-remove').addEventListener('click', () => {
    if (selected) pos.board[selected.r][selected.c] = null;
    edited();
  });
  for (const r of document.querySelectorAll('input[name=side]')) {
    r.addEventListener('change', () => { pos.side = r.value; edited(); });
  }
  $('clear-board').addEventListener('click', () => {
    const side = pos.side;
    pos = emptyPosition();
    pos.side = side;
    selected = null;
    edited();
  });
  $('rest-to-defender').addEventListener('click', () => {
    const left = missingPieces(pos);
    const defender = attacker === 'b' ? 'w' : 'b';
    for (const k of HAND_KINDS) if (left[k] > 0) pos.hands[defender][k] += left[k];
    edited();
  });
  $('startpos').addEventListener('click', () => { pos = parseSfen(STARTPOS); selected = null; edited(); });
  $('load-sfen').addEventListener('click', async () => {
    if (await loadSfen($('sfen').value)) syncUrl();
  });
  $('sfen').addEventListener('input', fitBox);
  // Enter loads; Shift+Enter starts a new line (a board diagram typed by hand).
  $('sfen').addEventListener('keydown', async (e) => {
    if (e.key !== 'Enter' || e.shiftKey) return;
    e.preventDefault();
    if (await loadSfen($('sfen').value)) syncUrl();
  });
  $('file').addEventListener('change', async (e) => {
    await loadFile(e.target.files[0]);
    e.target.value = ''; // the same file again is a change
  });
  // A file dropped anywhere on the page is read (not opened by the browser in place of it).
  let dragDepth = 0;
  document.addEventListener('dragenter', (e) => {
    if (!e.dataTransfer || ![...e.dataTransfer.types].includes('Files')) return;
    dragDepth += 1;
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', () => {
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) document.body.classList.remove('dragging');
  });
  document.addEventListener('dragover', (e) => {
    if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) e.preventDefault();
  });
  document.addEventListener('drop', (e) => {
    if (!e.dataTransfer || !e.dataTransfer.files.length) return;
    e.preventDefault();
    dragDepth = 0;
    document.body.classList.remove('dragging');
    loadFile(e.dataTransfer.files[0]);
  });
  $('copy-sfen').addEventListener('click', (e) => copyText($('sfen').value, e.target));
  $('copy-usi').addEventListener('click', (e) => copyText($('usi-line').value, e.target));
  $('copy-kif').addEventListener('click', (e) => copyText($('kif').value, e.target));
  $('solve').addEventListener('click', solve);
  $('stop').addEventListener('click', stop);
  $('r-first').addEventListener('click', () => goTo(0));
  $('r-prev').addEventListener('click', () => goTo(replay ? replay.ply - 1 : 0));
  $('r-next').addEventListener('click', () => goTo(replay ? replay.ply + 1 : 0));
  $('r-last').addEventListener('click', () => goTo(replay ? replay.line.usi.length : 0));
  $('r-best').addEventListener('click', () => {
    if (lastResult && lastResult.line) showReplay(lastResult.line, lastResult.kif);
  });
  $('lang').addEventListener('click', () => setLang(lang === 'ja' ? 'en' : 'ja'));
  document.addEventListener('keydown', (e) => {
    if (!replay || e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA') return;
    if (e.key === 'ArrowRight') goTo(replay.ply + 1);
    if (e.key === 'ArrowLeft') goTo(replay.ply - 1);
  });
  // Settings from the URL.
  const mode = params.get('mode');
  if (mode) {
    const r = document.querySelector(`input[name=mode][value="${CSS.escape(mode)}"]`);
    if (r) r.checked = true;
  }
  if (params.has('time')) $('time').value = params.get('time');
  if (params.has('lines')) $('lines').value = params.get('lines');
  if (params.has('hash')) {
    const h = params.get('hash');
    if (![...$('hash').options].some((o) => o.value === h)) $('hash').add(new Option(h));
    $('hash').value = h;
  }
}

let firstReady = true;
async function onReady() {
  if (!firstReady) return; // a worker restarted after a stop that did not answer
  firstReady = false;
  document.body.dataset.state = 'ready';
  const fromUrl = params.get('sfen');
  const ok = await loadSfen(fromUrl || DEFAULT_SFEN);
  if (ok && params.get('solve') === '1') solve();
  if (!fromUrl) syncUrl();
}

wire();
setLang(lang);
pos = parseSfen(DEFAULT_SFEN);
render();
document.body.dataset.state = 'loading';
startWorker();
