// Labels in Japanese and English. Elements carry data-i18n="<key>" (text) or
// data-i18n-title="<key>" (tooltip); `apply` fills them in.

export const TEXT = {
  ja: {
    title: 'tsumugi 詰将棋ソルバー',
    subtitle: 'ブラウザで動く詰将棋ソルバー (WebAssembly)。インストール不要。',
    loading: 'ソルバーを読み込み中…',
    ready: '準備完了',
    fatal: 'ソルバーを読み込めませんでした',
    editor: '局面編集',
    toolSelect: '選択',
    toolErase: '消す',
    placeSide: '置く駒の向き',
    sideName: { b: '先手', w: '後手' },
    role: { attacker: '攻方', defender: '玉方' },
    sideWithRole: (side, role) => `${side} (${role})`,
    placePromoted: '成駒で置く',
    promote: '成/不成',
    flip: '向きを反転',
    remove: '取り除く',
    hands: '持駒',
    handSente: '先手の持駒',
    handGote: '後手の持駒',
    sideToMove: '手番',
    clearBoard: '盤面クリア',
    restToDefender: (side) => `残り駒を玉方 (${side}) の持駒に`,
    startpos: '平手初期局面',
    sfen: '局面 (SFEN・USI・KIF・CSA)',
    loadSfen: '読み込む',
    openFile: 'ファイルを開く',
    dropHint: 'KIF・KI2・CSA のファイルはページにドロップしても読み込めます',
    loadedFile: (name, format) => `${name} を読み込みました (${format.toUpperCase()})`,
    solverFailed: 'ソルバーが異常終了しました',
    notLoaded: 'ソルバーはまだ読み込み中です',
    copy: 'コピー',
    copied: 'コピーしました',
    settings: '探索設定',
    timeLimit: '制限時間 (秒, 0 = 無制限)',
    mode: 'モード',
    modeStrict: '厳密 (すべての合駒を数える最短手順)',
    modeComposer: '作意 (無駄合を省く)',
    modeFirst: '最初に見つけた詰み',
    hash: '置換表 (MB)',
    solve: '解く',
    stop: '中止',
    progress: '進捗',
    nodes: '局面数',
    nps: '局面/秒',
    elapsed: '経過',
    hashfull: '置換表使用率',
    bestLen: '最短の候補',
    searching: '探索中…',
    answer: '解答',
    answerUsi: 'USI の答え (tsumugi solve と同じ)',
    mateIn: (n) => `${n}手詰`,
    noMate: '不詰 (詰みがないことを証明)',
    unknown: '判定できず',
    stopped: '中止しました',
    timeUp: '時間切れ',
    bestSoFar: 'それまでに見つけた詰み (最短とは限らない)',
    tableFull: (mb) => `置換表 (${mb} MB) が証明済みの結果で満杯です。安く求まるものから捨てて必要なときに求め直すので、大きな置換表より時間がかかることがあります (答えは変わりません)`,
    replay: '手順の再生',
    first: '最初',
    prev: '戻る',
    next: '進む',
    last: '最後',
    usiLine: 'USI (position コマンド)',
    kif: 'KIF',
    invalid: '局面が正しくありません',
    pliesRange: (lo, hi) => `${lo}〜${hi}手`,
    lang: 'English',
    defenderRoot: '手番側が詰まされる側として探索しました (手順は手番側の手から)',
    illegalUrl: 'URL の sfen が読めません',
    missing: '未使用の駒',
    lines: '候補手数',
    linesHint: '2以上なら、最善手順の後に他の王手も調べて、詰む初手を良い順に示します (USI の MultiPV)',
    otherFirstMoves: '他の初手 (最善手順が1)',
    whyNoMate: '不詰の理由: 王手ごとの逃れ',
    moreSearching: (decided, checks) => `他の王手を探索中… (${checks}通り中${decided}通り判定済み)`,
    moreDone: (checks) => `${checks}通りの王手をすべて調べました`,
    moreEnded: (reason) => `探索を終えました (${reason}): 判定済みの結果を示します`,
    moreNone: '他の王手はどれも詰みません (証明済み)',
    moreNoChecks: '他に王手はありません',
    // `minimal`: the shortest mate's length is proven (the line shown may be longer when it
    // was not read to the end); otherwise only a bound.
    fmMate: (moves, e) => {
      if (!e.minimal) {
        return `${moves} まで${e.length}手で詰み (${e.mate_upper}手以内の詰みを証明済み。最短は未証明、${e.mate_lower}手以上)`;
      }
      return e.length === e.mate_upper
        ? `${moves} まで${e.length}手で詰み (最短を証明済み)`
        : `${moves} まで${e.length}手で詰み (最短は${e.mate_upper}手と証明済み)`;
    },
    fmRefuted: (check, defence, only) => `${check} → ${defence}${only ? ' (唯一の応手)' : ''}: 以下詰みなし (証明済み)`,
    fmNoMate: (check) => `${check}: 詰まない (証明済み)`,
    fmUndecided: (check, reason) => `${check}: 未解決 (${reason})`,
    stepThrough: '再生',
    bestLine: '最善手順',
    lineOf: (n, moves) => `候補${n}: ${moves}`,
    refutationOf: (moves) => `逃れ: ${moves}`,
    backToBest: '最善手順に戻る',
  },
  en: {
    title: 'tsumugi tsume-shogi solver',
    subtitle: 'A shogi mate-problem solver running in your browser (WebAssembly). Nothing to install.',
    loading: 'Loading the solver…',
    ready: 'Ready',
    fatal: 'Could not load the solver',
    editor: 'Edit the position',
    toolSelect: 'Select',
    toolErase: 'Erase',
    placeSide: 'Side of placed pieces',
    sideName: { b: 'Sente', w: 'Gote' },
    role: { attacker: 'attacker', defender: 'defender' },
    sideWithRole: (side, role) => `${side} (${role})`,
    placePromoted: 'Place promoted',
    promote: 'Promote/unpromote',
    flip: 'Flip side',
    remove: 'Remove',
    hands: 'Hands',
    handSente: "Sente's hand",
    handGote: "Gote's hand",
    sideToMove: 'Side to move',
    clearBoard: 'Clear board',
    restToDefender: (side) => `Rest to the defender's (${side}'s) hand`,
    startpos: 'Start position',
    sfen: 'Position (SFEN, USI, KIF, CSA)',
    loadSfen: 'Load',
    openFile: 'Open a file',
    dropHint: 'or drop a KIF, KI2 or CSA file on the page',
    loadedFile: (name, format) => `Read ${name} (${format.toUpperCase()})`,
    solverFailed: 'The solver failed',
    notLoaded: 'The solver is not loaded yet',
    copy: 'Copy',
    copied: 'Copied',
    settings: 'Search settings',
    timeLimit: 'Time limit (s, 0 = none)',
    mode: 'Mode',
    modeStrict: 'Strict (shortest mate, every interposition counted)',
    modeComposer: 'Composer (useless interpositions omitted)',
    modeFirst: 'First mate found',
    hash: 'Table (MB)',
    solve: 'Solve',
    stop: 'Stop',
    progress: 'Progress',
    nodes: 'Nodes',
    nps: 'Nodes/s',
    elapsed: 'Time',
    hashfull: 'Table use',
    bestLen: 'Best so far',
    searching: 'Searching…',
    answer: 'Answer',
    answerUsi: 'USI answer (as tsumugi solve prints it)',
    mateIn: (n) => `Mate in ${n}`,
    noMate: 'No mate (proven)',
    unknown: 'Undecided',
    stopped: 'Stopped',
    timeUp: 'Time limit reached',
    bestSoFar: 'Mate found before the end (maybe not the shortest)',
    tableFull: (mb) => `The table (${mb} MB) is full of proven results: the cheapest are dropped and found again when needed, so the search may take longer than with a larger table (the answer is the same)`,
    replay: 'Step through',
    first: 'First',
    prev: 'Back',
    next: 'Forward',
    last: 'Last',
    usiLine: 'USI (position command)',
    kif: 'KIF',
    invalid: 'Invalid position',
    pliesRange: (lo, hi) => `${lo}–${hi} plies`,
    lang: '日本語',
    defenderRoot: 'The side to move is the one being mated (the line starts with its move)',
    illegalUrl: 'The sfen in the URL cannot be read',
    missing: 'Unused pieces',
    lines: 'Lines',
    linesHint: 'With 2 or more, after the best line the other checks are searched too and the mating first moves listed best first (USI MultiPV)',
    otherFirstMoves: 'Other first moves (the best line is 1)',
    whyNoMate: 'Why no mate: a defence to each check',
    moreSearching: (decided, checks) => `Searching the other checks… (${decided} of ${checks} decided)`,
    moreDone: (checks) => `All ${checks} checks searched`,
    moreEnded: (reason) => `Search ended (${reason}): what was established is shown`,
    moreNone: 'No other check mates (proven)',
    moreNoChecks: 'There is no other check',
    fmMate: (moves, e) => {
      if (!e.minimal) {
        return `${moves}: mate in ${e.length} (a mate within ${e.mate_upper} plies proven; shortest not proven, at least ${e.mate_lower})`;
      }
      return e.length === e.mate_upper
        ? `${moves}: mate in ${e.length}, proven shortest`
        : `${moves}: mate in ${e.length} (the shortest mate is ${e.mate_upper} plies, proven)`;
    },
    fmRefuted: (check, defence, only) => `${check} → ${defence}${only ? ' (the only reply)' : ''}: no mate after it (proven)`,
    fmNoMate: (check) => `${check}: does not mate (proven)`,
    fmUndecided: (check, reason) => `${check}: undecided (${reason})`,
    stepThrough: 'Step through',
    bestLine: 'Best line',
    lineOf: (n, moves) => `Line ${n}: ${moves}`,
    refutationOf: (moves) => `Refutation: ${moves}`,
    backToBest: 'Back to the best line',
  },
};

