// The page's position model and board drawing. The model is only for editing and display:
// whether a position is legal is decided by the solver itself (tsumugi_inspect in the worker),
// which gives the same message as `tsumugi solve`.
//
// board[r][c]: r = 0..8 is rank 一..九 (top to bottom), c = 0..8 is file ９..１ (left to
// right), as a SFEN row lists them. A piece is {kind, promoted, color}; kind is the SFEN letter
// in upper case (P L N S G B R K), color 'b' (sente, ▲) or 'w' (gote, △).

export const HAND_KINDS = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];
export const BOARD_KINDS = ['P', 'L', 'N', 'S', 'G', 'B', 'R', 'K'];
export const PROMOTABLE = new Set(['P', 'L', 'N', 'S', 'B', 'R']);
// How many of each kind a full set has (both sides, board and hands together).
export const FULL_SET = { K: 2, R: 2, B: 2, G: 4, S: 4, N: 4, L: 4, P: 18 };

const NAMES = { P: '歩', L: '香', N: '桂', S: '銀', G: '金', B: '角', R: '飛', K: '玉' };
const PROMOTED_NAMES = { P: 'と', L: '杏', N: '圭', S: '全', B: '馬', R: '龍' };

export function pieceName(p) {
  return p.promoted ? PROMOTED_NAMES[p.kind] : NAMES[p.kind];
}

export function kindName(kind) {
  return NAMES[kind];
}

export function emptyHands() {
  const h = {};
  for (const k of HAND_KINDS) h[k] = 0;
  return h;
}

export function emptyPosition() {
  return {
    board: Array.from({ length: 9 }, () => Array(9).fill(null)),
    hands: { b: emptyHands(), w: emptyHands() },
    side: 'b',
    moveNumber: 1,
  };
}

export function clonePosition(p) {
  return {
    board: p.board.map((row) => row.map((x) => (x ? { ...x } : null))),
    hands: { b: { ...p.hands.b }, w: { ...p.hands.w } },
    side: p.side,
    moveNumber: p.moveNumber,
  };
}

// Reads a SFEN (as normalised by the solver; lenient enough for display). Throws an Error with
// a message on text it cannot read.
export function parseSfen(text) {
  const fields = text.trim().split(/\s+/);
  if (fields[0] === 'sfen') fields.shift();
  if (fields.length < 3) throw new Error('SFEN needs board, side to move and hand');
  const pos = emptyPosition();
  const rows = fields[0].split('/');
  if (rows.length !== 9) throw new Error('SFEN board needs 9 ranks');
  rows.forEach((row, r) => {
    let c = 0;
    let promoted = false;
    for (const ch of row) {
      if (/[1-9]/.test(ch)) {
        c += Number(ch);
      } else if (ch === '+') {
        promoted = true;
      } else {
        const kind = ch.toUpperCase();
        if (!NAMES[kind] || c > 8) throw new Error(`bad SFEN board rank ${r + 1}`);
        pos.board[r][c] = { kind, promoted, color: ch === kind ? 'b' : 'w' };
        promoted = false;
        c += 1;
      }
    }
    if (c !== 9) throw new Error(`SFEN rank ${r + 1} does not have 9 squares`);
  });
  pos.side = fields[1] === 'w' ? 'w' : 'b';
  if (fields[2] !== '-') {
    let count = '';
    for (const ch of fields[2]) {
      if (/[0-9]/.test(ch)) {
        count += ch;
        continue;
      }
      const kind = ch.toUpperCase();
      if (!HAND_KINDS.includes(kind)) throw new Error(`bad piece '${ch}' in hand`);
      pos.hands[ch === kind ? 'b' : 'w'][kind] += count ? Number(count) : 1;
      count = '';
    }
  }
  pos.moveNumber = Number(fields[3]) > 0 ? Number(fields[3]) : 1;
  return pos;
}

