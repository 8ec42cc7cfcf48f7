use super::*;

/// A daily-problem style KIF (a made-up problem: ▲２二金打 is mate).
const DAILY: &str = "\
# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----
表題：詰将棋
作者：tsumugi
後手の持駒：飛　角二　金三　銀四　桂四　香四　歩十七
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・v玉 ・|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ 歩 ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ ・ ・ ・ ・ 飛|九
+---------------------------+
先手の持駒：金
先手：
後手：
手数----指手---------消費時間--
*1手詰です。
";

#[test]
fn bod_diagram() {
    let r = read(DAILY).unwrap();
    assert_eq!(
        r.position().to_sfen(),
        "7k1/9/7P1/9/9/9/9/9/8R b Gr2b3g4s4n4l17p 1"
    );
}

#[test]
fn moves_from_startpos_and_handicap() {
    let t = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打\n   6 投了\n";
    let r = read(t).unwrap();
    assert_eq!(r.moves.len(), 5);
    assert_eq!(
        r.position().to_sfen(),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
    );
    let r = read("手合割：角落ち\n1 ３四歩(33)\n").unwrap();
    assert_eq!(r.start.side_to_move(), Color::White);
    assert_eq!(r.moves.len(), 1);
}

#[test]
fn ki2_relative_words() {
    let t = "▲７六歩 △３四歩 ▲２二角成 △同　銀\n▲４五角\nまで5手で先手の勝ち\n";
    let r = read(t).unwrap();
    assert_eq!(r.moves.len(), 5);
    // Two golds can go to 5h (from 6i and 4i): 左 is 6i's from Black's side.
    let r = read("▲５八金左").unwrap();
    assert_eq!(r.moves[0].to_string(), "6i5h");
    let r = read("▲５八金右").unwrap();
    assert_eq!(r.moves[0].to_string(), "4i5h");
    let e = read("▲５八金").unwrap_err();
    assert!(e.reason.contains("ambiguous"), "{e}");
}

#[test]
fn kif_board_with_a_missing_or_misplaced_row_is_rejected() {
    let drop_row = |label: &str| -> String {
        DAILY
            .lines()
            .filter(|l| !l.ends_with(label))
            .map(|l| format!("{l}\n"))
            .collect()
    };
    let e = read(&drop_row("|三")).unwrap_err();
    assert!(e.reason.contains("row 四 where row 三"), "{e}");
    // A row written twice, and rows swapped, are named by their rank.
    let twice = DAILY.replace(
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n",
        "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n",
    );
    assert!(read(&twice).is_err());
    // Without rank labels the count of rows still tells.
    let unlabelled: String = drop_row("|三")
        .lines()
        .map(|l| {
            format!(
                "{}\n",
                l.trim_end_matches(|c| "一二三四五六七八九".contains(c))
            )
        })
        .collect();
    assert!(read(&unlabelled).unwrap_err().reason.contains("8 rows"));
}

#[test]
fn kif_diagram_without_a_hand_line_is_rejected() {
    for line in [
        "先手の持駒：金\n",
        "後手の持駒：飛　角二　金三　銀四　桂四　香四　歩十七\n",
    ] {
        let e = read(&DAILY.replace(line, "")).unwrap_err();
        assert!(e.reason.contains("の持駒"), "{e}");
    }
}

#[test]
fn kif_moves_with_a_gap_or_cut_short_are_rejected() {
    let t = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n";
    assert_eq!(read(t).unwrap().moves.len(), 4);
    let e = read(&t.replace("   2 ３四歩(33)\n", "")).unwrap_err();
    assert!(e.reason.contains("missing"), "{e}");
    // `２二角` of `２二角成(88)`: another move (no promotion) if read.
    let e = read(&t.replace("２二角成(88)", "２二角")).unwrap_err();
    assert!(e.reason.contains("origin"), "{e}");
    // KI2: 成 or 不成 is written where the piece may promote.
    let ki2 = "▲７六歩 △３四歩 ▲２二角成 △同　銀\n";
    assert_eq!(read(ki2).unwrap().moves.len(), 4);
    let e = read(&ki2.replace("角成", "角")).unwrap_err();
    assert!(e.reason.contains("不成"), "{e}");
    assert!(read("▲７六歩 △３四歩 ▲２二角不成").is_ok());
}

#[test]
fn file_numbers_spaced_any_way() {
    let t = DAILY.replace(
        "  ９ ８ ７ ６ ５ ４ ３ ２ １",
        " ９  ８  ７  ６  ５  ４  ３  ２  １",
    );
    assert_eq!(
        read(&t).unwrap().position().to_sfen(),
        read(DAILY).unwrap().position().to_sfen()
    );
}