export function apply(lang) {
  const t = TEXT[lang];
  document.documentElement.lang = lang;
  document.title = t.title;
  for (const el of document.querySelectorAll('[data-i18n]')) {
    const v = t[el.dataset.i18n];
    if (typeof v === 'string') el.textContent = v;
  }
  for (const el of document.querySelectorAll('[data-i18n-title]')) {
    const v = t[el.dataset.i18nTitle];
    if (typeof v === 'string') el.title = v;
  }
}

// ---------------------------------------------------------------- solver texts in Japanese
//
// The solver (Rust, shared with `tsumugi solve`) words its errors and reports in English. The
// page shows them as they are in English; in Japanese it renders them here: a status from the
// answer's fields (`statusJa`), the reasons a search ended (`REASONS_JA`), and the errors of
// reading a position by their English wording (`ERRORS_JA`: one pattern per message of
// src/shogi/sfen.rs and src/record/; wrapped messages, "bad SFEN: ..." and the like, are
// rendered inside out). A message no pattern knows is shown in English after a Japanese frame,
// never lost; web/tests/wasm-api.test.mjs feeds the module faulty records of every kind and
// checks each is rendered in Japanese.

const SIDE_JA = { Black: '先手', White: '後手' };
const PIECE_JA = {
  pawn: '歩', pawns: '歩', lance: '香', lances: '香', knight: '桂', knights: '桂',
  silvers: '銀', golds: '金', bishops: '角', rooks: '飛', piece: '駒', pieces: '駒',
};
const RANK_JA = { a: '一', b: '二', c: '三', d: '四', e: '五', f: '六', g: '七', h: '八', i: '九' };
const rankJa = (r) => `${RANK_JA[r] || r}段目`;