export function toSfen(pos) {
  const rows = pos.board.map((row) => {
    let s = '';
    let empty = 0;
    for (const p of row) {
      if (!p) {
        empty += 1;
        continue;
      }
      if (empty) s += empty;
      empty = 0;
      s += (p.promoted ? '+' : '') + (p.color === 'b' ? p.kind : p.kind.toLowerCase());
    }
    if (empty) s += empty;
    return s;
  });
  let hand = '';
  for (const color of ['b', 'w']) {
    for (const k of HAND_KINDS) {
      const n = pos.hands[color][k];
      if (n > 0) hand += (n > 1 ? n : '') + (color === 'b' ? k : k.toLowerCase());
    }
  }
  return `${rows.join('/')} ${pos.side} ${hand || '-'} ${pos.moveNumber}`;
}

// Pieces of each kind not on the board or in a hand (kind of an unpromoted piece).
export function missingPieces(pos) {
  const left = { ...FULL_SET };
  for (const row of pos.board) for (const p of row) if (p) left[p.kind] -= 1;
  for (const color of ['b', 'w']) for (const k of HAND_KINDS) left[k] -= pos.hands[color][k];
  return left;
}

// Square name as USI writes it: file digit then rank letter ('7g').
export function usiSquare(r, c) {
  return `${9 - c}${'abcdefghi'[r]}`;
}

export function parseUsiSquare(s) {
  return { r: s.charCodeAt(1) - 97, c: 9 - Number(s[0]) };
}

const FILE_DIGITS = '１２３４５６７８９';
const RANK_KANJI = '一二三四五六七八九';

// Draws `pos` into `el` (a <div>): the 9×9 grid with file and rank labels, and the two hands.
// `opts.onSquare(r, c)`, `opts.onHand(color, kind)` make it clickable; `opts.selected` ({r, c})
// and `opts.highlight` ({r, c}, the last move's square) are marked.
export function drawBoard(el, pos, opts = {}) {
  el.textContent = '';
  el.classList.add('board-wrap');
  const hand = (color) => {
    const div = document.createElement('div');
    div.className = `hand hand-${color}`;
    div.dataset.color = color;
    const label = document.createElement('span');
    label.className = 'hand-label';
    label.textContent = color === 'b' ? '☗' : '☖';
    div.appendChild(label);
    let any = false;
    for (const k of HAND_KINDS) {
      const n = pos.hands[color][k];
      if (!n) continue;
      any = true;
      const b = document.createElement(opts.onHand ? 'button' : 'span');
      b.className = 'hand-piece';
      b.dataset.kind = k;
      b.textContent = NAMES[k] + (n > 1 ? n : '');
      if (opts.onHand) b.addEventListener('click', () => opts.onHand(color, k));
      div.appendChild(b);
    }
    if (!any) {
      const none = document.createElement('span');
      none.className = 'hand-none';
      none.textContent = 'なし';
      div.appendChild(none);
    }
    return div;
  };
  el.appendChild(hand('w'));
  const grid = document.createElement('div');
  grid.className = 'grid';
  const corner = () => {
    const d = document.createElement('div');
    d.className = 'label';
    return d;
  };
  for (let c = 0; c < 9; c += 1) {
    const d = corner();
    d.textContent = FILE_DIGITS[8 - c];
    grid.appendChild(d);
  }
  grid.appendChild(corner());
  for (let r = 0; r < 9; r += 1) {
    for (let c = 0; c < 9; c += 1) {
      const sq = document.createElement(opts.onSquare ? 'button' : 'div');
      sq.className = 'sq';
      sq.dataset.sq = usiSquare(r, c);
      const p = pos.board[r][c];
      if (p) {
        const span = document.createElement('span');
        span.className = `piece ${p.color === 'w' ? 'gote' : 'sente'}${p.promoted ? ' promoted' : ''}`;
        span.textContent = pieceName(p);
        sq.appendChild(span);
        sq.title = `${p.color === 'b' ? '☗' : '☖'}${pieceName(p)}`;
      }
      if (opts.selected && opts.selected.r === r && opts.selected.c === c) sq.classList.add('selected');
      if (opts.highlight && opts.highlight.r === r && opts.highlight.c === c) sq.classList.add('last');
      if (opts.onSquare) sq.addEventListener('click', () => opts.onSquare(r, c));
      grid.appendChild(sq);
    }
    const d = corner();
    d.textContent = RANK_KANJI[r];
    grid.appendChild(d);
  }
  el.appendChild(grid);
  el.appendChild(hand('b'));
}