#[test]
fn faults_name_the_line() {
    let e = read("手合割：平手\n1 ７六歩(77)\n2 ７五歩(77)\n").unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    let e = read("後手の持駒：なし\n| ・ ・|一\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let bad = DAILY.replace("先手の持駒：金", "先手の持駒：玉");
    let e = read(&bad).unwrap_err();
    assert!(e.reason.contains("held"), "{e}");
    let e = read("手合割：平手\nこんにちは\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    let e = read("▲７六歩\n△７五歩\n").unwrap_err();
    assert_eq!(e.line, 2, "{e}");
}

#[test]
fn kif_is_written_in_shift_jis_and_kifu_in_utf8() {
    let text = write(&Position::startpos(), &[], None, &["詰将棋".into()]);
    let sjis = encode(&text, false);
    assert!(std::str::from_utf8(&sjis).is_err(), "a .kif is not UTF-8");
    let (back, _, bad) = encoding_rs::SHIFT_JIS.decode(&sjis);
    assert!(!bad);
    assert_eq!(back, text);
    assert_eq!(encode(&text, true), text.as_bytes());
    assert!(!encode(&text, true).starts_with(b"\xef\xbb\xbf"));
    assert_eq!(
        super::super::read_bytes(&sjis).unwrap().start.to_sfen(),
        Position::startpos().to_sfen()
    );
}

#[test]
fn variations_are_written_as_kifu_for_windows_writes_them() {
    let p = Position::startpos();
    let mv = |s: &str| Move::from_usi(s).unwrap();
    let line: Vec<Move> = ["7g7f", "3c3d", "8h2b+"].iter().map(|m| mv(m)).collect();
    let vars = [
        Variation {
            ply: 2,
            moves: vec![mv("8c8d"), mv("2g2f")],
            comments: vec!["a".into()],
        },
        Variation {
            ply: 3,
            moves: vec![mv("2g2f")],
            comments: vec!["b".into()],
        },
        Variation {
            ply: 2,
            moves: vec![mv("3c3d"), mv("6g6f")],
            comments: vec!["c".into()],
        },
    ];
    // c begins with the main line's ３四歩 and so branches at ply 3, after b (given order
    // within a ply; the deepest ply first).
    let text = write_tree(&p, &line, None, &[], &[(1, "n".into())], &vars);
    let tail = &text[text.find("手数").unwrap()..];
    assert_eq!(
        tail,
        "手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:00/00:00:00)
*n
   2 ３四歩(33)   ( 0:00/00:00:00)+
   3 ２二角成(88)   ( 0:00/00:00:00)+

変化：3手
   3 ２六歩(27)   ( 0:00/00:00:00)+
*b

変化：3手
   3 ６六歩(67)   ( 0:00/00:00:00)
*c

変化：2手
   2 ８四歩(83)   ( 0:00/00:00:00)
*a
   3 ２六歩(27)   ( 0:00/00:00:00)
"
    );
    // Our reader takes the main line and stops at the first 変化.
    assert_eq!(read(&text).unwrap().moves, line);
}

#[test]
fn written_kif_reads_back() {
    let p = Position::startpos();
    let line: Vec<Move> = [
        "7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "2b3c", "4e3d", "3c3d",
    ]
    .iter()
    .map(|m| Move::from_usi(m).unwrap())
    .collect();
    let text = write(&p, &line, Some("詰み"), &["test".into()]);
    assert!(
        text.contains("同　銀(31)") && text.contains("同　銀(33)"),
        "{text}"
    );
    let r = read(&text).unwrap();
    assert_eq!(r.start.to_sfen(), p.to_sfen());
    assert_eq!(r.moves, line);
}

/// `残り全部` (and its variants) for a hand is refused, and the error names the pieces it
/// stands for in that diagram, as a KIF hand the user can write instead.
#[test]
fn rest_of_the_pieces_is_refused_with_the_list_it_stands_for() {
    for rest in ["残り全部", "残りの駒全部"] {
        let text = DAILY.replace(
            "後手の持駒：飛　角二　金三　銀四　桂四　香四　歩十七",
            &format!("後手の持駒：{rest}"),
        );
        let e = read(&text).unwrap_err();
        assert_eq!(e.line, 4, "{e}");
        // The board holds the king, a pawn and a rook; Black holds a gold.
        assert!(
            e.to_string()
                .contains("'後手の持駒：飛　角二　金三　銀四　桂四　香四　歩十七'"),
            "{e}"
        );
    }
    // Black's hand written so: the rest after White's hand.
    let text = DAILY.replace("先手の持駒：金", "先手の持駒：残り全部");
    assert!(text.contains("先手の持駒：残り全部"));
    let e = read(&text).unwrap_err();
    assert!(e.to_string().contains("'先手の持駒：金'"), "{e}");
}