// [pattern, rendering]; `tr` renders a wrapped message.
const ERRORS_JA = [
  [/^line (\d+): (.*)$/s, (m, tr) => `${m[1]}行目: ${tr(m[2])}`],
  [/^bad SFEN: (.*)$/s, (m, tr) => `SFEN が読めません: ${tr(m[1])}`],
  [/^board diagram: (.*)$/s, (m, tr) => `盤面図: ${tr(m[1])}`],
  [/^the position is not valid: (.*)$/s, (m, tr) => `局面が正しくありません: ${tr(m[1])}`],
  [/^move (\d+): (.*)$/s, (m, tr) => `${m[1]}手目: ${tr(m[2])}`],
  // SFEN (src/shogi/sfen.rs)
  [/^empty SFEN$/, () => 'SFEN が空です'],
  [/^SFEN needs at least 3 fields \(board, side to move, hand\), got (\d+)$/,
    (m) => `SFEN には盤面・手番・持駒の3項目が必要です (${m[1]}項目しかありません)`],
  [/^SFEN has (\d+) fields, expected at most 4 \(unexpected '(.*)'\)$/,
    (m) => `SFEN の項目が${m[1]}個あります (4個まで; 余分な '${m[2]}')`],
  [/^side to move must be 'b' or 'w', got '(.*)'$/, (m) => `手番は 'b' か 'w' です ('${m[1]}' ではなく)`],
  [/^move number must be a positive integer, got '(.*)'$/, (m) => `手数は正の整数です ('${m[1]}' ではなく)`],
  [/^board has (\d+) ranks, expected 9$/, (m) => `盤面が${m[1]}段あります (9段必要)`],
  [/^rank (\w): '\+' must be followed by a piece letter$/, (m) => `${rankJa(m[1])}: '+' の後には駒の文字が必要です`],
  [/^rank (\w): empty-square count 0 is not allowed$/, (m) => `${rankJa(m[1])}: 空きマスの数に 0 は使えません`],
  [/^rank (\w) has more than 9 squares$/, (m) => `${rankJa(m[1])}が9マスを超えています`],
  [/^rank (\w): '(.*)' cannot be promoted$/, (m) => `${rankJa(m[1])}: '${m[2]}' は成れない駒です`],
  [/^rank (\w): unknown character '(.*)'$/, (m) => `${rankJa(m[1])}: 知らない文字 '${m[2]}'`],
  [/^rank (\w) has (\d+) squares, expected 9$/, (m) => `${rankJa(m[1])}が${m[2]}マスです (9マス必要)`],
  [/^rank (\w): '\+' at the end of the rank$/, (m) => `${rankJa(m[1])}: 段の最後に '+' があります`],
  [/^empty hand field \(use '-' for no pieces in hand\)$/, () => '持駒の項目が空です (持駒なしは \'-\')'],
  [/^hand: count (\d+) is more than any piece kind has$/, (m) => `持駒: 数 ${m[1]} はどの駒の枚数よりも多い数です`],
  [/^hand: unknown character '(.*)'$/, (m) => `持駒: 知らない文字 '${m[1]}'`],
  [/^hand: a king cannot be held in hand$/, () => '持駒: 玉は持駒にできません'],
  [/^hand: count 0 for '(.*)'$/, (m) => `持駒: '${m[1]}' の数が 0 です`],
  [/^hand: (\d+) x '(.*)' is more than the (\d+) that exist$/,
    (m) => `持駒: '${m[2]}' が${m[1]}枚ありますが、この駒は${m[3]}枚しかありません`],
  [/^hand: count without a piece letter at the end$/, () => '持駒: 最後の数に駒の文字がありません'],
  [/^too many (\w+): (\d+) on board and in hand, only (\d+) exist$/,
    (m) => `${PIECE_JA[m[1]] || m[1]}が多すぎます: 盤上と持駒で${m[2]}枚 (${m[3]}枚しかありません)`],
  [/^(Black|White) has (\d+) kings$/, (m) => `${SIDE_JA[m[1]]}の玉が${m[2]}枚あります`],
  [/^(Black|White) (\w+) on (\w+) can never move \(must be promoted there\)$/,
    (m) => `${SIDE_JA[m[1]]}の${PIECE_JA[m[2]] || m[2]} (${m[3]}) はもう動けません (そこでは成っていなければなりません)`],
  [/^(Black|White) has two unpromoted pawns on file (\d) \(nifu\)$/,
    (m) => `${SIDE_JA[m[1]]}の歩が${m[2]}筋に2枚あります (二歩)`],
  [/^no king on the board: there is nobody to mate$/, () => '盤上に玉がありません (詰ませる相手がいません)'],
  [/^(Black|White) \(not to move\) is in check: the side to move could capture the king$/,
    (m) => `手番でない${SIDE_JA[m[1]]}に王手がかかっています (手番側が玉を取れます)`],
  // Records (src/record/)
  [/^empty input: no position$/, () => '入力が空です (局面がありません)'],
  [/^not a position: '(.*)' is neither SFEN, KIF nor CSA$/s,
    (m) => `局面ではありません: '${m[1]}' は SFEN でも KIF でも CSA でもありません`],
  [/^not text: neither UTF-8 nor Shift_JIS \(CP932\)$/, () => 'テキストではありません (UTF-8 でも Shift_JIS (CP932) でもありません)'],
  [/^a second position: a file holds one \(solve many with --batch\)$/, () => '2つ目の局面があります (局面は1つだけ)'],
  [/^'(.*)' is not a USI move$/, (m) => `'${m[1]}' は USI の指し手ではありません`],
  [/^illegal move '(.*)' \((.*)\) in (.*)$/, (m) => `指せない手です: '${m[1]}' (${m[2]})、局面 ${m[3]}`],
  [/^no board diagram, handicap or moves: not a position$/, () => '盤面図も手合割も指し手もありません (局面ではありません)'],
  [/^not understood as KIF: '(.*)'$/, (m) => `KIF として読めません: '${m[1]}'`],
  [/^not understood as CSA: '(.*)'$/, (m) => `CSA として読めません: '${m[1]}'`],
  [/^unknown handicap '(.*)'$/, (m) => `知らない手合割 '${m[1]}'`],
  [/^unknown 手番 '(.*)'$/, (m) => `知らない手番 '${m[1]}'`],
  [/^the board diagram has (\d+) rows, expected 9$/, (m) => `盤面図が${m[1]}段あります (9段必要)`],
  [/^board row: fewer than 9 squares$/, () => '盤面の行: 9マスに足りません'],
  [/^board row: '(.*)' is not a piece \(square (\d+)\)$/, (m) => `盤面の行: '${m[1]}' は駒ではありません (${m[2]}マス目)`],
  [/^board row: square (\d+) starts with (.*), expected ' ' or 'v'$/,
    (m) => `盤面の行: ${m[1]}マス目が ${m[2]} で始まっています (' ' か 'v' のはず)`],
  [/^hands or a frame but no board rows \('\|' lines\)$/, () => '持駒や枠はありますが盤面の行 (\'|\' の行) がありません'],
  [/^text before the defender's hand$/, () => '後手の持駒の前に余計な行があります'],
  [/^text after the attacker's hand$/, () => '先手の持駒の後に余計な行があります'],
  [/^'(.*)' is not a move \(expected a square such as ７六 or 同\)$/,
    (m) => `'${m[1]}' は指し手ではありません (７六 や 同 のようなマスが必要)`],
  [/^'(.*)': bad origin square$/, (m) => `'${m[1]}': 移動元のマスが読めません`],
  [/^'(.*)': no piece name$/, (m) => `'${m[1]}': 駒の名前がありません`],
  [/^'(.*)': unexpected '(.*)' after the move$/, (m) => `'${m[1]}': 指し手の後に余計な '${m[2]}'`],
  [/^'(.*)' after the moves began$/, (m) => `指し手が始まった後に '${m[1]}' があります`],
  [/^'(.*)' is marked for the side not to move$/, (m) => `'${m[1]}' は手番でない側の手です`],
  [/^no legal move of a (\S+) (dropped )?to (\S+?)(?: from (\S+))?$/,
    (m) => `${m[4] ? `${m[4]}から` : ''}${m[3]}への${m[1]}${m[2] ? '打' : ''}の合法手がありません`],
  [/^ambiguous: (\d+) legal moves of a (\S+) to (\S+) fit \((.*)\)$/,
    (m) => `あいまいです: ${m[3]}への${m[2]}の合法手が${m[1]}通りあります (${m[4]})`],
  [/^'(.*)' is not a CSA move$/, (m) => `'${m[1]}' は CSA の指し手ではありません`],
  [/^'(.*)': a (.*) cannot be dropped$/, (m) => `'${m[1]}': ${m[2]} は打てません`],
  [/^'(.*)': bad destination$/, (m) => `'${m[1]}': 移動先のマスが読めません`],
  [/^'(.*)': bad origin$/, (m) => `'${m[1]}': 移動元のマスが読めません`],
  [/^'(.*)': no piece of the side to move on (.*)$/, (m) => `'${m[1]}': ${m[2]} に手番側の駒がありません`],
  [/^'(.*)': the piece on (.*) is (.*), not (.*)$/, (m) => `'${m[1]}': ${m[2]} の駒は ${m[3]} で、${m[4]} ではありません`],
  [/^'(.*)': unknown piece$/, (m) => `'${m[1]}': 知らない駒`],
  [/^'(.*)' is a move of the side not to move$/, (m) => `'${m[1]}' は手番でない側の手です`],
  [/^PI: unknown piece '(.*)'$/, (m) => `PI: 知らない駒 '${m[1]}'`],
  [/^row P(\d): longer than 9 squares$/, (m) => `P${m[1]} の行が9マスより長いです`],
  // Incomplete positions, refused rather than read as another position.
  [/^the board has rows P1\.\.P(\d) only: P1\.\.P9 are needed, each once, in order$/,
    (m) => `盤面の行が P1〜P${m[1]} しかありません (P1〜P9 が各1回、順に必要です)`],
  [/^row P(\d) where P(\d) was expected: a board needs P1\.\.P9 in order$/,
    (m) => `P${m[2]} があるべき所に P${m[1]} の行があります (P1〜P9 を順に書きます)`],
  [/^row P(\d) again or out of order \(P(\d) came before\)$/,
    (m) => `P${m[1]} の行が重複しているか順序が違います (前に P${m[2]} がありました)`],
  [/^row P(\d): shorter than 9 squares \(3 characters each\)$/,
    (m) => `P${m[1]} の行が9マスより短いです (1マス3文字)`],
  [/^row P(\d) after PI: a board is one or the other$/,
    (m) => `PI の後に P${m[1]} の行があります (盤面はどちらか一方で書きます)`],
  [/^PI after P1\.\.P9 rows: a board is one or the other$/,
    () => 'P1〜P9 の行の後に PI があります (盤面はどちらか一方で書きます)'],
  [/^a second PI \(the first is on line (\d+)\)$/, (m) => `PI が2回あります (1回目は${m[1]}行目)`],
  [/^a second side to move \('\+' or '-'\)$/, () => '手番 (+ か -) が2回あります'],
  [/^no side to move: the position ends with a '\+' or '-' line$/,
    () => '手番がありません (局面は + か - の行で終わります)'],
  [/^'(.*)' after the side to move: the position comes before it$/,
    (m) => `手番の後に '${m[1]}' があります (局面は手番より前に書きます)`],
  [/^board row (.+) where row (.+) was expected: a diagram needs rows 一\.\.九 in order$/,
    (m) => `${m[2]}段目があるべき所に${m[1]}段目があります (一〜九段を順に書きます)`],
  [/^board row: '(.*)' after the closing '\|' is not a rank \(一\.\.九\)$/,
    (m) => `盤面の行: 閉じの '|' の後の '${m[1]}' は段 (一〜九) ではありません`],
  [/^the board diagram has no (.+) line \(なし when empty\)$/,
    (m) => `盤面図に${m[1]}の行がありません (無いときは「なし」と書きます)`],
  [/^move (\d+) after move (\d+): a move is missing$/,
    (m) => `${m[2]}手目の次が${m[1]}手目です (指し手が抜けています)`],
  [/^'(.*)': a KIF move ends with its origin, as \(77\), or 打$/,
    (m) => `'${m[1]}': KIF の指し手は移動元 ((77) など) か「打」で終わります`],
  [/^'(.*)': the piece may promote here, so 成 or 不成 is written$/,
    (m) => `'${m[1]}': ここでは成れるので「成」か「不成」を書きます`],
  [/^no move number \(a SFEN has 4 fields: board, side, hand, move number\)$/,
    () => '手数がありません (SFEN は盤面・手番・持駒・手数の4つです)'],
  [/^no position: neither PI nor P1\.\.P9 rows nor P\+\/P- pieces$/,
    () => '局面がありません (PI も P1〜P9 の行も P+/P- の駒もありません)'],
  [/^'(.*)' cannot be held in hand$/, (m) => `'${m[1]}' は持駒にできません`],
  [/^'(.*)' is not a piece in hand$/, (m) => `'${m[1]}' は持駒の駒ではありません`],
  [/^'(.*)' is not a piece that can be held$/, (m) => `'${m[1]}' は持駒にできる駒ではありません`],
  [/^'(.*)': '(.*)' is not a count$/, (m) => `'${m[1]}': '${m[2]}' は数ではありません`],
  [/^'(.*)': the count must be written x<n>$/, (m) => `'${m[1]}': 数は x<n> の形で書きます`],
  [/^unknown piece '(.*)'$/, (m) => `知らない駒 '${m[1]}'`],
  [/^'(.*)' is not a piece$/, (m) => `'${m[1]}' は駒ではありません`],
  [/^'(.*)' is neither a space nor ￪\/￬$/, (m) => `'${m[1]}' は空白でも ￪/￬ でもありません`],
  [/^an arrow without a piece$/, () => '向きの矢印の後に駒がありません'],
  [/^a piece at column (\d+) is not on a square$/, (m) => `${m[1]}桁目の駒がマスの位置にありません`],
  [/^(\d+) frame lines of dashes, expected 2$/, (m) => `枠の線 (---) が${m[1]}本あります (2本必要)`],
  [/^(\d+) rows between the frames, expected 9$/, (m) => `枠の間に${m[1]}行あります (9行必要)`],
  // A move text, then what is wrong with it (KIF and CSA wrap move faults so).
  [/^'(.*?)': (.*)$/s, (m, tr) => `'${m[1]}': ${tr(m[2])}`],
];

// An error message of the solver in Japanese (the English text when no pattern knows it).
export function errorJa(text) {
  for (const [re, render] of ERRORS_JA) {
    const m = re.exec(text);
    if (m) return render(m, errorJa);
  }
  return text;
}

// Why a search ended undecided (or a mate's search early): UnknownReason's Display.
const REASONS_JA = [
  [/^stopped$/, () => '中止しました'],
  [/^time limit reached$/, () => '時間切れ'],
  [/^node limit reached$/, () => '局面数の上限'],
  [/^length limit reached$/, () => '手数の上限'],
  [/^mate proven but no verified line \((.*)\)$/s, (m) => `詰みは証明しましたが検証済みの手順を読めませんでした (${m[1]})`],
];

// In English the solver's words, two of them as the page's labels say them.
const REASONS_EN = [
  [/^stopped$/, () => 'Stopped'],
  [/^time limit reached$/, () => 'Time limit reached'],
];

// What is established about a mate, from the answer's fields (as `MateStatus::describe` says it
// in English).
function statusJa(r) {
  if (r.composed) {
    // Two counts, each with what is proven of it (as `MateStatus::describe` says it).
    const strict = r.minimal ? `${r.upper}手詰、最短を証明済み` : `${r.lower}〜${r.upper}手、最短は未証明`;
    return `作意の数え方 (無駄合を省略): ${r.composer_length}手、示した手順 (この数え方での最短も、`
      + `応手が最長であることも未証明)。厳密な手数 (無駄合も数える): ${strict}`;
  }
  const n = r.line_len;
  const defences = r.longest_defences
    ? '手順中の応手はすべて最長の応手'
    : '手順中の応手がすべて最長とは証明されていません (もっと長く逃れる応手があり得ます)';
  let text;
  if (r.minimal) {
    text = n === r.upper
      ? `${n}手詰: 最短を証明済み。${defences}`
      : `最短の詰みは${r.upper}手と証明済みですが、示した手順は${n}手です (最短手順を読み切る前に探索が終わりました)。${defences}`;
  } else {
    text = `${n}手の手順。最短は未証明: ${r.lower}〜${r.upper}手。${defences}`;
  }
  return text;
}

// The solver's texts for the page in `lang`: errors of reading a position or starting a
// search, the reasons a search ended, and the status of an answer.
export function solverText(lang) {
  const ja = lang === 'ja';
  const render = (table, text) => {
    for (const [re, f] of table) {
      const m = re.exec(text);
      if (m) return f(m);
    }
    return text;
  };
  return {
    // `e` is a reply of tsumugi_inspect ({error, line, reason}) or a message.
    error(e) {
      if (typeof e === 'string') return ja ? errorJa(e) : e;
      if (!ja) return e.error;
      const reason = errorJa(e.reason != null ? e.reason : e.error);
      return e.line ? `${e.line}行目: ${reason}` : reason;
    },
    reason: (text) => render(ja ? REASONS_JA : REASONS_EN, text),
    status: (r) => (ja && r.upper != null && r.line_len != null ? statusJa(r) : r.status),
  };
}
