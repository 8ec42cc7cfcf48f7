"""The oracle of every mating line the tests and scripts are shown: replayed with cshogi."""

from __future__ import annotations

import cshogi


def verify_mate_line(sfen: str, moves) -> tuple[bool, str]:
    """Check with cshogi that `moves` (USI strings, a list or one space-separated string) played
    from `sfen` is a mating line: every move legal, every attacker move gives check, and the
    final position is checkmate. An odd-length line starts with the attacker (the side to move
    mates); an even-length one with the defender (a defender-to-move root: the side to move is
    mated). Returns (ok, reason)."""
    if isinstance(moves, str):
        moves = moves.split()
    moves = list(moves)
    if sfen.startswith("sfen "):
        sfen = sfen[len("sfen "):]
    if not moves:
        return False, "empty line"
    try:
        board = cshogi.Board(sfen)
    except RuntimeError as e:
        return False, f"cshogi rejects the SFEN {sfen!r}: {e}"
    # An even-length line is a defender-to-move root's: the side to move is mated.
    first = 0 if len(moves) % 2 == 1 else 1
    for i, mv in enumerate(moves):
        attacking = i % 2 == first
        side = "attacker" if attacking else "defender"
        legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
        if mv not in legal:
            return False, f"move {i + 1} ({side}) {mv} is illegal in {board.sfen()}"
        board.push_usi(mv)
        if attacking and not board.is_check():
            return False, f"move {i + 1} (attacker) {mv} does not give check"
    if not (board.is_check() and board.is_game_over()):
        return False, f"final position is not checkmate: {board.sfen()}"
    return True, "ok"
