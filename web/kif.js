// KIF text of a solution: the start position as a board diagram (BOD, as Kifu for Windows and
// the shogi GUIs write a non-standard start) and the moves numbered, "まで N手で詰み" at the
// end. The move names come from the solver's Japanese notation (src/shogi/notation.rs), with
// the KIF conventions: no ▲/△ mark, "同　" for a recapture, the origin square "(28)" after a
// board move.

import { parseSfen, pieceName, HAND_KINDS, kindName } from './board.js';

const KANJI_NUM = ['', '一', '二', '三', '四', '五', '六', '七', '八', '九', '十',
  '十一', '十二', '十三', '十四', '十五', '十六', '十七', '十八'];
const FILE_DIGITS = '１２３４５６７８９';

function handText(hand) {
  const parts = [];
  for (const k of HAND_KINDS) {
    const n = hand[k];
    if (n > 0) parts.push(kindName(k) + (n > 1 ? KANJI_NUM[n] : ''));
  }
  return parts.length ? `${parts.join('　')}　` : 'なし';
}

export function bodText(pos) {
  const lines = [];
  lines.push(`後手の持駒：${handText(pos.hands.w)}`);
  lines.push('  ９ ８ ７ ６ ５ ４ ３ ２ １');
  lines.push('+---------------------------+');
  pos.board.forEach((row, r) => {
    const cells = row.map((p) => {
      if (!p) return ' ・';
      const name = pieceName(p);
      return (p.color === 'w' ? 'v' : ' ') + name;
    });
    lines.push(`|${cells.join('')}|${KANJI_NUM[r + 1]}`);
  });
  lines.push('+---------------------------+');
  lines.push(`先手の持駒：${handText(pos.hands.b)}`);
  if (pos.side === 'w') lines.push('後手番');
  return lines.join('\n');
}

// One KIF move from the solver's Japanese token (▲２二金打, △同玉, ▲３三銀成) and the USI move.
export function kifMove(japanese, usi) {
  let text = japanese.replace(/^[▲△]/, '');
  if (text.startsWith('同')) text = `同　${text.slice(1)}`;
  if (usi[1] !== '*') text += `(${usi[0]}${'abcdefghi'.indexOf(usi[1]) + 1})`;
  return text;
}

// The whole KIF: header, diagram, moves. `line` is {usi, japanese, sfens} from the worker.
export function kifText(line, title) {
  const root = parseSfen(line.sfens[0]);
  const out = ['# KIF形式棋譜ファイル (tsumugi)'];
  if (title) out.push(`表題：${title}`);
  out.push(bodText(root));
  out.push('手数----指手---------消費時間--');
  line.usi.forEach((m, i) => {
    out.push(`${String(i + 1).padStart(4)} ${kifMove(line.japanese[i], m)}`);
  });
  out.push(`まで${line.usi.length}手で詰み`);
  return `${out.join('\n')}\n`;
}

// Square in Japanese ("２二") for messages.
export function japaneseSquare(usiSq) {
  return FILE_DIGITS[Number(usiSq[0]) - 1] + KANJI_NUM['abcdefghi'.indexOf(usiSq[1]) + 1];
}
